/* search.c: play choice for levels 1-5. 0-ply judges each resulting position with the net;
 * 1-ply averages over the opponent's 21 rolls, the opponent answering with its best 0-ply
 * play; 2-ply and 3-ply do the same one and two rolls deeper. Each deeper pass keeps only the
 * best few candidates of the pass before it; level 5 stops deepening when its work budgets
 * (positions evaluated, never the clock) are spent, so its play depends only on the position
 * and dice.
 * Every piece of search state is the calling thread's own, so several threads may search at
 * once (the review judges turns side by side), each with the settings its call brought
 * (sr_set_search: the budgets, plies, rollouts and the cache switch).
 * Not the cube and not the Python face. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L   /* threads.h: pthread keys free a thread's cache at its end */
#endif
#include "search.h"
#include "cube.h"
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "threads.h"

const bg_search sr_defaults = {
    .plies = SR_PLIES_DEFAULT, .work_budget = SR_WORK_BUDGET_DEFAULT,
    .deep_budget = SR_DEEP_BUDGET_DEFAULT, .roll_trials = 0,
    .roll_horizon = SR_ROLL_HORIZON_DEFAULT, .cache = 1, .threads = 1,
};
/* the settings of the calling thread's current call (sr_set_search) */
static _Thread_local bg_search cfg = {
    .plies = SR_PLIES_DEFAULT, .work_budget = SR_WORK_BUDGET_DEFAULT,
    .deep_budget = SR_DEEP_BUDGET_DEFAULT, .roll_trials = 0,
    .roll_horizon = SR_ROLL_HORIZON_DEFAULT, .cache = 1, .threads = 1,
};
static _Thread_local long work;   /* positions this thread evaluated (0-ply) so far */

void sr_set_search(const bg_search *s) { cfg = s ? *s : sr_defaults; }

/* Move filters of the searching levels: how many of the best 0-ply candidates go on to
 * 1-ply and how far (equity) behind the leader they may be, then the same from 1-ply to
 * 2-ply (keep2 <= 1: no 2-ply), then from 2-ply to 3-ply (settings of plies 3 only). Level 5
 * looks wider than level 4 and goes one or two plies deeper. */
const sr_filter sr_filters[6] = {
    [4] = { 8, 0.16f, 0, 0.0f, 0, 0.0f },
    [5] = { 10, 0.20f, 6, 0.14f, 3, 0.04f },   /* keep3 at most 3 (deepen's copy) */
};
/* A 3-ply judgement costs about this many times the same candidate's 2-ply one (21 more
 * rolls, less the second-best replies a 3-ply pass does not re-judge). */
#define DEEP_COST_FACTOR 16

#define DEPTHS 5
static _Thread_local mg_play buf[DEPTHS][MG_MAX_PLAYS];
static _Thread_local sr_cand cands[MG_MAX_PLAYS];

/* Match context of the current sr_rank call (sr_set_match); off = money play, where every
 * score below is ev_equity exactly as before. `flip` is 1 while the opponent of the root
 * mover is the side choosing (inside after_value's deeper passes). */
typedef struct { int on, away_me, away_opp, post, cube; } match_ctx;
static _Thread_local match_ctx mctx;
static _Thread_local int flip;
/* 1 during a 3-ply judgement: each reply is the best at 0-ply, re-judged alone (no second);
 * the pass is given up (`over`) once the ranking's work passes deep_limit */
static _Thread_local int lean, over;
static _Thread_local long deep_limit;

void sr_set_match(const bg_match *m) {
    mctx.on = m && m->match_to > 0;
    mctx.away_me = mctx.on ? m->away_me : 0;
    mctx.away_opp = mctx.on ? m->away_opp : 0;
    mctx.post = mctx.on && m->crawford != 0;   /* after this game the Crawford game is past */
    mctx.cube = mctx.on ? m->cube_value : 1;
}

