/* bearoff_match.c: the exact match cube of small two-sided bear-offs (5 men a side or fewer,
 * all home): every roll, play and cube action of both sides, scored by our match equity table
 * (met.c; a bear-off has no gammons), as bearoff2.c works out the money cube. One score's
 * tables are built when a search first asks for that score, and a few are kept. Not the money
 * cube (bearoff2.c), the formula (cube.c) or the search above the bear-off (cubeful.c). */
#define _POSIX_C_SOURCE 200809L   /* threads.h */
#include <stdlib.h>
#include "cube.h"
#include "threads.h"

#define BM_MEN 5              /* men a side at most: C(11, 5) boards a side */
#define BM_N 462
#define BM_PAIRS (BM_N * BM_N)
#define BM_MAX_K 6            /* cube 2^k; a cube of BG_CUBE_FACE_MAX (2^6) is never turned */
#define BM_SLOTS_SIDE (1 + 2 * BM_MAX_K)   /* centred at 1; mine or theirs at 2 .. 64 */
#define BM_KEEP 4             /* scores whose tables are kept (more while in use) */

static int b2_n;                       /* bearoff2.c's boards: its index of each of ours */
static short bm_of_b2[1024];           /* bearoff2.c's board -> ours, -1 past BM_MEN men */
static short b2_of_bm[BM_N];
static int bm_pips[BM_N];
#define BM_MAX_PIPS (BM_MEN * 6)
static int bm_pip_start[BM_MAX_PIPS + 2];   /* our boards of p pips: [p] .. [p + 1] - 1 */
static float *bm_win;                  /* [x * BM_N + y]: the cubeless game winning chance of
                                          the side on roll on x against y (built once, with
                                          the first score's tables, under the lock) */
static int bm_ready;

/* One score's tables: the side on roll needs p, its opponent q (orientation 0: p = lo, q = hi;
 * 1: the other way round), the cube 2^k with its owner (0 centred, 1 the side on roll, 2 its
 * opponent); nd[pair * slots + slot] is the side on roll's match winning chance when it rolls
 * without turning the cube. */
typedef struct bm_score {
    int lo, hi, post, kmax, slots, users, listed;   /* listed: in `kept`, else freed
                                                     when its one user is done */
    unsigned long used;                /* when last asked for (a count of lookups) */
    float *nd;
} bm_score;

static bm_score *kept[BM_KEEP * 4];     /* more than BM_KEEP only while being read */
static int kept_n;
static unsigned long clock_ticks;
static bg_mutex lock;

static float mwc(int a, int b, int post) { return met_equity(a, b, post); }

/* Building a score's tables writes only memory the builder has just allocated, under the lock
 * (or before any other thread can call), and reads what is never written again; ThreadSanitizer
 * (native/tools/tsan_check.sh) is told not to follow its 200 million steps, which would take it
 * minutes. The lock and every reader stay watched. */
#if defined(__SANITIZE_THREAD__)
#define BM_UNWATCHED __attribute__((no_sanitize_thread))
#else
#define BM_UNWATCHED
#endif

/* the slot of orientation r, cube 2^k, owner o */
static int slot_of(const bm_score *s, int r, int k, int o) {
    int side = 1 + 2 * s->kmax;
    return r * side + (k == 0 ? 0 : 1 + 2 * (k - 1) + (o - 1));
}

/* the terms of a slot, as the side on roll sees them */
static bg_match terms_of(const bm_score *s, int r, int k, int o) {
    bg_match m = {1 << k, o, BG_MET_MAX, r ? s->hi : s->lo, r ? s->lo : s->hi,
                  s->post ? 2 : 0};
    return m;
}

/* the cubeless chances of every pair, worked out once (under the lock): a roll's best play is
 * the one leaving the opponent the least */
BM_UNWATCHED static int build_win(void) {
    float *w = malloc(sizeof(float) * BM_PAIRS);
    if (!w) return 0;
    for (int total = 2; total <= 2 * BM_MAX_PIPS; total++)   /* a roll lowers the roller's */
        for (int x = 1; x < BM_N; x++) {
            int want = total - bm_pips[x];
            if (want < 1 || want > BM_MAX_PIPS) continue;
            for (int y = bm_pip_start[want]; y < bm_pip_start[want + 1]; y++) {
                double sum = 0.0;
                int roll = 0;
                for (int d1 = 1; d1 <= 6; d1++)
                    for (int d2 = d1; d2 <= 6; d2++, roll++) {
                        const short *kids;
                        int n = b2_kids_of(b2_of_bm[x], roll, &kids);
                        float best = 0.0f;
                        for (int j = 0; j < n; j++) {
                            int kid = bm_of_b2[kids[j]];
                            float v = kid == 0 ? 1.0f : 1.0f - w[y * BM_N + kid];
                            if (v > best) best = v;
                        }
                        sum += (d1 == d2 ? 1.0 : 2.0) * best;
                    }
                w[x * BM_N + y] = (float)(sum / 36.0);
            }
        }
    bm_win = w;                        /* published whole */
    return 1;
}

