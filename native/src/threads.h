/* threads.h: the one thread layer of native/src: POSIX threads where they exist, Win32 threads
 * on Windows (MSVC, or mingw-w64 without -pthread). Threads, a mutex, a pause, and memory a
 * thread owns that is freed when the thread ends. Nothing else: atomics and _Thread_local are
 * C11's own. No other file includes pthread.h or windows.h. On POSIX a file that includes it
 * defines _POSIX_C_SOURCE 200809L first (nanosleep, pthread keys) unless it builds as gnu11. */
#ifndef BG_THREADS_H
#define BG_THREADS_H

#include <stdlib.h>

typedef void *(*bg_thread_fn)(void *arg);

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <process.h>

/* The thread's function and argument live in the handle's struct, which the thread reads at
 * its start: a bg_thread must stay where it is until bg_thread_join. */
typedef struct { HANDLE handle; bg_thread_fn fn; void *arg; } bg_thread;
typedef SRWLOCK bg_mutex;

static inline unsigned __stdcall bg_thread_trampoline(void *self) {
    bg_thread *t = (bg_thread *)self;
    t->fn(t->arg);
    return 0;
}

/* 0 when the thread runs, non-zero when it could not be started */
static inline int bg_thread_start(bg_thread *t, bg_thread_fn fn, void *arg) {
    t->fn = fn;
    t->arg = arg;
    t->handle = (HANDLE)_beginthreadex(NULL, 0, bg_thread_trampoline, t, 0, NULL);
    return t->handle ? 0 : -1;
}

static inline void bg_thread_join(bg_thread *t) {
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
}

static inline void bg_thread_yield(void) { Sleep(1); }   /* a waiting loop's pause */

static inline int bg_mutex_init(bg_mutex *m) { InitializeSRWLock(m); return 0; }
static inline void bg_mutex_lock(bg_mutex *m) { AcquireSRWLockExclusive(m); }
static inline void bg_mutex_unlock(bg_mutex *m) { ReleaseSRWLockExclusive(m); }
static inline void bg_mutex_destroy(bg_mutex *m) { (void)m; }   /* an SRW lock holds nothing */

/* Fiber-local storage's callback runs when the thread ends, as a pthread key's destructor.
 * (The index is kept in a static of its own: InitOnce's context must have its low bits clear,
 * which a small index has not.) */
static inline void NTAPI bg_owned_free(void *p) { free(p); }
static inline DWORD *bg_owned_key(void) { static DWORD key = FLS_OUT_OF_INDEXES; return &key; }
static inline BOOL CALLBACK bg_owned_key_make(PINIT_ONCE once, void *param, void **context) {
    (void)once; (void)param; (void)context;
    *bg_owned_key() = FlsAlloc(bg_owned_free);
    return TRUE;
}

/* p (from malloc) is free()d when the calling thread ends; one such block a thread */
static inline void bg_thread_owns(void *p) {
    static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
    InitOnceExecuteOnce(&once, bg_owned_key_make, NULL, NULL);
    if (*bg_owned_key() != FLS_OUT_OF_INDEXES) FlsSetValue(*bg_owned_key(), p);
}

#else
#include <pthread.h>
#include <time.h>

typedef struct { pthread_t id; } bg_thread;
typedef pthread_mutex_t bg_mutex;

static inline int bg_thread_start(bg_thread *t, bg_thread_fn fn, void *arg) {
    return pthread_create(&t->id, NULL, fn, arg);
}

static inline void bg_thread_join(bg_thread *t) { pthread_join(t->id, NULL); }

static inline void bg_thread_yield(void) {   /* a waiting loop's pause */
    const struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
}

static inline int bg_mutex_init(bg_mutex *m) { return pthread_mutex_init(m, NULL); }
static inline void bg_mutex_lock(bg_mutex *m) { pthread_mutex_lock(m); }
static inline void bg_mutex_unlock(bg_mutex *m) { pthread_mutex_unlock(m); }
static inline void bg_mutex_destroy(bg_mutex *m) { pthread_mutex_destroy(m); }

/* (inside functions, so that a file which never uses them has no unused statics) */
static inline pthread_key_t *bg_owned_key(void) { static pthread_key_t key; return &key; }
static inline void bg_owned_key_make(void) { pthread_key_create(bg_owned_key(), free); }

/* p (from malloc) is free()d when the calling thread ends; one such block a thread */
static inline void bg_thread_owns(void *p) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, bg_owned_key_make);
    pthread_setspecific(*bg_owned_key(), p);
}
#endif

#endif
