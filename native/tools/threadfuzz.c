/* threadfuzz.c: several threads rank, evaluate and judge the cube on the same positions at
 * once, each answer compared with the one a single thread gave first; for the
 * ThreadSanitizer build (tsan_check.sh), which reports any data race between them. Positions
 * come from seeded random play. Not a benchmark. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../bg.h"

#define MAX_CASES 400
#define THREADS 3
typedef struct {
    int8_t board[BG_BOARD_LEN];
    int die1, die2, level, ply, n;
    int8_t best[BG_MAX_PLAYS * BG_BOARD_LEN];
    float eq[BG_MAX_PLAYS], probs[BG_N_PROBS], cube[BG_CUBE_OUT_LEN];
    int cube_bits, work;
} answer;

static answer expect[MAX_CASES];
static int n_cases;

static uint64_t rs = 777;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }

static void start_position(int8_t *b) {   /* each row: 2 on 24, 5 on 13, 3 on 8, 5 on 6 */
    memset(b, 0, BG_BOARD_LEN);
    for (int r = 0; r < 2; r++) {
        b[25 * r + 23] = 2; b[25 * r + 12] = 5; b[25 * r + 7] = 3; b[25 * r + 5] = 5;
    }
}

/* One case judged by the calling thread: ranking (level 3..5), evaluation (ply 0..2), cube. */
static void judge(answer *a) {
    static _Thread_local int8_t steps[BG_MAX_PLAYS * BG_MAX_STEPS * BG_STEP_FIELDS];
    static _Thread_local int8_t nsteps[BG_MAX_PLAYS];
    a->n = bg_rank_plays_match(a->board, a->die1, a->die2, a->level, 0, 0, 0, 0, 1, a->best,
                               steps, nsteps, a->eq, BG_MAX_PLAYS);
    a->work = bg_last_work();
    if (bg_evaluate(a->board, a->ply, a->probs) != 0) a->probs[0] = -1.0f;
    a->cube_bits = bg_cube_decision(a->board, a->level == 5 ? 4 : a->level, 1, 0, 0, 0, 0, 0,
                                    a->cube);
}

static int same(const answer *x, const answer *y) {
    return x->n == y->n && x->work == y->work && x->cube_bits == y->cube_bits &&
           memcmp(x->best, y->best, (size_t)x->n * BG_BOARD_LEN) == 0 &&
           memcmp(x->eq, y->eq, sizeof(float) * (size_t)x->n) == 0 &&
           memcmp(x->probs, y->probs, sizeof x->probs) == 0 &&
           memcmp(x->cube, y->cube, sizeof x->cube) == 0;
}

static int mismatches;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    const int k = (int)(long)arg;
    answer *mine = malloc(sizeof *mine);
    for (int i = k; i < n_cases; i += THREADS) {   /* every thread its share, in turn */
        *mine = expect[i];
        judge(mine);
        if (!same(mine, &expect[i])) {
            pthread_mutex_lock(&count_lock);
            mismatches++;
            pthread_mutex_unlock(&count_lock);
        }
    }
    free(mine);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: threadfuzz WEIGHTS [CASES]\n"); return 2; }
    n_cases = argc > 2 ? atoi(argv[2]) : 60;
    if (n_cases < 1 || n_cases > MAX_CASES) n_cases = MAX_CASES;
    FILE *f = fopen(argv[1], "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
    static uint8_t wts[4 << 20];
    int len = (int)fread(wts, 1, sizeof wts, f);
    fclose(f);
    if (bg_load_weights(wts, len) != 0) { fprintf(stderr, "weights refused\n"); return 2; }
    bg_bearoff_init();
    /* positions along seeded random games, the side on roll to play */
    int8_t pos[BG_BOARD_LEN], plays[BG_MAX_PLAYS * BG_BOARD_LEN];
    static int8_t st[BG_MAX_PLAYS * BG_MAX_STEPS * BG_STEP_FIELDS], ns[BG_MAX_PLAYS];
    start_position(pos);
    for (int i = 0; i < n_cases; i++) {
        answer *a = &expect[i];
        memcpy(a->board, pos, BG_BOARD_LEN);
        a->die1 = 1 + (int)(rnd() % 6);
        a->die2 = 1 + (int)(rnd() % 6);
        a->level = 3 + i % 3;
        a->ply = i % 3;
        judge(a);                                  /* the single thread's answer */
        int n = bg_legal_plays(pos, a->die1, a->die2, plays, st, ns, BG_MAX_PLAYS);
        int8_t *next = plays + (rnd() % (uint64_t)n) * BG_BOARD_LEN;
        if (bg_game_result(next) != 0) { start_position(pos); continue; }
        memcpy(pos, next + 25, 25);                /* the other side on roll */
        memcpy(pos + 25, next, 25);
    }
    pthread_t t[THREADS];
    for (long k = 0; k < THREADS; k++) pthread_create(&t[k], NULL, worker, (void *)k);
    for (int k = 0; k < THREADS; k++) pthread_join(t[k], NULL);
    printf("threadfuzz: %d cases in %d threads, %d answers unlike one thread's\n", n_cases,
           THREADS, mismatches);
    return mismatches != 0;
}
