/* usr.c: the USR door: decodes a request block the program POKEd into machine RAM, runs the
 * job (best play, ranked candidates, cube decision, evaluation) and writes the answer back
 * into the block (layout in bg.h, usr door section). Never reads or writes outside the
 * block. Not the game's Z80 stub and not the Python encoder (game/model/evaluator.py). */
#include <string.h>
#include "../bg.h"

_Static_assert(BG_USR_CANDS + BG_USR_MAX_CANDS * BG_USR_CAND_LEN <= BG_USR_BLOCK_LEN,
               "candidate list fits the block");
_Static_assert(BG_USR_CAND_STEPS + BG_MAX_STEPS * BG_STEP_FIELDS <= BG_USR_CAND_EQUITY &&
               BG_USR_CAND_EQUITY + 2 <= BG_USR_CAND_LEN, "a candidate's fields fit its entry");
_Static_assert(BG_CUBE_MAX == 1 << BG_CUBE_MAX_LOG2, "the cube's largest value and its log2");
_Static_assert(BG_USR_CUBE_LOSE_GAMMON + 2 <= BG_USR_BEST_NSTEPS &&
               BG_USR_EVAL_EQUITY == BG_USR_OUT + 2 * BG_N_PROBS, "the cube and eval answers");

static void put16(uint8_t *p, int v) { p[0] = (uint8_t)(v & 0xFF); p[1] = (uint8_t)((v >> 8) & 0xFF); }

/* An equity as the block holds it: BG_USR_EQUITY_SCALE times the value, rounded, within
 * +-32000. */
static int to_milli(float x) {
    float v = x * (float)BG_USR_EQUITY_SCALE;
    if (!(v > -32000.0f)) v = -32000.0f;
    if (v > 32000.0f) v = 32000.0f;
    return (int)(v < 0 ? v - 0.5f : v + 0.5f);
}

/* A probability as the block holds it: BG_USR_PROB_SCALE times the value, rounded. */
static int to_tenk(float x) {
    if (!(x > 0.0f)) return 0;
    if (x > 1.0f) x = 1.0f;
    return (int)(x * (float)BG_USR_PROB_SCALE + 0.5f);
}

static bg_play plays[BG_USR_MAX_CANDS];   /* the door belongs to the machine's one thread */

/* The side on roll's terms at +56..+61 into *m: 0, or BG_ERR_BAD_CUBE for a cube past
 * BG_CUBE_MAX (bg_check_match, in the job's call, refuses the rest). */
static int read_terms(const uint8_t *blk, bg_match *m) {
    if (blk[BG_USR_CUBE_LOG2] > BG_CUBE_MAX_LOG2) return BG_ERR_BAD_CUBE;
    m->cube_value = 1 << blk[BG_USR_CUBE_LOG2];
    m->cube_owner = blk[BG_USR_CUBE_OWNER];
    m->match_to = blk[BG_USR_MATCH_TO];
    m->away_me = blk[BG_USR_AWAY_ME];
    m->away_opp = blk[BG_USR_AWAY_OPP];
    m->crawford = blk[BG_USR_CRAWFORD];
    return 0;
}

