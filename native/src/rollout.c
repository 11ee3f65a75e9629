/* rollout.c: the rollout section of bg.h. Up to BG_ROLLOUT_MAX_CANDS positions (the results of
 * candidate plays, or one position before its roll for the cube actions) are played to the end,
 * or to a truncation, trial after trial on threads of their own: the same dice for every
 * candidate, the first two rolls stratified across trials, the luck of every roll taken out.
 * Trials go to the threads by index and are summed in trial order, so the answer depends on the
 * seed alone, never on the number of threads or on when it was asked for.
 * In a match (plays only) each side plays its trials' checkers by its match winning chance at
 * the score, and a trial's equity is 2*mwc-1 of its result: the match table's value of the
 * game won or lost (single, gammon or backgammon, times the cube) is affine in the chances, so
 * the luck taken out of the chances (each roll's best play by match value) is the same luck
 * in match equity.
 * Not the play choice (search.c), not the cube theory (cube.c), not the screen. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "../bg.h"
#include "cube.h"
#include "search.h"
#include "threads.h"

#define MAX_CANDS BG_ROLLOUT_MAX_CANDS
#define FIGS BG_ROLLOUT_FIGURES   /* the five chances, then the equity */
#define SAFETY_PLIES 10000        /* a game still going after this many is valued there */

struct bg_rollout {
    int n, kind, apart, no_luck, trials, level, truncate, threads_started;
    bg_match match;                     /* the figures' side's terms (match_to 0: money) */
    bg_search search;                   /* the players' search settings */
    double met[6];                      /* its match winning chance after each result (match) */
    mg_board start[MAX_CANDS];          /* the side on roll at each rollout's start */
    uint8_t perm[MAX_CANDS][2][36];     /* each dice set's orders of the first two rolls */
    uint64_t dseed[MAX_CANDS];          /* each dice set's stream for the later rolls */
    double *results;                    /* trials * n * NN_OUT, the figures' own side's view */
    atomic_uchar *done;                 /* per trial: every candidate's result written */
    atomic_int next_trial, stop, live;
    bg_thread tid[BG_ROLLOUT_MAX_THREADS];
    bg_mutex lock;                      /* the sums below and the folding of trials into them */
    int folded;                         /* trials 0 .. folded-1 are in the sums */
    double sum[MAX_CANDS][FIGS], cross[MAX_CANDS][FIGS][FIGS], eq_cross[MAX_CANDS][MAX_CANDS];
};

/* ---- dice ------------------------------------------------------------------------------ */