/* the score of probabilities q for the side choosing: money equity, or 2*mwc-1 */
static float score(const float q[NN_OUT]) {
    if (!mctx.on) return ev_equity(q);
    if (flip) return met_match_value(q, mctx.cube, mctx.away_opp, mctx.away_me, mctx.post);
    return met_match_value(q, mctx.cube, mctx.away_me, mctx.away_opp, mctx.post);
}

/* value for the mover of the play's result, the opponent then on roll, judged at `ply` */
static void after_value(const mg_board *after, int ply, float q[NN_OUT]);
static inline void prefetch_after(const mg_board *after);

/* The probabilities of the side on roll at pos after the roll (d1, d2), answered by its best
 * play at 0-ply, re-judged one ply deeper (ply >= 2) with a close second (not in a lean
 * pass) */
static void roll_best(const mg_board *pos, int ply, int depth, int d1, int d2,
                      float best_q[NN_OUT]) {
    mg_play *plays = buf[depth];
    int n = mg_generate(pos, d1, d2, plays);
    float best_eq = -1e9f;
    int first = -1, second = -1;
    float first_eq = -1e9f, second_eq = -1e9f;
    memset(best_q, 0, NN_OUT * sizeof best_q[0]);
    for (int i = 0; i < n; i++) {
        float q[NN_OUT];
        if (i + 1 < n) prefetch_after(&plays[i + 1].after);
        after_value(&plays[i].after, 0, q);
        float eq = score(q);
        if (eq > first_eq) { second = first; second_eq = first_eq; first = i; first_eq = eq; }
        else if (eq > second_eq) { second = i; second_eq = eq; }
        if (eq > best_eq) { best_eq = eq; memcpy(best_q, q, sizeof q); }
    }
    if (ply >= 2) {
        /* re-judge the best one or two plays one ply deeper */
        float q[NN_OUT];
        after_value(&plays[first].after, ply - 1, q);
        best_eq = score(q);
        memcpy(best_q, q, sizeof q);
        if (!lean && second >= 0 && first_eq - second_eq < 0.08f) {
            float q2[NN_OUT];
            after_value(&plays[second].after, ply - 1, q2);
            if (score(q2) > best_eq) memcpy(best_q, q2, sizeof q2);
        }
    }
}

const int8_t sr_roll_d1[SR_ROLLS] = {1,1,1,1,1,1, 2,2,2,2,2, 3,3,3,3, 4,4,4, 5,5, 6};
const int8_t sr_roll_d2[SR_ROLLS] = {1,2,3,4,5,6, 2,3,4,5,6, 3,4,5,6, 4,5,6, 5,6, 6};

/* The rolls' answers summed in roll order, weighted (a double once, others twice), into p. */
static void sum_rolls(const float q[SR_ROLLS][NN_OUT], float p[NN_OUT]) {
    float sum[NN_OUT] = {0};
    for (int r = 0; r < SR_ROLLS; r++) {
        float w = sr_roll_d1[r] == sr_roll_d2[r] ? 1.0f : 2.0f;
        for (int k = 0; k < NN_OUT; k++) sum[k] += w * q[r][k];
    }
    for (int k = 0; k < NN_OUT; k++) p[k] = sum[k] / 36.0f;
}

/* sr_share_rolls' work: the caller's search state, copied into each helper before it takes
 * rolls, and the next roll not yet taken */
typedef struct {
    sr_roll_fn fn;
    void *ctx;
    bg_search search;
    match_ctx match;
    int flip, lean;
    long deep_limit;
    atomic_int next;
} roll_share;

static void take_rolls(roll_share *sh) {
    for (;;) {
        const int r = atomic_fetch_add(&sh->next, 1);
        if (r >= SR_ROLLS) return;
        sh->fn(sh->ctx, r);
    }
}

static void *roll_helper(void *arg) {
    roll_share *sh = arg;
    sr_set_search(&sh->search);
    mctx = sh->match;
    flip = sh->flip;
    lean = sh->lean;
    over = 0;
    deep_limit = sh->deep_limit;
    take_rolls(sh);
    return NULL;
}

