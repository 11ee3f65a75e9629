/* bearoff.c: the exact one-sided bear-off database for the home board (up to 15 men on
 * the six home points): for each position, the distribution of the number of rolls to bear
 * all men off when playing to minimise the expected count. Generated in memory by our own
 * code at first use, from its own one-man moves (a roll's best play found move by move, in a
 * fifth of the time the rules engine's whole plays took; tests/native/test_bearoff.py holds
 * it to the rules engine's plays). Not a two-sided or gammon database. */
#include "eval.h"
#include <stdlib.h>
#include <string.h>

static float *bo_table;            /* BO_POSITIONS x BO_MAX_ROLLS */
static float bo_means[BO_POSITIONS];
static int choose_table[32][8];    /* C(n, k) for small n, k */
/* index_step[i][s][v]: what v men on home point i add to a board's index when s men at
 * most are left for points i.. (bo_index in one look-up a point, not one a man) */
static int index_step[BO_POINTS][16][16];

static int tuples_upto(int k, int s) {   /* k-tuples of naturals with sum <= s: C(s+k, k) */
    if (s < 0) return 0;
    return choose_table[s + k][k];
}

static void init_choose(void) {
    for (int n = 0; n < 32; n++)
        for (int k = 0; k < 8; k++)
            choose_table[n][k] = (k == 0) ? 1 : (n == 0 ? 0 : choose_table[n - 1][k - 1] + choose_table[n - 1][k]);
    /* the boards are numbered in lexicographic order of their counts: v men on point i skip
     * every board with fewer there, the tuples of the later points with what is left */
    for (int i = 0; i < BO_POINTS; i++)
        for (int s = 0; s < 16; s++) {
            int r = 0;
            for (int v = 0; v < 16; v++) {
                index_step[i][s][v] = r;
                r += tuples_upto(BO_POINTS - 1 - i, s - v);
            }
        }
}

/* Valid after bo_init (which fills the tables even when it cannot allocate the database);
 * home6 holds at most 15 men in all. */
int bo_index(const int8_t *home6) {
    int r = 0, s = 15;
    for (int i = 0; i < BO_POINTS; i++) {
        r += index_step[i][s][home6[i]];
        s -= home6[i];
    }
    return r;
}

int bo_next_board(int8_t *home6, int most) {
    int i = BO_POINTS - 1, total = 0;
    for (int j = 0; j < BO_POINTS; j++) total += home6[j];
    while (i >= 0) {   /* an odometer with the sum bound */
        if (total < most) { home6[i]++; return 1; }
        total -= home6[i];
        home6[i] = 0;
        i--;
    }
    return 0;
}

int bo_pips(const int8_t *home6) {
    int p = 0;
    for (int i = 0; i < BO_POINTS; i++) p += home6[i] * (i + 1);
    return p;
}

int bo_ready(void) { return bo_table != NULL; }

const float *bo_dist(int index) { return bo_table + (size_t)index * BO_MAX_ROLLS; }
float bo_mean(int index) { return bo_means[index]; }

/* The boards one man's move of `die` pips reaches from home board c (all men home, none of
 * the opponent's there, so a die is always playable while a man is left): a man moves down,
 * bears off exactly, or bears off from below the die when no man stands higher. Their
 * indices into out (at most one a point); returns how many. */
static int single_steps(const int8_t c[BO_POINTS], int die, int out[BO_POINTS]) {
    int n = 0, highest = -1;
    for (int i = BO_POINTS - 1; i >= 0 && highest < 0; i--)
        if (c[i]) highest = i;
    int8_t t[BO_POINTS];
    for (int i = 0; i < BO_POINTS; i++) {      /* the man on point i + 1 (i + 1 pips to go) */
        if (!c[i] || (i + 1 < die && i != highest)) continue;
        memcpy(t, c, BO_POINTS);
        t[i]--;
        if (i + 1 > die) t[i - die]++;
        out[n++] = bo_index(t);
    }
    return n;
}

/* bo_init's row of after[] for k + 1 moves of die `die`: an entry a board */
static int *moves_of(int *after, int k, int die) {
    return after + ((size_t)k * 6 + (size_t)(die - 1)) * BO_POSITIONS;
}

/* Of the boards idx[0..n-1], the one whose best continuation then[.] (or itself, then NULL)
 * has the fewest rolls to go: that continuation's index (the first of equals). */