static uint64_t mix_next(uint64_t *s) {   /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Dice set s (one for all candidates with the same dice, else one each): two shuffled orders
 * of the 36 rolls for the first two rolls, and a seed for the rest. */
static void make_dice_set(bg_rollout *ro, int s, uint64_t seed) {
    uint64_t st = seed * 0xD1B54A32D192ED03ULL + (uint64_t)s * 0x8CB92BA72F3D8DD7ULL + 7;
    for (int g = 0; g < 2; g++) {
        uint8_t *p = ro->perm[s][g];
        for (int k = 0; k < 36; k++) p[k] = (uint8_t)k;
        for (int k = 35; k > 0; k--) {
            int j = (int)(mix_next(&st) % (uint64_t)(k + 1));
            uint8_t t = p[k]; p[k] = p[j]; p[j] = t;
        }
    }
    ro->dseed[s] = mix_next(&st);
}

/* The roll (0..35: first die 1 + r / 6, second 1 + r % 6) of half-move h in trial t. Any 36
 * trials in a row from a multiple of 36 meet each first roll once and each second roll once;
 * each 1,296 from a multiple of 1,296 meet every pair of the two once. Later rolls come from a
 * stream of the trial's own. */
static int roll_of(const bg_rollout *ro, int s, int t, int h, uint64_t *stream) {
    if (h == 0) return ro->perm[s][0][t % 36];
    if (h == 1) return ro->perm[s][1][(t / 36 + t) % 36];
    if (h == 2) *stream = ro->dseed[s] ^ ((uint64_t)t * 0x9E3779B97F4A7C15ULL);
    return (int)(mix_next(stream) % 36u);
}

/* ---- one trial ------------------------------------------------------------------------- */

/* One half-move's 21 rolls from one position, as every trial that reaches it meets them: the
 * mean and each roll's best 0-ply play with its value (the luck measure's), and for levels 4
 * and 5 the play their search chose, each roll's once it was asked for. */
typedef struct {
    int ready, rolled;                  /* `at` is set; the rolls below are worked out */
    mg_board at;                        /* the position the half-move is played from */
    float mean[NN_OUT], q[SR_ROLLS][NN_OUT];
    mg_board next[SR_ROLLS];
    uint8_t picked[SR_ROLLS];
    mg_board pick[SR_ROLLS];
} ply_rolls;

/* A thread's knowledge of each candidate's first two half-moves, which every trial starts
 * with: the first from the candidate's start, the second after each of the 21 first rolls
 * (the first two rolls are stratified, so 324 trials meet each first roll 9 or 18 times). */
typedef struct {
    ply_rolls first, second[SR_ROLLS];
} opening_plies;

static int luck_ply(int level) { return level >= 5 ? 1 : 0; }

/* The search's match context for the side on roll at half-move h (money play: none). The
 * match terms are the plays' mover's, who is off roll at h = 0 and on roll at odd h. */
static void set_mover_match(const bg_rollout *ro, int h) {
    if (!ro->match.match_to) return;
    bg_match m = ro->match;
    if (h % 2 == 0) { m.away_me = ro->match.away_opp; m.away_opp = ro->match.away_me; }
    sr_set_match(&m);
}

/* The knowledge of the half-move from pos, made ready for it: the opening's first or second
 * (after the first roll first_ri) half-move, NULL for a later one. */
static ply_rolls *known_ply(opening_plies *op, const mg_board *pos, int h, int first_ri) {
    ply_rolls *known = h == 0 ? &op->first : h == 1 ? &op->second[first_ri] : NULL;
    if (known && (!known->ready || memcmp(&known->at, pos, sizeof *pos) != 0)) {
        memset(known, 0, sizeof *known);
        known->at = *pos;
        known->ready = 1;
    }
    return known;
}

/* Half-move h from pos with roll r (the first roll's index first_ri, for h >= 1): the mover's
 * luck measure (the value of the roll's best 0-ply play judged at the luck ply, and the mean
 * over the 21 rolls; both 0 with BG_ROLLOUT_NO_LUCK) into came/mean, and the result of the
 * level's play with the other side on roll into *next. The first two half-moves are worked
 * out once a thread and a position (op), and the answer is the same bits as worked out anew. */
static void half_move(const bg_rollout *ro, opening_plies *op, const mg_board *pos, int h,
                      int r, int first_ri, float mean[NN_OUT], float came[NN_OUT],
                      mg_board *next) {
    static _Thread_local float q[SR_ROLLS][NN_OUT];
    static _Thread_local mg_board nx[SR_ROLLS];
    const int d1 = r / 6 + 1, d2 = r % 6 + 1, ri = sr_roll_index(d1, d2);
    ply_rolls *known = known_ply(op, pos, h, first_ri);
    set_mover_match(ro, h);
    if (ro->no_luck) {
        memset(mean, 0, sizeof(float) * NN_OUT);
        memset(came, 0, sizeof(float) * NN_OUT);
    } else if (known) {
        if (!known->rolled) sr_roll_all(pos, luck_ply(ro->level), known->mean, known->q,
                                        known->next);
        known->rolled = 1;
        memcpy(mean, known->mean, sizeof known->mean);
        memcpy(came, known->q[ri], sizeof known->q[ri]);
        *next = known->next[ri];
    } else {
        sr_roll_all(pos, luck_ply(ro->level), mean, q, nx);
        memcpy(came, q[ri], sizeof q[ri]);
        *next = nx[ri];
    }
    if (ro->level <= 3 && !ro->no_luck) return;   /* the 0-ply best is already found */
    if (known && known->picked[ri]) { *next = known->pick[ri]; return; }
    sr_cand best;
    sr_rank(pos, d1, d2, ro->level, &best, 1, NULL);
    mg_swap(&best.play.after, next);
    if (known) { known->pick[ri] = *next; known->picked[ri] = 1; }
}

/* Trial t of candidate c: out gets the probabilities at the end of the game (or at the
 * truncation, judged by the net) less the luck of every roll, for the side the figures are
 * for (the mover of a play; the side on roll for the cube). Returns 0 when a stop came first
 * (then out is not written). */
static int play_trial(bg_rollout *ro, opening_plies *op, int c, int t,
                      double out[NN_OUT]) {
    const int s = ro->apart ? c : 0;
    const int horizon = ro->truncate > 0 ? ro->truncate : SAFETY_PLIES;
    mg_board pos = ro->start[c], next;
    double luck[NN_OUT] = {0};
    uint64_t stream = 0;
    int h = 0, first_ri = 0;
    for (; h < horizon && mg_result(&pos) == 0; h++) {
        if (atomic_load_explicit(&ro->stop, memory_order_relaxed)) return 0;
        float mean[NN_OUT], came[NN_OUT];
        const int r = roll_of(ro, s, t, h, &stream);
        if (h == 0) first_ri = sr_roll_index(r / 6 + 1, r % 6 + 1);
        half_move(ro, op, &pos, h, r, first_ri, mean, came, &next);
        if (h % 2) { ev_invert(mean, mean); ev_invert(came, came); }   /* the start side's view */
        for (int k = 0; k < NN_OUT; k++) luck[k] += (double)came[k] - (double)mean[k];
        pos = next;
    }
    float q[NN_OUT];
    sr_eval_ply(&pos, 0, q);   /* a finished game gives its result exactly */
    if (h % 2) ev_invert(q, q);
    double v[NN_OUT];
    for (int k = 0; k < NN_OUT; k++) v[k] = (double)q[k] - luck[k];
    if (ro->kind == BG_ROLLOUT_CUBE) { memcpy(out, v, sizeof v); return 1; }
    out[EV_WIN] = 1.0 - v[EV_WIN];   /* a play's figures are for its mover, not on roll at start */
    out[EV_WIN_G] = v[EV_LOSE_G];
    out[EV_WIN_BG] = v[EV_LOSE_BG];
    out[EV_LOSE_G] = v[EV_WIN_G];
    out[EV_LOSE_BG] = v[EV_WIN_BG];
    return 1;
}

static void *worker(void *arg) {
    bg_rollout *ro = arg;
    opening_plies *op = calloc(MAX_CANDS, sizeof *op);
    sr_set_search(&ro->search);
    for (;;) {
        const int t = atomic_fetch_add(&ro->next_trial, 1);
        if (t >= ro->trials || atomic_load(&ro->stop) || !op) break;
        double *out = ro->results + (size_t)t * ro->n * NN_OUT;
        int c = 0;
        while (c < ro->n && play_trial(ro, &op[c], c, t, out + (size_t)c * NN_OUT)) c++;
        if (c < ro->n) break;   /* stopped in the middle: the trial is not counted */
        atomic_store_explicit(&ro->done[t], 1, memory_order_release);
    }
    free(op);
    sr_set_match(NULL);
    atomic_fetch_sub(&ro->live, 1);
    return NULL;
}

/* ---- starting, stopping ---------------------------------------------------------------- */

static int check_start(const int8_t *boards, int n, const bg_rollout_plan *plan,
                       const bg_match *match, const bg_search *search) {
    if (!boards || !plan) return -BG_ERR_BAD_ARG;
    int kind = plan->kind;
    const int trials = plan->trials, level = plan->level, truncate = plan->truncate;
    const int threads = plan->threads;
    const int base = kind & ~(BG_ROLLOUT_APART | BG_ROLLOUT_NO_LUCK);
    if (kind < 0 || (base != BG_ROLLOUT_PLAYS && base != BG_ROLLOUT_CUBE) ||
        (base == BG_ROLLOUT_CUBE && (kind & BG_ROLLOUT_APART)))
        return -BG_ERR_BAD_ARG;
    if (bg_check_match(match) || (match && match->match_to && base != BG_ROLLOUT_PLAYS))
        return -BG_ERR_BAD_ARG;
    kind = base;
    if (n < 1 || n > MAX_CANDS || (kind == BG_ROLLOUT_CUBE && n != 1)) return -BG_ERR_BAD_ARG;
    if (trials < 1 || trials > BG_ROLLOUT_MAX_TRIALS) return -BG_ERR_BAD_ARG;
    if (truncate < 0 || truncate > BG_ROLLOUT_MAX_TRUNCATE) return -BG_ERR_BAD_ARG;
    if (threads < 1 || threads > BG_ROLLOUT_MAX_THREADS) return -BG_ERR_BAD_ARG;
    if (level < BG_ROLLOUT_LEVEL_MIN || level > BG_LEVEL_MAX) return -BG_ERR_BAD_LEVEL;
    if (bg_check_search(search)) return -BG_ERR_BAD_SEARCH;
    for (int c = 0; c < n; c++) {
        const int8_t *b = boards + (size_t)c * BG_BOARD_LEN;
        int v = bg_validate(b);
        if (v) return v;
        if (kind == BG_ROLLOUT_CUBE && mg_result((const mg_board *)b) != 0)
            return -BG_ERR_GAME_OVER;
    }
    if (!ev_w.loaded) return -BG_ERR_NO_WEIGHTS;
    return 0;
}

/* The figures' side's match winning chance after each result, in the order of the chances'
 * differences (single, gammon, backgammon won; then lost), as met_match_value takes them. */
static void set_met(bg_rollout *ro, const bg_match *match) {
    static const bg_match money = {1, 0, 0, 0, 0, 0};
    ro->match = match ? *match : money;
    if (!ro->match.match_to) return;
    const int me = match->away_me, opp = match->away_opp, post = match->crawford != 0;
    const int cube = match->cube_value;
    for (int k = 0; k < 3; k++) {
        ro->met[k] = (double)met_equity(me - (k + 1) * cube, opp, post);
        ro->met[3 + k] = (double)met_equity(me, opp - (k + 1) * cube, post);
    }
}

static bg_rollout *make_rollout(const int8_t *boards, int n, const bg_rollout_plan *plan,
                                const bg_match *match, const bg_search *search) {
    const int kind = plan->kind, trials = plan->trials;
    bg_rollout *ro = calloc(1, sizeof *ro);
    if (!ro) return NULL;
    ro->results = calloc((size_t)trials * n * NN_OUT, sizeof(double));
    ro->done = calloc((size_t)trials, sizeof *ro->done);
    if (!ro->results || !ro->done || bg_mutex_init(&ro->lock) != 0) {
        free(ro->results); free(ro->done); free(ro);
        return NULL;
    }
    ro->n = n;
    ro->apart = (kind & BG_ROLLOUT_APART) != 0;
    ro->no_luck = (kind & BG_ROLLOUT_NO_LUCK) != 0;
    ro->kind = kind & ~(BG_ROLLOUT_APART | BG_ROLLOUT_NO_LUCK);
    ro->trials = trials; ro->level = plan->level; ro->truncate = plan->truncate;
    set_met(ro, match);
    if (search) ro->search = *search;
    else bg_search_defaults(&ro->search);
    for (int c = 0; c < n; c++) {
        const mg_board *b = (const mg_board *)(boards + (size_t)c * BG_BOARD_LEN);
        if (ro->kind == BG_ROLLOUT_CUBE) ro->start[c] = *b;
        else mg_swap(b, &ro->start[c]);   /* after a play the opponent is on roll */
    }
    for (int s = 0; s < (ro->apart ? n : 1); s++) make_dice_set(ro, s, plan->seed);
    return ro;
}

int bg_rollout_start(const int8_t *boards, int n_boards, const bg_rollout_plan *plan,
                     const bg_match *match, const bg_search *search, bg_rollout **out_rollout) {
    if (out_rollout) *out_rollout = NULL;
    if (!out_rollout) return -BG_ERR_BAD_ARG;
    int rc = check_start(boards, n_boards, plan, match, search);
    bg_rollout *ro = NULL;
    if (rc == 0) {
        if (!bo_ready()) bo_init();
        ro = make_rollout(boards, n_boards, plan, match, search);
        if (!ro) rc = -BG_ERR_RESOURCES;
    }
    for (int i = 0; ro && i < plan->threads; i++) {
        atomic_fetch_add(&ro->live, 1);
        if (bg_thread_start(&ro->tid[i], worker, ro) != 0) {
            atomic_fetch_sub(&ro->live, 1);
            break;
        }
        ro->threads_started++;
    }
    if (ro && ro->threads_started == 0) {
        bg_rollout_free(ro);
        ro = NULL;
        rc = -BG_ERR_RESOURCES;
    }
    *out_rollout = ro;
    return rc;
}

void bg_rollout_stop(bg_rollout *ro) {
    if (ro) atomic_store(&ro->stop, 1);
}

int bg_rollout_busy(bg_rollout *ro) {
    return ro ? atomic_load(&ro->live) > 0 : 0;
}

void bg_rollout_free(bg_rollout *ro) {
    if (!ro) return;
    atomic_store(&ro->stop, 1);
    for (int i = 0; i < ro->threads_started; i++) bg_thread_join(&ro->tid[i]);
    bg_mutex_destroy(&ro->lock);
    free(ro->results);
    free(ro->done);
    free(ro);
}

/* ---- the answer so far ----------------------------------------------------------------- */

/* A trial's equity from its chances: cubeless money points, or in a match 2*mwc-1 of them at
 * the score (met_match_value's sum in double: the chances less the luck may leave 0..1). */
static double equity_of(const bg_rollout *ro, const double p[NN_OUT]) {
    if (!ro->match.match_to)
        return 2.0 * p[EV_WIN] - 1.0 + p[EV_WIN_G] - p[EV_LOSE_G] + p[EV_WIN_BG] - p[EV_LOSE_BG];
    const double *m = ro->met;
    const double mwc = (p[EV_WIN] - p[EV_WIN_G]) * m[0] + (p[EV_WIN_G] - p[EV_WIN_BG]) * m[1]
                     + p[EV_WIN_BG] * m[2] + (1.0 - p[EV_WIN] - p[EV_LOSE_G]) * m[3]
                     + (p[EV_LOSE_G] - p[EV_LOSE_BG]) * m[4] + p[EV_LOSE_BG] * m[5];
    return 2.0 * mwc - 1.0;
}

/* The finished trials after the last folded one, in trial order, into the sums (under lock). */
static void fold(bg_rollout *ro) {
    while (ro->folded < ro->trials &&
           atomic_load_explicit(&ro->done[ro->folded], memory_order_acquire)) {
        const double *x = ro->results + (size_t)ro->folded * ro->n * NN_OUT;
        double v[MAX_CANDS][FIGS];
        for (int c = 0; c < ro->n; c++) {
            memcpy(v[c], x + (size_t)c * NN_OUT, sizeof(double) * NN_OUT);
            v[c][BG_ROLLOUT_EQUITY] = equity_of(ro, v[c]);
            for (int k = 0; k < FIGS; k++) {
                ro->sum[c][k] += v[c][k];
                for (int l = 0; l < FIGS; l++) ro->cross[c][k][l] += v[c][k] * v[c][l];
            }
        }
        for (int a = 0; a < ro->n; a++)
            for (int b = 0; b < ro->n; b++)
                ro->eq_cross[a][b] += v[a][BG_ROLLOUT_EQUITY] * v[b][BG_ROLLOUT_EQUITY];
        ro->folded++;
    }
}

/* covariance of the means of figures k (of candidate a) and l (of b) over n trials; a == b
 * for the figures of one candidate, k == l == the equity across candidates */
static double mean_cov(const bg_rollout *ro, int a, int k, int b, int l) {
    const int n = ro->folded;
    if (n < 2) return NAN;
    const double cross = a == b ? ro->cross[a][k][l] : ro->eq_cross[a][b];
    const double c = (cross - ro->sum[a][k] * ro->sum[b][l] / n) / (n - 1);
    return c / n;
}

static double se_of(double var) { return isnan(var) ? NAN : sqrt(var > 0.0 ? var : 0.0); }

int bg_rollout_poll(bg_rollout *ro, double *out_mean, double *out_se) {
    if (!ro || !out_mean || !out_se) return -BG_ERR_BAD_ARG;
    bg_mutex_lock(&ro->lock);
    fold(ro);
    const int n = ro->folded;
    for (int c = 0; c < ro->n; c++)
        for (int k = 0; k < FIGS; k++) {
            double m = n ? ro->sum[c][k] / n : NAN;
            if (k != BG_ROLLOUT_EQUITY && n) m = m < 0.0 ? 0.0 : m > 1.0 ? 1.0 : m;
            out_mean[c * FIGS + k] = m;
            out_se[c * FIGS + k] = se_of(mean_cov(ro, c, k, c, k));
        }
    bg_mutex_unlock(&ro->lock);
    return n;
}

int bg_rollout_diff(bg_rollout *ro, int a, int b, double *out) {
    if (!ro || !out || a < 0 || b < 0 || a >= ro->n || b >= ro->n) return -BG_ERR_BAD_ARG;
    const int e = BG_ROLLOUT_EQUITY;
    bg_mutex_lock(&ro->lock);
    fold(ro);
    const int n = ro->folded;
    out[0] = n ? (ro->sum[a][e] - ro->sum[b][e]) / n : NAN;
    out[1] = se_of(mean_cov(ro, a, e, a, e) + mean_cov(ro, b, e, b, e)
                   - 2.0 * mean_cov(ro, a, e, b, e));
    bg_mutex_unlock(&ro->lock);
    return n;
}

/* d(action's equity)/d(chance k) at p, for the three actions, by a small step each way (one
 * way at the ends of 0..1) */
static void cube_gradient(const float p[NN_OUT], const bg_match *m, double g[3][NN_OUT]) {
    const float step = 1e-3f;
    for (int k = 0; k < NN_OUT; k++) {
        float lo[NN_OUT], hi[NN_OUT];
        memcpy(lo, p, sizeof lo);
        memcpy(hi, p, sizeof hi);
        lo[k] = p[k] - step < 0.0f ? 0.0f : p[k] - step;
        hi[k] = p[k] + step > 1.0f ? 1.0f : p[k] + step;
        cube_result a, b;
        cube_decide(lo, m, &a);
        cube_decide(hi, m, &b);
        const double width = (double)hi[k] - (double)lo[k];
        g[0][k] = (b.nd - a.nd) / width;
        g[1][k] = (b.dt - a.dt) / width;
        g[2][k] = (b.dp - a.dp) / width;
    }
}

int bg_rollout_cube(bg_rollout *ro, const bg_match *match, float *out, double *out_se) {
    static const bg_match money = {1, 0, 0, 0, 0, 0};
    if (!ro || !out || !out_se || ro->kind != BG_ROLLOUT_CUBE) return -BG_ERR_BAD_ARG;
    bg_mutex_lock(&ro->lock);
    fold(ro);
    const int n = ro->folded;
    float p[NN_OUT];
    for (int k = 0; k < NN_OUT; k++) p[k] = n ? (float)(ro->sum[0][k] / n) : 0.0f;
    ev_sanitize(p);
    int bits = n ? bg_cube_from_probs(p, match, out) : -BG_ERR_BAD_ARG;
    if (bits >= 0) {
        double g[3][NN_OUT];
        cube_gradient(p, match ? match : &money, g);
        for (int a = 0; a < 3; a++) {   /* the delta method over the chances' covariance */
            double var = 0.0;
            for (int k = 0; k < NN_OUT; k++)
                for (int l = 0; l < NN_OUT; l++)
                    var += g[a][k] * g[a][l] * mean_cov(ro, 0, k, 0, l);
            out_se[a] = se_of(var);
        }
    }
    bg_mutex_unlock(&ro->lock);
    return bits;
}