void sr_share_rolls(int threads, sr_roll_fn fn, void *ctx) {
    roll_share sh = {.fn = fn, .ctx = ctx, .search = cfg, .match = mctx, .flip = flip,
                     .lean = lean, .deep_limit = deep_limit};
    atomic_init(&sh.next, 0);
    bg_thread helpers[BG_SEARCH_THREADS_MAX - 1];
    int started = 0;
    for (int i = 0; i < threads - 1 && i < BG_SEARCH_THREADS_MAX - 1; i++)
        if (bg_thread_start(&helpers[started], roll_helper, &sh) == 0) started++;
    take_rolls(&sh);
    for (int i = 0; i < started; i++) bg_thread_join(&helpers[i]);
}

/* A node's rolls, each roll's answer in a row of its own (sr_share_rolls) */
typedef struct { const mg_board *pos; int ply, depth; float (*q)[NN_OUT]; } node_rolls;

static void node_roll(void *ctx, int r) {
    const node_rolls *at = ctx;
    roll_best(at->pos, at->ply, at->depth, sr_roll_d1[r], sr_roll_d2[r], at->q[r]);
}

/* Probabilities for the side on roll averaged over its 21 rolls, each answered by its best
 * play at 0-ply, then (ply >= 2) the best one or two of those re-judged one ply deeper; the
 * rolls shared among `threads` threads (sr_share_rolls: a judgement's root; the same bits) */
static void eval_rolls(const mg_board *pos, int ply, int depth, int threads, float p[NN_OUT]) {
    float q[SR_ROLLS][NN_OUT];
    if (lean && work > deep_limit) over = 1;
    if (over) return;   /* a given-up 3-ply pass: its values are thrown away */
    node_rolls at = {pos, ply, depth, q};
    if (threads > 1) sr_share_rolls(threads, node_roll, &at);
    else for (int r = 0; r < SR_ROLLS; r++) node_roll(&at, r);
    sum_rolls((const float (*)[NN_OUT])q, p);
}

static int depth_of(int ply) { return ply; }   /* buffers: ply k uses buf[k], k = 1..3 */

/* A cache of 0-ply judgements: direct-mapped, keyed by the whole board and the weights' tag,
 * so a hit gives the very bits the net would. Deeper passes meet the same boards often (plays
 * of one roll in another order, the same reply to two candidates). A hit still counts as work,
 * so the budgets cut the search at the same places with the cache on or off. Its size,
 * 2^BG_EVAL_CACHE_BITS slots, is in bg.h, where the tests read it. */
typedef struct { mg_board b; uint8_t full; uint32_t tag; float p[NN_OUT]; } cache_entry;
/* Each thread has its own cache, made at its first look and freed when the thread ends;
 * a call whose settings say cache 0 neither reads nor fills it. */
static _Thread_local cache_entry *cache;
static _Thread_local long cache_hits, cache_looks;


/* This thread's cache; NULL when there is no memory for it (the search then goes on
 * without, with the same results). */
static cache_entry *thread_cache(void) {
    if (cache) return cache;
    cache = calloc((size_t)1 << BG_EVAL_CACHE_BITS, sizeof *cache);
    if (cache) bg_thread_owns(cache);   /* free()d at the thread's end */
    return cache;
}

void sr_cache_counts(long *looks, long *hits) { *looks = cache_looks; *hits = cache_hits; }

/* The slot of the board whose rows are first, second (a board's own: b[0], b[1]). */
static uint32_t rows_hash(const int8_t *first, const int8_t *second) {
    uint64_t w[7] = {0};
    memcpy(w, first, 25);
    memcpy((char *)w + 25, second, 25);
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 7; i++) { h ^= w[i]; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 31; }
    return (uint32_t)(h >> (64 - BG_EVAL_CACHE_BITS));
}

static uint32_t board_hash(const mg_board *b) { return rows_hash(b->b[0], b->b[1]); }

/* Only speed: the slot the board after a play will be looked up in (turned to the other
 * side on roll, as after_value turns it) is asked of memory one evaluation ahead, so that
 * the look-up seldom waits on a 10 MB table. Nothing read or written changes. A no-op
 * where the compiler has no prefetch. */