void bm_init(void) {
    if (bm_ready) return;
    int men[1024], pips[1024];
    b2_n = b2_boards(men, pips);
    if (b2_n <= 0 || b2_n > 1024) return;
    int n = 0;
    for (int a = 0; a < b2_n; a++) {   /* bearoff2.c's order: by pips, the empty board first */
        bm_of_b2[a] = -1;
        if (men[a] > BM_MEN || n == BM_N) continue;
        bm_of_b2[a] = (short)n;
        b2_of_bm[n] = (short)a;
        bm_pips[n] = pips[a];
        n++;
    }
    if (n != BM_N || bg_mutex_init(&lock) != 0) return;
    for (int i = 0, pips = 0; pips <= BM_MAX_PIPS + 1; pips++) {   /* boards are in pip order */
        while (i < BM_N && bm_pips[i] < pips) i++;
        bm_pip_start[pips] = i;
    }
    bm_ready = 1;   /* (the chances and the tables wait until a match first asks: no start-up cost) */
}

long bm_pair(long b2pair) {
    if (!bm_ready || b2pair < 0) return -1;
    int x = bm_of_b2[b2pair / b2_n], y = bm_of_b2[b2pair % b2_n];
    return x > 0 && y > 0 ? (long)x * BM_N + y : -1;
}

/* the side on roll's match winning chance at a slot whose cube neither side may turn: each
 * outcome scored at the cube's value */
static float dead_value(float win, int p, int q, int cube, int post) {
    return win * mwc(p - cube, q, post) + (1.0f - win) * mwc(p, q - cube, post);
}

/* what a slot's side on roll is worth before its cube action (cube_weigh where it may double) */
static float weighed_at(const float *row, int slot, int may, int dbl, float pass) {
    return may ? cube_weigh(row[slot], row[dbl], pass) : row[slot];
}

BM_UNWATCHED static bm_score *build(int lo, int hi, int post) {
    bm_score *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->lo = lo; s->hi = hi; s->post = post;
    while ((1 << s->kmax) < hi && s->kmax < BM_MAX_K) s->kmax++;
    s->slots = 2 * (1 + 2 * s->kmax);
    s->nd = malloc(sizeof(float) * (size_t)BM_PAIRS * (size_t)s->slots);
    if (!s->nd) { free(s); return NULL; }
    /* each slot's constants: its sides' points, cube, whether its side on roll may double
     * (and the slot it doubles into, the pass's value), whether the cube is dead, and the
     * slot the opponent is in after the roll */
    int p[2 * BM_SLOTS_SIDE], q[2 * BM_SLOTS_SIDE], cube[2 * BM_SLOTS_SIDE];
    int may[2 * BM_SLOTS_SIDE], dbl[2 * BM_SLOTS_SIDE], dead[2 * BM_SLOTS_SIDE];
    int child[2 * BM_SLOTS_SIDE];
    float pass[2 * BM_SLOTS_SIDE];   /* the cube's value won: by a pass, or by bearing off */
    for (int r = 0; r < 2; r++)
        for (int k = 0; k <= s->kmax; k++)
            for (int o = k == 0 ? 0 : 1; o <= (k == 0 ? 0 : 2); o++) {
                int i = slot_of(s, r, k, o);
                bg_match m = terms_of(s, r, k, o), them = m;
                them.away_me = m.away_opp; them.away_opp = m.away_me;
                them.cube_owner = o == 0 ? 0 : 3 - o;
                p[i] = m.away_me; q[i] = m.away_opp; cube[i] = m.cube_value;
                may[i] = cube_may_double(&m) && k < s->kmax;
                dbl[i] = may[i] ? slot_of(s, r, k + 1, 2) : i;
                dead[i] = !cube_may_double(&m) && !cube_may_double(&them);
                child[i] = slot_of(s, 1 - r, k, them.cube_owner);
                pass[i] = mwc(p[i] - cube[i], q[i], post);
            }
    const int slots = s->slots;
    for (int total = 2; total <= 2 * BM_MAX_PIPS; total++)
        for (int x = 1; x < BM_N; x++) {
            int want = total - bm_pips[x];
            if (want < 1 || want > BM_MAX_PIPS) continue;
            for (int y = bm_pip_start[want]; y < bm_pip_start[want + 1]; y++) {
                float *row = s->nd + ((size_t)x * BM_N + y) * (size_t)slots;
                const float win = bm_win[x * BM_N + y];
                double sum[2 * BM_SLOTS_SIDE] = {0};
                int roll = 0;
                for (int d1 = 1; d1 <= 6; d1++)
                    for (int d2 = d1; d2 <= 6; d2++, roll++) {
                        const short *kids;
                        int n = b2_kids_of(b2_of_bm[x], roll, &kids);
                        float best[2 * BM_SLOTS_SIDE];
                        for (int i = 0; i < slots; i++) best[i] = -1.0f;
                        for (int j = 0; j < n; j++) {
                            int kid = bm_of_b2[kids[j]];
                            const float *theirs = s->nd + ((size_t)y * BM_N + kid) * (size_t)slots;
                            for (int i = 0; i < slots; i++) {
                                if (dead[i]) continue;
                                int c = child[i];
                                float v = kid == 0 ? pass[i]
                                        : 1.0f - weighed_at(theirs, c, may[c], dbl[c], pass[c]);
                                if (v > best[i]) best[i] = v;
                            }
                        }
                        const double w = d1 == d2 ? 1.0 : 2.0;
                        for (int i = 0; i < slots; i++) sum[i] += w * best[i];
                    }
                for (int i = 0; i < slots; i++)
                    row[i] = dead[i] ? dead_value(win, p[i], q[i], cube[i], post)
                                     : (float)(sum[i] / 36.0);
            }
        }
    return s;
}

