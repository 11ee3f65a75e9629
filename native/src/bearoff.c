/* bearoff.c: the exact one-sided bear-off database for the home board (up to 15 men on
 * the six home points): for each position, the distribution of the number of rolls to bear
 * all men off when playing to minimise the expected count. Generated in memory by our own
 * code at first use, from the rules engine's plays. Not a two-sided or gammon database. */
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

void bo_init(void) {
    if (bo_table) return;
    init_choose();
    float *table = calloc((size_t)BO_POSITIONS * BO_MAX_ROLLS, sizeof(float));
    int8_t (*pos)[BO_POINTS] = malloc(sizeof(int8_t[BO_POINTS]) * BO_POSITIONS);
    int *order = malloc(sizeof(int) * BO_POSITIONS);
    int *pips = malloc(sizeof(int) * BO_POSITIONS);
    mg_play *plays = malloc(sizeof(mg_play) * MG_MAX_PLAYS);
    if (!table || !pos || !order || !pips || !plays) {
        free(table); free(pos); free(order); free(pips); free(plays);
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
        if (pips[idx] == 0) { d[0] = 1.0f; bo_means[idx] = 0.0f; continue; }
        mg_board b;
        memset(&b, 0, sizeof b);
        memcpy(b.b[0], pos[idx], BO_POINTS);
        b.b[1][0] = 15;   /* out of the way: the opponent's 1-point is our 24-point */
        double mean = 1.0;
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = d1; d2 <= 6; d2++) {
                float w = (d1 == d2 ? 1.0f : 2.0f) / 36.0f;
                int np = mg_generate(&b, d1, d2, plays);
                int best = -1;
                float best_mean = 1e9f;
                for (int j = 0; j < np; j++) {
                    int s = bo_index(plays[j].after.b[0]);
                    if (bo_means[s] < best_mean) { best_mean = bo_means[s]; best = s; }
                }
                const float *succ = table + (size_t)best * BO_MAX_ROLLS;
                for (int r = 0; r < BO_MAX_ROLLS - 1; r++) d[r + 1] += w * succ[r];
                d[BO_MAX_ROLLS - 1] += w * succ[BO_MAX_ROLLS - 1];
                mean += w * best_mean;
            }
        bo_means[idx] = (float)mean;
    }
    free(pos); free(order); free(pips); free(plays);
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