static inline void prefetch_after(const mg_board *after) {
#if defined(__GNUC__) || defined(__clang__)
    if (cache && cfg.cache) {
        const char *slot = (const char *)&cache[rows_hash(after->b[1], after->b[0])];
        __builtin_prefetch(slot);
        __builtin_prefetch(slot + sizeof(cache_entry) - 1);
    }
#else
    (void)after;
#endif
}

static void evaluate0(const mg_board *b, float p[NN_OUT]) {
    work++;
    cache_entry *const table = cfg.cache ? thread_cache() : NULL;
    if (!table) { ev_evaluate(b, p); return; }
    cache_entry *e = &table[board_hash(b)];
    cache_looks++;
    if (e->full && e->tag == ev_w.tag && memcmp(&e->b, b, sizeof *b) == 0) {
        memcpy(p, e->p, sizeof e->p);
        cache_hits++;
        return;
    }
    ev_evaluate(b, p);
    e->b = *b;
    e->full = 1;
    e->tag = ev_w.tag;
    memcpy(e->p, p, sizeof e->p);
}

void sr_eval0(const mg_board *b, float p[NN_OUT]) { evaluate0(b, p); }

/* after_value, the rolls below it shared among `threads` threads (a judgement's root) */
static inline void after_value_at(const mg_board *after, int ply, int threads,
                                  float q[NN_OUT]) {
    mg_board sw;
    float p[NN_OUT];
    mg_swap(after, &sw);
    if (ply == 0 || mg_result(&sw) != 0) evaluate0(&sw, p);
    else { flip ^= 1; eval_rolls(&sw, ply, depth_of(ply), threads, p); flip ^= 1; }
    ev_invert(p, q);
}

static void after_value(const mg_board *after, int ply, float q[NN_OUT]) {
    after_value_at(after, ply, 1, q);
}

/* A whole 3-ply judgement outside a ranking is judged as level 5's 3-ply pass judges (each
 * reply the best at 0-ply, re-judged alone), and never given up. */
static void lean_pass(int on) {
    lean = on;
    over = 0;
    deep_limit = LONG_MAX;
}

void sr_eval_ply(const mg_board *pos, int ply, float p[NN_OUT]) {
    if (ply <= 0 || mg_result(pos) != 0) { ev_evaluate(pos, p); return; }
    if (ply > 3) ply = 3;
    flip = 0;
    lean_pass(ply >= 3);
    eval_rolls(pos, ply, 4, 1, p);   /* buf[4] for the root rolls; deeper passes use 1..3 */
    lean_pass(0);
}

float sr_judge_after(const mg_board *after, int ply, float p[NN_OUT]) {
    if (ply < 0) ply = 0;
    if (ply > 3) ply = 3;
    flip = 0;
    lean_pass(ply >= 3);
    after_value_at(after, ply, ply >= 2 ? cfg.threads : 1, p);
    lean_pass(0);
    return score(p);
}

static int cmp_cand(const void *a, const void *b) {
    const sr_cand *x = a, *y = b;
    if (x->ply != y->ply) return y->ply - x->ply;   /* deeper judgements rank first */
    return (x->eq < y->eq) - (x->eq > y->eq);
}

/* A small deterministic error for level 2: a hash of the board to about +-0.12 equity. */
static float level2_noise(const mg_board *b) {
    uint64_t h = 1469598103934665603ULL;
    const uint8_t *p = (const uint8_t *)b;
    for (size_t i = 0; i < sizeof *b; i++) { h ^= p[i]; h *= 1099511628211ULL; }
    h ^= h >> 33;
    double u1 = (double)(h & 0xFFFF) / 65536.0, u2 = (double)((h >> 16) & 0xFFFF) / 65536.0;
    return (float)((u1 + u2 - 1.0) * 0.12);
}

/* How many of the best candidates (ranked, judged at `ply`) pass a filter stage: at most
 * keep, and after the first `least` none more than margin behind the leader. */
