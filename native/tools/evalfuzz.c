/* evalfuzz.c: drives the whole C side (rules, evaluator, search, cube, USR door) over many
 * random positions, random garbage boards and random arguments, for the AddressSanitizer /
 * UBSan build (asan_check.sh). It checks answers only loosely (legal ranges); finding memory
 * or undefined-behaviour errors is the sanitizers' job. Not a benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../bg.h"
#include "toolutil.h"

static uint64_t rs = 12345;
static uint64_t rnd(void) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return rs;
}
static int rint_(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

static int8_t boards[BG_MAX_PLAYS * BG_BOARD_LEN];
static int8_t steps[BG_MAX_PLAYS * BG_MAX_STEPS * BG_STEP_FIELDS];
static int8_t nsteps[BG_MAX_PLAYS];
static bg_play ranked[BG_MAX_PLAYS];
static uint8_t memory[65536];

int main(int argc, char **argv) {
    long n = argc > 2 ? atol(argv[2]) : 100000;
    if (argc < 2) { fprintf(stderr, "usage: evalfuzz WEIGHTS [POSITIONS]\n"); return 2; }
    static uint8_t wts[4 << 20];
    const int len = (int)read_file(argv[1], wts, sizeof wts);
    if (len < 0) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
    if (bg_load_weights(wts, len) != 0) { fprintf(stderr, "weights refused\n"); return 2; }
    /* damaged copies must be refused, never read past their end */
    for (int k = 0; k < 20; k++) {
        int cut = rint_(0, len);
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, wts, cut);
        if (cut > 40) copy[rint_(0, cut - 1)] ^= (uint8_t)rint_(1, 255);
        if (bg_load_weights(copy, cut) == 0 && cut != len) { fprintf(stderr, "damaged weights accepted\n"); return 1; }
        free(copy);
    }
    bg_load_weights(wts, len);
    int8_t pos[BG_BOARD_LEN], work[BG_BOARD_LEN];
    bg_start(pos);
    long bad_answers = 0, errors = 0;
    for (long i = 0; i < n; i++) {
        int garbage = rnd() % 10 == 0;
        if (garbage) for (int k = 0; k < BG_BOARD_LEN; k++) work[k] = (int8_t)rint_(-3, 17) * (rnd() % 4 == 0);
        else memcpy(work, pos, sizeof work);
        int d1 = rnd() % 20 == 0 ? rint_(-1, 8) : rint_(1, 6), d2 = rnd() % 20 == 0 ? rint_(-1, 8) : rint_(1, 6);
        int level = rnd() % 20 == 0 ? rint_(-1, 7) : rint_(1, 3);
        if (i % 400 == 0) level = 4;
        if (i % 5000 == 0) level = 5;
        float probs[BG_CUBE_OUT_LEN];
        /* search settings: mostly NULL or possible ones, sometimes anything (refused) */
        bg_search set;
        bg_search_defaults(&set);
        if (rnd() % 8 == 0) {
            set.plies = rint_(1, 4); set.work_budget = rint_(0, 40000);
            set.deep_budget = rint_(500, 80000); set.roll_trials = rint_(-1, 3);
            set.roll_horizon = rint_(0, 3); set.cache = rint_(-1, 2);
            set.threads = rint_(0, 3);
        }
        const bg_search *search = rnd() % 2 ? &set : NULL;
        if (search && bg_check_search(search) != 0 && bg_check_search(search) != -BG_ERR_BAD_SEARCH)
            bad_answers++;
        int rc = bg_evaluate(work, i % 500 == 0 ? 1 : 0, search, probs);
        if (rc == 0) {
            for (int k = 0; k < BG_N_PROBS; k++) if (!(probs[k] >= 0.0f && probs[k] <= 1.0f)) bad_answers++;
        } else errors++;
        int want = rint_(0, 40);
        bg_ranking ranking = {ranked, want, 0, 0};
        int m = bg_rank_plays(work, d1, d2, level, NULL, search, &ranking);
        if (m > 0 && ranking.legal < m) bad_answers++;
        if (m > want) bad_answers++;
        if (i % 10 == 0) {   /* match-aware ranking, mostly with a possible score */
            int len = rnd() % 8 ? rint_(1, 7) : rint_(-1, 27);
            bg_match terms = {1 << rint_(0, 3), rint_(-1, 3), len, rint_(0, 8), rint_(0, 8),
                              rint_(0, 2)};
            m = bg_rank_plays(work, d1, d2, level, &terms, search, &ranking);
            if (m > want) bad_answers++;
            for (int k = 0; k < m; k++) if (level > 2 && len > 0 && !(ranked[k].equity >= -1.001f && ranked[k].equity <= 1.001f)) bad_answers++;
        }
        if (i % 50 == 0) {
            bg_match terms = {1 << rint_(0, 13), rint_(-1, 3), rint_(-1, 27), rint_(-1, 26),
                              rint_(-1, 26), rint_(-1, 3)};
            bg_cube_decision(work, rint_(0, 6), &terms, search, probs);
        }
        {   /* the cube theory alone: real or random chances, every score and cube value */
            float ch[BG_N_PROBS], cout[BG_CUBE_OUT_LEN];
            if (rc == 0 && rnd() % 2) memcpy(ch, probs, sizeof ch);
            else for (int k = 0; k < BG_N_PROBS; k++) ch[k] = (float)rint_(-100, 1100) / 1000.0f;
            int len = rnd() % 4 ? rint_(1, BG_MET_MAX) : rint_(-1, 27), cube = 1 << rint_(0, 12);
            int owner = rint_(0, 2), craw = rint_(0, 2);
            bg_match terms = {cube, owner, len, rint_(1, len > 0 ? len : 1),
                              rint_(1, len > 0 ? len : 1), craw};
            int bits = bg_cube_from_probs(ch, &terms, cout);
            if (bits >= 0)
                for (int k = 0; k < 3; k++) {
                    float lim = len > 0 ? 1.001f : 6.001f * cube;
                    if (!(cout[k] >= -lim && cout[k] <= lim)) bad_answers++;
                }
            if (i % 25 == 0) {   /* the formula's miss searched, in this position and after a
                                    play of it; a ply out of range now and then */
                int ply = rnd() % 10 ? rint_(0, BG_CUBE_MISS_MAX_PLY) : rint_(-2, 5);
                bits = bg_cube_from_probs_at(work, ch, &terms, ply, cout);
                if (bits >= 0 && (ply < 0 || ply > BG_CUBE_MISS_MAX_PLY)) bad_answers++;
                float value;
                const int valued = bg_cubeful_plays(work, 1, ch, &terms, ply, &value);
                if (valued == 1 && (ply < 0 || ply > BG_CUBE_MISS_MAX_PLY   /* finite, sane */
                                    || !(value >= -10.0f * cube && value <= 10.0f * cube)))
                    bad_answers++;
                /* the miss alone (chances play no part): where the value was given, the
                   formula's value at 0 plies plus the miss is its very bits */
                float miss, at0;
                const int missed = bg_cube_misses(work, 1, &terms, ply, &miss);
                if (missed == 1 && (ply < 0 || ply > BG_CUBE_MISS_MAX_PLY))
                    bad_answers++;
                if (missed == 1 && valued == 1
                    && (bg_cubeful_plays(work, 1, ch, &terms, 0, &at0) != 1 || at0 + miss != value))
                    bad_answers++;
            }
        }
        /* the USR door with the position, random jobs and random parameter bytes */
        int addr = rnd() % 50 == 0 ? rint_(-10, 65600) : rint_(0x4000, 0xFE00);
        if (addr >= 0 && addr <= 65536 - BG_USR_BLOCK_LEN) {
            uint8_t *blk = memory + addr;
            for (int k = 0; k < BG_USR_BLOCK_LEN; k++) blk[k] = (uint8_t)rnd();
            blk[BG_USR_JOB] = (uint8_t)(rnd() % 8 == 0 ? rnd() : (uint64_t)rint_(0, 4));
            if (blk[BG_USR_JOB] == BG_USR_JOB_RANK || blk[BG_USR_JOB] == BG_USR_JOB_BEST)
                blk[BG_USR_LEVEL] = (uint8_t)(rnd() % 10 ? (uint64_t)rint_(1, 3) : rnd());
            if (rnd() % 4) memcpy(blk + BG_USR_BOARD, work, BG_BOARD_LEN);
            if (rnd() % 2) {   /* possible terms (+56..+61) for every job */
                blk[BG_USR_CUBE_LOG2] = (uint8_t)rint_(0, 3);
                blk[BG_USR_CUBE_OWNER] = (uint8_t)rint_(0, 2);
                blk[BG_USR_MATCH_TO] = (uint8_t)rint_(0, 7);
                blk[BG_USR_AWAY_ME] = (uint8_t)rint_(1, 7);
                blk[BG_USR_AWAY_OPP] = (uint8_t)rint_(1, 7);
                blk[BG_USR_CRAWFORD] = (uint8_t)rint_(0, 2);
            }
            if (rnd() % 4) { blk[BG_USR_DIE1] = (uint8_t)rint_(1, 6); blk[BG_USR_DIE2] = (uint8_t)rint_(1, 6); }
        }
        bg_usr(memory, addr);
        /* advance the random game by a random legal play */
        if (!garbage) {
            int np = bg_legal_plays(pos, rint_(1, 6), rint_(1, 6), boards, steps, nsteps, BG_MAX_PLAYS);
            if (np < 1) { bad_answers++; bg_start(pos); continue; }
            memcpy(work, boards + (size_t)rint_(0, np - 1) * BG_BOARD_LEN, BG_BOARD_LEN);
            if (bg_game_result(work) != 0) bg_start(pos);
            else bg_swap(work, pos);
        }
        if (i % 10000 == 0) { fprintf(stderr, "\r%ld/%ld positions", i, n); fflush(stderr); }
    }
    fprintf(stderr, "\r%ld/%ld positions\n", n, n);
    printf("positions: %ld\nrefused_inputs: %ld\nout_of_range_answers: %ld\n", n, errors, bad_answers);
    return bad_answers ? 1 : 0;
}
