/* selftest.c: one line of hashes that must be the same wherever the engine is built (issue 51):
 * a fixed set of positions judged at 0-ply and 2-ply, and a fixed-seed rollout on two threads,
 * each hashed over the exact bits of its results. Built from native/ with the sources alone:
 *   cc -O2 -std=c11 -Isrc -I. tools/selftest.c src/[a-z]*.c -lm -pthread -o selftest
 * (mingw-w64: no -pthread, so threads.h takes its Win32 path), run as `selftest [WEIGHTS]`
 * (evaluator.wts in the current folder by default; --generic: the network's generic path
 * even where the CPU has AVX2). Not a benchmark and not a test of play strength. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bg.h"
#include "threads.h"

#ifndef POSITIONS
#define POSITIONS 16
#endif
#ifndef ROLLOUT_TRIALS
#define ROLLOUT_TRIALS 36
#endif
#define ROLLOUT_SEED 51u
#define ROLLOUT_THREADS 2
#define ROLLOUT_TRUNCATE 10   /* half-moves, then the 0-ply net judges: a second, not a minute */

typedef struct { uint64_t h; } fnv;   /* FNV-1a, 64 bits */

static void fnv_bytes(fnv *f, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) f->h = (f->h ^ p[i]) * 0x100000001B3ULL;
}

static void fnv_u32(fnv *f, uint32_t x) {   /* little-endian whatever the machine */
    unsigned char b[4] = {(unsigned char)x, (unsigned char)(x >> 8), (unsigned char)(x >> 16),
                          (unsigned char)(x >> 24)};
    fnv_bytes(f, b, 4);
}

static void fnv_float(fnv *f, float v) { uint32_t u; memcpy(&u, &v, 4); fnv_u32(f, u); }

static void fnv_double(fnv *f, double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    fnv_u32(f, (uint32_t)u);
    fnv_u32(f, (uint32_t)(u >> 32));
}

static uint64_t next_random(uint64_t *s) {   /* splitmix64: the walk's dice and choices */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The start, then each position a fixed random walk of legal plays reaches (the side on roll
 * in row 0), skipping finished games: every kind of position from contact to the race. */
static int walk_positions(int8_t boards[POSITIONS][BG_BOARD_LEN]) {
    static int8_t plays[BG_MAX_PLAYS * BG_BOARD_LEN];
    static int8_t steps[BG_MAX_PLAYS * BG_MAX_STEPS * BG_STEP_FIELDS], nsteps[BG_MAX_PLAYS];
    int8_t board[BG_BOARD_LEN];
    uint64_t s = 1983;
    bg_start(board);
    int n = 0;
    while (n < POSITIONS) {
        memcpy(boards[n++], board, BG_BOARD_LEN);
        for (int turn = 0; turn < 5; turn++) {
            const int d1 = (int)(next_random(&s) % 6) + 1, d2 = (int)(next_random(&s) % 6) + 1;
            const int count = bg_legal_plays(board, d1, d2, plays, steps, nsteps, BG_MAX_PLAYS);
            if (count < 1) return -1;
            const int pick = (int)(next_random(&s) % (uint64_t)count);
            bg_swap(plays + (size_t)pick * BG_BOARD_LEN, board);
            if (bg_game_result(board) != 0) bg_start(board);
        }
    }
    return n;
}

static void hex64(char *out, uint64_t v) {   /* printf's %llx is not the same on every libc */
    for (int i = 15; i >= 0; i--, v >>= 4) out[i] = "0123456789abcdef"[v & 15];
    out[16] = '\0';
}

static int load_weights(const char *path) {
    FILE *fh = fopen(path, "rb");
    if (!fh) {
        printf("selftest: cannot open the weights file %s: %s\n", path, strerror(errno));
        return -1;
    }
    const int size = bg_weights_expected_size();
    uint8_t *data = malloc((size_t)size + 1);
    const long got = data ? (long)fread(data, 1, (size_t)size + 1, fh) : -1;
    fclose(fh);
    const int rc = got < 0 ? -BG_ERR_RESOURCES : bg_load_weights(data, (int)got);
    free(data);
    if (rc != 0) printf("selftest: the weights file %s was refused (error %d)\n", path, -rc);
    return rc;
}

static int rollout_hash(int8_t boards[POSITIONS][BG_BOARD_LEN], fnv *f) {
    int8_t cands[2 * BG_BOARD_LEN];
    bg_swap(boards[1], cands);   /* two positions as the results of plays: the mover in row 0 */
    bg_swap(boards[2], cands + BG_BOARD_LEN);
    bg_rollout *ro = NULL;
    const bg_rollout_plan plan = {.kind = BG_ROLLOUT_PLAYS, .trials = ROLLOUT_TRIALS, .level = 3,
                                  .truncate = ROLLOUT_TRUNCATE, .threads = ROLLOUT_THREADS,
                                  .seed = ROLLOUT_SEED};
    int err = bg_rollout_start(cands, 2, &plan, NULL, NULL, &ro);
    if (err) return err;
    while (bg_rollout_busy(ro)) bg_thread_yield();
    double mean[2 * BG_ROLLOUT_FIGURES], se[2 * BG_ROLLOUT_FIGURES];
    const int trials = bg_rollout_poll(ro, mean, se);
    bg_rollout_free(ro);
    fnv_u32(f, (uint32_t)trials);
    for (int k = 0; k < 2 * BG_ROLLOUT_FIGURES; k++) {
        fnv_double(f, mean[k]);
        fnv_double(f, se[k]);
    }
    return trials == ROLLOUT_TRIALS ? 0 : -BG_ERR_RESOURCES;
}

int main(int argc, char **argv) {
    const char *path = "evaluator.wts";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--generic") == 0) bg_nn_avx2(0);
        else path = argv[i];
    }
    if (load_weights(path) != 0) return 2;
    int8_t boards[POSITIONS][BG_BOARD_LEN];
    if (walk_positions(boards) != POSITIONS) {
        printf("selftest: the walk of legal plays failed\n");
        return 1;
    }
    fnv ply0 = {0xCBF29CE484222325ULL}, ply2 = ply0, roll = ply0;
    for (int n = 0; n < POSITIONS; n++) {
        float p0[BG_N_PROBS], p2[BG_N_PROBS];
        if (bg_evaluate(boards[n], 0, NULL, p0) != 0 || bg_evaluate(boards[n], 2, NULL, p2) != 0) {
            printf("selftest: position %d could not be evaluated\n", n);
            return 1;
        }
        for (int k = 0; k < BG_N_PROBS; k++) {
            fnv_float(&ply0, p0[k]);
            fnv_float(&ply2, p2[k]);
        }
    }
    const int rc = rollout_hash(boards, &roll);
    if (rc != 0) {
        printf("selftest: the rollout failed (error %d)\n", -rc);
        return 1;
    }
    char h0[17], h2[17], hr[17];
    hex64(h0, ply0.h);
    hex64(h2, ply2.h);
    hex64(hr, roll.h);
    printf("selftest positions=%d ply0=%s ply2=%s rollout(%d trials, %d threads)=%s\n",
           POSITIONS, h0, h2, ROLLOUT_TRIALS, ROLLOUT_THREADS, hr);
    return 0;
}