/* This score's tables, built if need be (one caller at a time builds; the others wait), with
 * one more user; NULL when there is no memory for them. */
static bm_score *acquire(int lo, int hi, int post) {
    bg_mutex_lock(&lock);
    bm_score *s = NULL;
    for (int i = 0; i < kept_n; i++)
        if (kept[i]->lo == lo && kept[i]->hi == hi && kept[i]->post == post) s = kept[i];
    if (!s) {
        if (kept_n >= BM_KEEP) {      /* let the longest unused go, if no one reads it */
            int old = -1;
            for (int i = 0; i < kept_n; i++)
                if (kept[i]->users == 0 && (old < 0 || kept[i]->used < kept[old]->used)) old = i;
            if (old >= 0) {
                free(kept[old]->nd);
                free(kept[old]);
                kept[old] = kept[--kept_n];
            }
        }
        s = build(lo, hi, post);
        if (s && kept_n < (int)(sizeof kept / sizeof kept[0])) {
            s->listed = 1;
            kept[kept_n++] = s;
        }                  /* (else every kept one is being read: this caller's alone) */
    }
    if (s) { s->users++; s->used = ++clock_ticks; }
    bg_mutex_unlock(&lock);
    return s;
}

/* 1 once the pairs' chances are worked out (by the first caller, under the lock; no memory:
 * 0, and the caller keeps the formula) */
static int chances_ready(void) {
    bg_mutex_lock(&lock);
    const int ready = bm_win != NULL || build_win();
    bg_mutex_unlock(&lock);
    return ready;
}

static void release(bm_score *s) {
    bg_mutex_lock(&lock);
    int gone = --s->users == 0 && !s->listed;
    bg_mutex_unlock(&lock);
    if (gone) { free(s->nd); free(s); }
}

int bm_cube(long pair, const bg_match *m, cube_result *out) {
    if (!bm_ready || pair < 0 || !m->match_to || (m->cube_value == 1) != (m->cube_owner == 0))
        return 0;
    const int a = m->away_me, b = m->away_opp, post = m->crawford != 0;
    int k = 0;
    while ((1 << k) < m->cube_value) k++;
    if (!chances_ready()) return 0;
    const float win = bm_win[pair];
    if (m->crawford == 1) {           /* the Crawford game: no cube to turn */
        out->nd = 2.0f * dead_value(win, a, b, m->cube_value, 1) - 1.0f;
        out->dt = 2.0f * dead_value(win, a, b, 2 * m->cube_value, 1) - 1.0f;
    } else {
        bm_score *s = acquire(a < b ? a : b, a < b ? b : a, post);
        if (!s) return 0;
        const int r = a <= b ? 0 : 1;
        const float *row = s->nd + (size_t)pair * (size_t)s->slots;
        out->nd = k <= s->kmax ? 2.0f * row[slot_of(s, r, k, m->cube_owner)] - 1.0f
                               : 2.0f * dead_value(win, a, b, m->cube_value, post) - 1.0f;
        out->dt = k + 1 <= s->kmax ? 2.0f * row[slot_of(s, r, k + 1, 2)] - 1.0f
                                   : 2.0f * dead_value(win, a, b, 2 * m->cube_value, post) - 1.0f;
        release(s);
    }
    out->dp = 2.0f * mwc(a - m->cube_value, b, post) - 1.0f;
    out->bits = cube_bits(m, out->nd, out->dt, out->dp);
    return 1;
}