static int job_plays(uint8_t *blk, int job, const bg_match *terms) {
    int8_t board[BG_BOARD_LEN];
    memcpy(board, blk + BG_USR_BOARD, BG_BOARD_LEN);
    int want = job == BG_USR_JOB_BEST ? 1 : blk[BG_USR_WANT];
    if (want < 1) want = 1;
    if (want > BG_USR_MAX_CANDS) want = BG_USR_MAX_CANDS;
    bg_ranking ranking = {plays, want, 0, 0};
    int n = bg_rank_plays(board, blk[BG_USR_DIE1], blk[BG_USR_DIE2], blk[BG_USR_LEVEL], terms,
                          NULL, &ranking);
    if (n < 0) return -n;
    int legal = ranking.legal;
    blk[BG_USR_NLEGAL] = (uint8_t)(legal > 255 ? 255 : (legal < 0 ? 0 : legal));
    blk[BG_USR_COUNT] = (uint8_t)n;
    if (job == BG_USR_JOB_BEST) {
        memcpy(blk + BG_USR_OUT, plays[0].board, BG_BOARD_LEN);
        blk[BG_USR_BEST_NSTEPS] = (uint8_t)plays[0].nsteps;
        memcpy(blk + BG_USR_BEST_STEPS, plays[0].steps, BG_MAX_STEPS * BG_STEP_FIELDS);
        put16(blk + BG_USR_BEST_EQUITY, to_milli(plays[0].equity));
    } else {
        for (int i = 0; i < n; i++) {
            uint8_t *e = blk + BG_USR_CANDS + i * BG_USR_CAND_LEN;
            e[0] = (uint8_t)plays[i].nsteps;
            memcpy(e + BG_USR_CAND_STEPS, plays[i].steps, BG_MAX_STEPS * BG_STEP_FIELDS);
            put16(e + BG_USR_CAND_EQUITY, to_milli(plays[i].equity));
        }
    }
    return 0;
}

int bg_usr(uint8_t *memory, int params_addr) {
    if (!memory) return BG_ERR_BAD_ARG;
    if (params_addr < 0 || params_addr > BG_USR_MEMORY_LEN - BG_USR_BLOCK_LEN)
        return BG_ERR_USR_ADDR;
    uint8_t *blk = memory + params_addr;
    int job = blk[BG_USR_JOB], status = 0;
    bg_match terms;
    int8_t board[BG_BOARD_LEN];
    memcpy(board, blk + BG_USR_BOARD, BG_BOARD_LEN);
    switch (job) {
    case BG_USR_JOB_PING:
        blk[BG_USR_OUT] = bg_weights_games() > 0;
        blk[BG_USR_STATUS] = 0;
        return BG_ABI_VERSION;
    case BG_USR_JOB_BEST:
    case BG_USR_JOB_RANK:
        status = read_terms(blk, &terms);
        if (status == 0) status = job_plays(blk, job, &terms);
        break;
    case BG_USR_JOB_CUBE: {
        float out[BG_CUBE_OUT_LEN];
        status = read_terms(blk, &terms);
        if (status) break;
        int bits = bg_cube_decision(board, blk[BG_USR_LEVEL], &terms, NULL, out);
        if (bits < 0) { status = -bits; break; }
        blk[BG_USR_OUT] = (uint8_t)bits;
        put16(blk + BG_USR_CUBE_NO_DOUBLE, to_milli(out[0]));
        put16(blk + BG_USR_CUBE_DOUBLE_TAKE, to_milli(out[1]));
        put16(blk + BG_USR_CUBE_DOUBLE_PASS, to_milli(out[2]));
        put16(blk + BG_USR_CUBE_WIN, to_tenk(out[3]));
        put16(blk + BG_USR_CUBE_WIN_GAMMON, to_tenk(out[4]));
        put16(blk + BG_USR_CUBE_LOSE_GAMMON, to_tenk(out[5]));
        break;
    }
    case BG_USR_JOB_EVAL: {
        float p[BG_N_PROBS];
        int level = blk[BG_USR_LEVEL];
        if (level < BG_LEVEL_MIN || level > BG_LEVEL_MAX) { status = BG_ERR_BAD_LEVEL; break; }
        int rc = bg_evaluate(board, level <= 3 ? 0 : level - 3, NULL, p);
        if (rc < 0) { status = -rc; break; }
        for (int k = 0; k < BG_N_PROBS; k++) put16(blk + BG_USR_OUT + 2 * k, to_tenk(p[k]));
        put16(blk + BG_USR_EVAL_EQUITY, to_milli(bg_equity(p)));
        break;
    }
    default:
        status = BG_ERR_USR_JOB;
    }
    blk[BG_USR_STATUS] = (uint8_t)status;
    return status;
}