static int passing(int n, int ply, int keep, float margin, int least) {
    int k = 0;
    while (k < n && k < keep && cands[k].ply == ply) {
        if (cands[0].eq - cands[k].eq > margin && k >= least) break;
        k++;
    }
    return k;
}

static void judge(sr_cand *c, int ply) {
    after_value(&c->play.after, ply, c->p);
    c->eq = score(c->p);
    c->ply = (int8_t)ply;
}

/* Level 5's 3-ply pass on the closest 2-ply candidates. It starts only when two of them fit
 * in the deep budget by estimate (cost2: the dearest 2-ply judgement, times the factor), and
 * starts a third only if the dearest 3-ply judgement so far still fits. If the ranking's work
 * passes the deep budget before the first two are judged, the pass is given up and the 2-ply
 * judgements stand: the budget is a hard cap, and a cut depends only on the work. */
static void deepen(int n, const sr_filter *f, long work0, long cost2) {
    int keep = passing(n, 2, f->keep3, f->margin3, 1);
    long est = DEEP_COST_FACTOR * cost2;
    if (keep < 2 || work - work0 + 2 * est > (long)cfg.deep_budget) return;
    sr_cand saved[3];
    if (keep > 3) keep = 3;
    memcpy(saved, cands, sizeof(sr_cand) * (size_t)keep);
    lean = 1;
    over = 0;
    deep_limit = work0 + (long)cfg.deep_budget;
    int done = 0;
    for (; done < keep && !over; done++) {
        if (done >= 2 && work - work0 + est > (long)cfg.deep_budget) break;
        long before = work;
        judge(&cands[done], 3);
        if (work - before > est) est = work - before;
    }
    lean = 0;
    if (over) {   /* the last one started is unfinished: drop it, and all if fewer than two */
        done--;
        memcpy(&cands[done], &saved[done], sizeof(sr_cand) * (size_t)(keep - done));
        if (done < 2) memcpy(cands, saved, sizeof(sr_cand) * (size_t)keep);
        over = 0;
    }
    qsort(cands, n, sizeof *cands, cmp_cand);
}

/* ---- truncated rollouts with the luck taken out ---------------------------------------- */

/* Trial t's dice: a splitmix64 stream of its own from (dseed, t). */
static uint64_t roll_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static _Thread_local mg_play roll_buf[MG_MAX_PLAYS];

/* The best play of the roll at 0-ply by score() for the side choosing now: its result with
 * the other side on roll in *next, the chooser's probabilities after it in q. */
static void best0(const mg_board *pos, int d1, int d2, mg_board *next, float q[NN_OUT]) {
    int n = mg_generate(pos, d1, d2, roll_buf);
    int best = 0;
    float best_eq = -1e9f;
    for (int i = 0; i < n; i++) {
        float qi[NN_OUT];
        if (i + 1 < n) prefetch_after(&roll_buf[i + 1].after);
        after_value(&roll_buf[i].after, 0, qi);
        float eq = score(qi);
        if (eq > best_eq) { best_eq = eq; best = i; memcpy(q, qi, sizeof qi); }
    }
    mg_swap(&roll_buf[best].after, next);
}

/* The 21 rolls of one ply, in the order a = 1..6, b = a..6 (sr_roll_index): for each, the
 * mover's best play at 0-ply, its result with the other side on roll in next[r] and the
 * mover's probabilities after it in q[r], judged again at luck_ply (0 or 1) when above 0;
 * mean: their average over the 36 rolls (the mover's 1-ply view at luck_ply 0). */
static void roll_all(const mg_board *pos, int luck_ply, float mean[NN_OUT],
                     float q[SR_ROLLS][NN_OUT], mg_board next[SR_ROLLS]) {
    memset(mean, 0, sizeof(float) * NN_OUT);
    int r = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = a; b <= 6; b++, r++) {
            best0(pos, a, b, &next[r], q[r]);
            if (luck_ply > 0) {
                mg_board after;
                mg_swap(&next[r], &after);
                after_value(&after, luck_ply, q[r]);
            }
            float w = a == b ? 1.0f : 2.0f;
            for (int k = 0; k < NN_OUT; k++) mean[k] += w * q[r][k] / 36.0f;
        }
}