static int fewest(const int *idx, int n, const int *then) {
    int best = -1;
    float best_mean = 1e9f;
    for (int j = 0; j < n; j++) {
        const int s = then ? then[idx[j]] : idx[j];
        if (bo_means[s] < best_mean) { best_mean = bo_means[s]; best = s; }
    }
    return best;
}

void bo_init(void) {
    if (bo_table) return;
    init_choose();
    float *table = calloc((size_t)BO_POSITIONS * BO_MAX_ROLLS, sizeof(float));
    int8_t (*pos)[BO_POINTS] = malloc(sizeof(int8_t[BO_POINTS]) * BO_POSITIONS);
    int *order = malloc(sizeof(int) * BO_POSITIONS);
    int *pips = malloc(sizeof(int) * BO_POSITIONS);
    /* after[k][d - 1][i]: the board k + 1 moves of die d from board i best reach (the fewest
     * rolls to go after them), k = 0..2; a double's four moves are the best first move to
     * the best three after it. Every move lowers the pips, so a board's entries need only
     * those of boards already done in order of pips. */
    int *after = malloc(sizeof(int) * 3 * 6 * BO_POSITIONS);
    if (!table || !pos || !order || !pips || !after) {
        free(table); free(pos); free(order); free(pips); free(after);
        return;
    }
    /* enumerate every home board with at most 15 men */
    int8_t c[BO_POINTS] = {0};
    do {
        int idx = bo_index(c);
        memcpy(pos[idx], c, BO_POINTS);
        pips[idx] = bo_pips(c);
    } while (bo_next_board(c, 15));
    /* process in increasing pip count: every play lowers the pips */
    int k = 0;
    for (int p = 0; p <= 15 * BO_POINTS; p++)
        for (int idx = 0; idx < BO_POSITIONS; idx++)
            if (pips[idx] == p) order[k++] = idx;
    for (int o = 0; o < BO_POSITIONS; o++) {
        int idx = order[o];
        float *d = table + (size_t)idx * BO_MAX_ROLLS;
        if (pips[idx] == 0) {               /* all off: no move changes it */
            d[0] = 1.0f;
            bo_means[idx] = 0.0f;
            for (int k = 0; k < 3; k++)
                for (int die = 1; die <= 6; die++) moves_of(after, k, die)[idx] = idx;
            continue;
        }
        int steps[6][BO_POINTS], n_steps[6];
        for (int die = 1; die <= 6; die++) {
            const int *s = steps[die - 1];
            const int n = n_steps[die - 1] = single_steps(pos[idx], die, steps[die - 1]);
            for (int k = 0; k < 3; k++)   /* one move's best is the move itself */
                moves_of(after, k, die)[idx] =
                    fewest(s, n, k ? moves_of(after, k - 1, die) : NULL);
        }
        double mean = 1.0;
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = d1; d2 <= 6; d2++) {
                float w = (d1 == d2 ? 1.0f : 2.0f) / 36.0f;
                int best;
                if (d1 == d2) {
                    best = fewest(steps[d1 - 1], n_steps[d1 - 1], moves_of(after, 2, d1));
                } else {   /* either die first, then the other's best move */
                    int a = fewest(steps[d1 - 1], n_steps[d1 - 1], moves_of(after, 0, d2));
                    int b = fewest(steps[d2 - 1], n_steps[d2 - 1], moves_of(after, 0, d1));
                    best = bo_means[b] < bo_means[a] ? b : a;
                }
                float best_mean = bo_means[best];
                const float *succ = table + (size_t)best * BO_MAX_ROLLS;
                for (int r = 0; r < BO_MAX_ROLLS - 1; r++) d[r + 1] += w * succ[r];
                d[BO_MAX_ROLLS - 1] += w * succ[BO_MAX_ROLLS - 1];
                mean += w * best_mean;
            }
        bo_means[idx] = (float)mean;
    }
    free(pos); free(order); free(pips); free(after);
    bo_table = table;
}

float bo_win_prob(const mg_board *b) {
    const float *a = bo_dist(bo_index(b->b[0]));
    const float *o = bo_dist(bo_index(b->b[1]));
    /* the side on roll wins when it needs no more rolls than the opponent */
    double p = 0.0, opp_done_before = 0.0;   /* P(opponent needs < n rolls) */
    for (int n = 0; n < BO_MAX_ROLLS; n++) {
        p += a[n] * (1.0 - opp_done_before);
        opp_done_before += o[n];
    }
    if (p < 0.0) p = 0.0;
    if (p > 1.0) p = 1.0;
    return (float)p;
}
