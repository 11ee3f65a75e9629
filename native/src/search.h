/* search.h: choosing plays: the five levels over 0-ply, 1-ply, filtered 2-ply and (level 5)
 * 3-ply on the closest 2-ply candidates, under work budgets. Not the evaluator itself
 * (eval.h) and not the cube. */
#ifndef SPECTRUM_SEARCH_H
#define SPECTRUM_SEARCH_H
#include "../bg.h"
#include "eval.h"

typedef struct {
    mg_play play;           /* the play (after = resulting board, mover still row 0) */
    float p[NN_OUT];        /* the mover's probabilities after it, as the level judged */
    float eq;               /* the level's score: cubeless equity, or the heuristic score */
    int8_t ply;             /* depth of the judgement: -1 heuristic, 0, 1, 2, 3, 4 rollout */
} sr_cand;

/* The settings (bg.h's bg_search) travel with each call: every entry into the search sets
 * the calling thread's own copy (sr_set_search) before it searches, so threads searching at
 * once each keep theirs. Level 5 stops starting 2-ply candidates (after the first) once the
 * ranking has evaluated work_budget positions: a budget in work, so the play never depends
 * on the clock. Its deepest ply is 2 (the default), or 3 (the closest 2-ply candidates
 * judged one roll deeper when at least two of them fit, by estimate, in the deep budget: the
 * whole ranking's work); the default stays 2 until 3 is measured better
 * (native/tools/rebuild_log.txt). Its rollouts: 0 trials (the default) none; else its
 * closest SR_ROLL_KEEP candidates (within SR_ROLL_MARGIN of the leader at the deepest ply)
 * are each rolled out roll_trials times, roll_horizon plies deep, on the same dice, and
 * ranked by that (ply SR_PLY_ROLLOUT); off until measured better. */
#define SR_WORK_BUDGET_DEFAULT 300000
#define SR_PLIES_DEFAULT 2
#define SR_DEEP_BUDGET_DEFAULT 800000
#define SR_ROLL_HORIZON_DEFAULT 4
#define SR_ROLL_KEEP 3
#define SR_ROLL_MARGIN 0.06f
#define SR_PLY_ROLLOUT BG_PLY_ROLLED_OUT
extern const bg_search sr_defaults;
/* The calling thread's settings for the searches that follow (NULL: sr_defaults), checked
 * by the caller (bg_check_search). */
void sr_set_search(const bg_search *s);
/* The 21 rolls, d1 <= d2, in the order a node sums their answers (r = 0..SR_ROLLS-1). */
#define SR_ROLLS 21
extern const int8_t sr_roll_d1[SR_ROLLS], sr_roll_d2[SR_ROLLS];
/* fn(ctx, r) for every roll r, shared among `threads` threads (1..BG_SEARCH_THREADS_MAX):
 * the caller and helpers it starts and joins, each taking the next roll not yet taken, each
 * helper searching with the caller's settings and search state (its own cache). fn writes
 * roll r's answer in a place of r's own, so the caller's sums in roll order are the same
 * bits however the rolls fell; a helper that cannot be started leaves its rolls to the
 * others. */
typedef void (*sr_roll_fn)(void *ctx, int r);
void sr_share_rolls(int threads, sr_roll_fn fn, void *ctx);
/* Probabilities of the side on roll at start from `trials` truncated rollouts of `horizon`
 * plies with the luck taken out (search.c; 0-ply choices, money play), with race_cut also
 * cut where contact ends; trials with one dseed meet the same dice. */
void sr_rollout(const mg_board *start, int trials, int horizon, int race_cut, uint64_t dseed,
                float p[NN_OUT]);
/* The 21 different rolls of a ply, numbered by sr_roll_index (1-1 is 0, 1-2 is 1 .. 6-6 is
 * 20; either order of the dice). sr_roll_all: for each, the mover's best play at 0-ply (money
 * play: every thread's match context starts off), its result with the other side on roll in
 * next[r], and the mover's probabilities after it in q[r], judged at luck_ply (0, or 1: one
 * roll deeper, as a luck measure for deeper play); mean: their average over the 36 rolls. The
 * one ply of sr_rollout is this at luck_ply 0, so both measure luck the same way. */
#define SR_ROLLS 21
int sr_roll_index(int d1, int d2);
void sr_roll_all(const mg_board *pos, int luck_ply, float mean[NN_OUT],
                 float q[SR_ROLLS][NN_OUT], mg_board next[SR_ROLLS]);
/* The cache of 0-ply judgements (search.c; one per thread, used when the thread's settings
 * say cache 1): this thread's lookups and hits so far. */
void sr_cache_counts(long *looks, long *hits);
typedef struct { int keep1; float margin1; int keep2; float margin2; int keep3; float margin3; } sr_filter;
extern const sr_filter sr_filters[6];   /* per level; rows 4 and 5 are used */

/* 0-ply probabilities of the side on roll through this thread's cache, counted as work
 * (the cubeful search's evaluations, cubeful.c). */
void sr_eval0(const mg_board *b, float p[NN_OUT]);
/* Probabilities of the side on roll (before its roll) at ply 0 to 3 (3: as level 5's 3-ply
 * pass, each reply re-judged alone). */
void sr_eval_ply(const mg_board *pos, int ply, float p[NN_OUT]);
/* All plays of the roll ranked best first by the level at the thread's settings; fills up
 * to max_out, returns the number of plays (which may exceed max_out); *out_work (unless
 * NULL): the positions it evaluated at 0-ply. Net levels need ev_w loaded. */
int sr_rank(const mg_board *pos, int d1, int d2, int level, sr_cand *out, int max_out,
            long *out_work);
/* Match context for the following sr_rank calls, the mover's terms (bg.h's bg_match,
 * checked by the caller): NULL or match_to 0 = money play (cubeless equity, the default);
 * else candidates are scored by match winning chance as 2*mwc-1 from the match equity
 * table at the cube value (dead cube). */
void sr_set_match(const bg_match *m);
/* The mover's probabilities after the play reaching `after` (mover still row 0) judged at
 * `ply` 0..3 as a ranking judges a candidate (3: as level 5's 3-ply pass, never given up),
 * at the thread's settings, into p; returns its score at the match context set
 * (sr_set_match). */
float sr_judge_after(const mg_board *after, int ply, float p[NN_OUT]);
#endif