int sr_roll_index(int d1, int d2) {
    int a = d1 < d2 ? d1 : d2, b = d1 < d2 ? d2 : d1;
    return (a - 1) * (14 - a) / 2 + (b - a);   /* rolls before a's row, then b's place in it */
}

void sr_roll_all(const mg_board *pos, int luck_ply, float mean[NN_OUT],
                 float q[SR_ROLLS][NN_OUT], mg_board next[SR_ROLLS]) {
    roll_all(pos, luck_ply, mean, q, next);
}

/* One ply of a rollout: the mover's mean over the 21 rolls of its best play's probabilities
 * (its 1-ply view), and for the roll d1-d2 that came, that play's probabilities and result
 * (d1 = d2 = 0: the mean alone). */
static void roll_ply(const mg_board *pos, int d1, int d2, float mean[NN_OUT],
                     float came[NN_OUT], mg_board *next) {
    static _Thread_local float q[SR_ROLLS][NN_OUT];
    static _Thread_local mg_board nx[SR_ROLLS];
    roll_all(pos, 0, mean, q, nx);
    if (d1 < 1) return;
    int r = sr_roll_index(d1, d2);
    memcpy(came, q[r], sizeof q[r]);
    *next = nx[r];
}

/* The probabilities of the side on roll at `start`: the mean of `trials` games of at most
 * `horizon` plies (with race_cut, ending too where the sides can no longer meet, since the
 * race net and the bear-off table judge a race well), every move the best at 0-ply, valued at
 * 0-ply where they stop, each less
 * the luck of every roll in it (the roll's best play's value less the mean over the 21 rolls,
 * which choosing works out anyway): the same mean as the plain rollout, far less spread.
 * Trial t's dice come from the stream (dseed, t), so plays rolled out with one dseed meet the
 * same dice; with a multiple of 36 trials the first roll goes through all 36 in turn.
 * start_flip: 1 when the side on roll at start is the opponent of the side the ranking
 * chooses for (match scores are then taken from its side). */
static void rollout(const mg_board *start, int trials, int horizon, int race_cut,
                    uint64_t dseed, int start_flip, float p[NN_OUT]) {
    const int saved_flip = flip;
    double sum[NN_OUT] = {0};
    float mean0[NN_OUT] = {0}, came[NN_OUT];
    mg_board next;
    flip = start_flip;
    if (mg_result(start) == 0) roll_ply(start, 0, 0, mean0, came, &next);   /* 1st ply's mean */
    for (int t = 0; t < trials; t++) {
        uint64_t rng = dseed * 0x9E3779B97F4A7C15ULL + (uint64_t)t * 0xD1B54A32D192ED03ULL + 1;
        mg_board pos = *start;
        double luck[NN_OUT] = {0};
        int h = 0;
        for (; h < horizon && mg_result(&pos) == 0; h++) {
            if (race_cut && h > 0 && ev_class(&pos) != EV_CONTACT) break;
            int d1, d2;
            if (h == 0 && trials % 36 == 0) { d1 = t % 36 / 6 + 1; d2 = t % 6 + 1; }
            else { d1 = (int)(roll_next(&rng) % 6) + 1; d2 = (int)(roll_next(&rng) % 6) + 1; }
            float mean[NN_OUT];
            flip = start_flip ^ (h & 1);
            if (h == 0) {   /* the first ply's mean is the same in every trial */
                memcpy(mean, mean0, sizeof mean);
                best0(&pos, d1, d2, &next, came);
            } else {
                roll_ply(&pos, d1, d2, mean, came, &next);
            }
            if (h % 2) { ev_invert(mean, mean); ev_invert(came, came); }   /* start's view */
            for (int k = 0; k < NN_OUT; k++) luck[k] += came[k] - mean[k];
            pos = next;
        }
        float q[NN_OUT];
        evaluate0(&pos, q);   /* a finished game gives its result exactly */
        if (h % 2) ev_invert(q, q);
        for (int k = 0; k < NN_OUT; k++) sum[k] += q[k] - luck[k];
    }
    for (int k = 0; k < NN_OUT; k++) p[k] = (float)(sum[k] / trials);
    ev_sanitize(p);
    flip = saved_flip;
}

void sr_rollout(const mg_board *start, int trials, int horizon, int race_cut, uint64_t dseed,
                float p[NN_OUT]) {
    rollout(start, trials, horizon, race_cut, dseed, 0, p);
}

/* Level 5's last stage (roll_trials > 0): the closest few of the deepest-judged candidates
 * rolled out on the same dice, chosen among by the rollouts' values. The dice depend only on
 * the position and roll, so the play still does. */
static void roll_out_closest(int n, const mg_board *root, int d1, int d2) {
    int keep = passing(n, cands[0].ply, SR_ROLL_KEEP, SR_ROLL_MARGIN, 1);
    if (keep < 2) return;
    uint64_t seed = (uint64_t)board_hash(root) * 1000003ULL + (uint64_t)(d1 * 7 + d2);
    for (int i = 0; i < keep; i++) {
        sr_cand *c = &cands[i];
        mg_board sw;
        float p[NN_OUT];
        mg_swap(&c->play.after, &sw);
        rollout(&sw, cfg.roll_trials, cfg.roll_horizon, 0, seed, 1, p);
        ev_invert(p, c->p);
        c->eq = score(c->p);
        c->ply = SR_PLY_ROLLOUT;
    }
    qsort(cands, n, sizeof *cands, cmp_cand);
}

/* Levels 4 and 5 past 0-ply: 1-ply on the best few, 2-ply on the best of those until the
 * work budget is spent (the leader always), then level 5's 3-ply pass. */
static void search_deeper(int n, int level, long work0) {
    const sr_filter *f = &sr_filters[level];
    int keep = passing(n, 0, f->keep1, f->margin1, 2);
    for (int i = 0; i < keep; i++) judge(&cands[i], 1);
    qsort(cands, n, sizeof *cands, cmp_cand);
    int keep2 = f->keep2 > 1 ? passing(keep, 1, f->keep2, f->margin2, 1) : 0;
    if (keep2 < 2) return;
    long cost2 = 0;
    for (int i = 0; i < keep2; i++) {
        if (i > 0 && work - work0 > (long)cfg.work_budget) break;
        long before = work;
        judge(&cands[i], 2);
        if (work - before > cost2) cost2 = work - before;
    }
    qsort(cands, n, sizeof *cands, cmp_cand);
    if (cfg.plies >= 3) deepen(n, f, work0, cost2);
}

int sr_rank(const mg_board *pos, int d1, int d2, int level, sr_cand *out, int max_out,
            long *out_work) {
    long work0 = work;
    mg_play *plays = buf[0];
    flip = 0;
    lean = 0;
    int n = mg_generate(pos, d1, d2, plays);
    for (int i = 0; i < n; i++) {
        sr_cand *c = &cands[i];
        c->play = plays[i];
        if (level <= 1) {
            memset(c->p, 0, sizeof c->p);
            c->eq = ev_heuristic(&plays[i].after);
            c->ply = -1;
        } else {
            if (i + 1 < n) prefetch_after(&plays[i + 1].after);
            after_value(&plays[i].after, 0, c->p);
            c->eq = score(c->p);
            if (level == 2) c->eq += level2_noise(&plays[i].after);
            c->ply = 0;
        }
    }
    qsort(cands, n, sizeof *cands, cmp_cand);
    if (level >= 4 && n > 1) search_deeper(n, level, work0);
    if (level == 5 && n > 1 && cfg.roll_trials > 0) roll_out_closest(n, pos, d1, d2);
    int m = n < max_out ? n : max_out;
    memcpy(out, cands, sizeof(sr_cand) * (size_t)m);
    if (out_work) *out_work = work - work0;
    return n;
}
