/* bearoff2.c: the exact money cube of small two-sided bear-offs. When both sides have
 * B2_MEN men or fewer left, all in their home boards, the game has no gammons and no contact,
 * and every value follows from the positions a roll reaches. So the no double of each cube
 * state (centred, the side on roll's, its opponent's) is worked out exactly, both sides playing
 * and doubling for the best money value, as GNU Backgammon reads it from its two-sided
 * bear-off database. Built in memory by our own code at weights load, after bearoff.c's index.
 * At a match score the cube of the smaller ones (5 men a side or fewer) is exact too, from
 * tables built per score (bearoff_match.c, which reads this file's boards and their rolls'
 * results); not the cubeless chances (bearoff.c). */
#include <stdlib.h>
#include <string.h>
#include "cube.h"
#include "movegen.h"

#define B2_MEN 6            /* men a side at most: 924 boards a side, 853,776 pairs */
#define B2_N 924            /* boards of 0..B2_MEN men on the six home points: C(12, 6) */
#define B2_ROLLS 21
#define B2_MAX_PIPS (B2_MEN * BO_POINTS)

enum { B2_CENTRED, B2_MINE, B2_THEIRS, B2_STATES };

static short b2_of_bo[BO_POSITIONS];    /* bearoff.c's index -> ours, -1 past B2_MEN men */
static int b2_pips[B2_N];
static signed char b2_men[B2_N];       /* men on board a (0..B2_MEN) */
static int b2_pip_start[B2_MAX_PIPS + 2];  /* our boards of p pips: [p] .. [p + 1] - 1 */
static int *b2_kid_start;               /* [a * 21 + roll] .. [+1]: a's results for the roll */
static short *b2_kids;
static float *b2_nd[B2_STATES];         /* [a * B2_N + b]: no double per unit of cube, the side
                                           on roll on board a, its opponent on b, before the roll */
static int b2_ready_flag;

/* the value after the side on roll's cube action, per unit of the cube before it: it doubles
 * when the double, taken or passed, is worth at least playing on */
static float weighed(int state, float nd, float nd_theirs) {
    return state == B2_THEIRS ? nd : cube_weigh(nd, 2.0f * nd_theirs, 1.0f);
}

/* what the opponent's state is when the side on roll's is `state` */
static int turned(int state) {
    return state == B2_CENTRED ? B2_CENTRED : (state == B2_MINE ? B2_THEIRS : B2_MINE);
}

/* the side on roll's value of leaving board `kid` (its own) against `b`, at its state s,
 * per unit of cube: a win when it has borne off, else the opponent's weighed value turned */
static float kid_value(int kid, int b, int s) {
    if (kid == 0) return 1.0f;   /* ours 0 is the empty board: every man borne off */
    int t = turned(s);
    size_t at = (size_t)b * B2_N + kid;
    return -weighed(t, b2_nd[t][at], b2_nd[B2_THEIRS][at]);
}

static void solve_pair(int a, int b) {
    double sum[B2_STATES] = {0, 0, 0};
    int roll = 0;
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++, roll++) {
            const double w = d1 == d2 ? 1.0 : 2.0;
            const int from = b2_kid_start[a * B2_ROLLS + roll], to = b2_kid_start[a * B2_ROLLS + roll + 1];
            for (int s = 0; s < B2_STATES; s++) {
                float best = -1e9f;
                for (int k = from; k < to; k++) {
                    float v = kid_value(b2_kids[k], b, s);
                    if (v > best) best = v;
                }
                sum[s] += w * best;
            }
        }
    for (int s = 0; s < B2_STATES; s++) b2_nd[s][(size_t)a * B2_N + b] = (float)(sum[s] / 36.0);
}

void b2_init(void) {
    if (b2_ready_flag) return;
    if (!bo_ready()) bo_init();
    int8_t (*home)[BO_POINTS] = malloc(sizeof(int8_t[BO_POINTS]) * B2_N);
    b2_kid_start = malloc(sizeof(int) * (B2_N * B2_ROLLS + 1));
    mg_play *plays = malloc(sizeof(mg_play) * MG_MAX_PLAYS);
    size_t cap = (size_t)B2_N * B2_ROLLS * 8, used = 0;
    b2_kids = malloc(sizeof(short) * cap);
    for (int s = 0; s < B2_STATES; s++) b2_nd[s] = malloc(sizeof(float) * B2_N * B2_N);
    int ok = home && b2_kid_start && plays && b2_kids;
    for (int s = 0; s < B2_STATES; s++) ok = ok && b2_nd[s];
    if (!ok) goto fail;
    /* our boards, in the order of their pip counts (the empty board first, our 0) */
    for (int i = 0; i < BO_POSITIONS; i++) b2_of_bo[i] = -1;
    int n = 0;
    for (int pips = 0; pips <= B2_MAX_PIPS; pips++) {
        int8_t c[BO_POINTS] = {0};
        b2_pip_start[pips] = n;
        do {   /* every board of at most B2_MEN men */
            if (bo_pips(c) == pips) {
                memcpy(home[n], c, BO_POINTS);
                b2_pips[n] = pips;
                b2_men[n] = (signed char)(c[0] + c[1] + c[2] + c[3] + c[4] + c[5]);
                b2_of_bo[bo_index(c)] = (short)n;
                n++;
            }
        } while (bo_next_board(c, B2_MEN));
    }
    b2_pip_start[B2_MAX_PIPS + 1] = n;
    if (n != B2_N) goto fail;
    /* each board's results for each roll, once each */
    for (int a = 0; a < B2_N; a++) {
        mg_board board;
        int roll = 0;
        memset(&board, 0, sizeof board);
        memcpy(board.b[0], home[a], BO_POINTS);
        board.b[1][0] = 15;   /* out of the way, as bearoff.c sets it */
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = d1; d2 <= 6; d2++, roll++) {
                b2_kid_start[a * B2_ROLLS + roll] = (int)used;
                if (a == 0) continue;
                int np = mg_generate(&board, d1, d2, plays);
                for (int j = 0; j < np; j++) {
                    short kid = b2_of_bo[bo_index(plays[j].after.b[0])];
                    int seen = 0;
                    for (size_t k = (size_t)b2_kid_start[a * B2_ROLLS + roll]; k < used; k++)
                        seen |= b2_kids[k] == kid;
                    if (seen) continue;
                    if (used == cap) {
                        short *more = realloc(b2_kids, sizeof(short) * cap * 2);
                        if (!more) goto fail;
                        b2_kids = more;
                        cap *= 2;
                    }
                    b2_kids[used++] = kid;
                }
            }
    }
    b2_kid_start[B2_N * B2_ROLLS] = (int)used;
    /* every pair in the order of its two pip counts' sum: a roll lowers the roller's */
    for (int total = 2; total <= 2 * B2_MAX_PIPS; total++)
        for (int a = 1; a < B2_N; a++) {
            int want = total - b2_pips[a];
            if (want < 1 || want > B2_MAX_PIPS) continue;
            for (int b = b2_pip_start[want]; b < b2_pip_start[want + 1]; b++) solve_pair(a, b);
        }
    free(home);
    free(plays);
    b2_ready_flag = 1;
    bm_init();                  /* the match cube's tables are built per score, when asked */
    return;
fail:
    free(home);
    free(plays);
    free(b2_kid_start); b2_kid_start = NULL;
    free(b2_kids); b2_kids = NULL;
    for (int s = 0; s < B2_STATES; s++) { free(b2_nd[s]); b2_nd[s] = NULL; }
}

int b2_boards(int *men, int *pips) {
    if (!b2_ready_flag) return 0;
    for (int a = 0; a < B2_N; a++) { men[a] = b2_men[a]; pips[a] = b2_pips[a]; }
    return B2_N;
}

int b2_kids_of(int a, int roll, const short **kids) {
    const int from = b2_kid_start[a * B2_ROLLS + roll];
    *kids = b2_kids + from;
    return b2_kid_start[a * B2_ROLLS + roll + 1] - from;
}

long b2_pair(const mg_board *pos) {
    if (!b2_ready_flag || ev_class(pos) != EV_BEAROFF) return -1;   /* all home, not over */
    int a = b2_of_bo[bo_index(pos->b[0])], b = b2_of_bo[bo_index(pos->b[1])];
    if (a <= 0 || b <= 0) return -1;   /* past B2_MEN men (-1), or borne off (0) */
    return (long)a * B2_N + b;
}

int b2_exact(long pair, const bg_match *m) {
    if (pair < 0) return 0;
    if (m->match_to)   /* (a cube of 1 held, or a turned one centred, is no state of a game) */
        return bm_pair(pair) >= 0 && (m->cube_value == 1) == (m->cube_owner == 0);
    return m->cube_value < BG_CUBE_FACE_MAX;
}

int b2_cube(long pair, const bg_match *m, cube_result *out) {
    if (!b2_exact(pair, m)) return 0;
    if (m->match_to) return bm_cube(bm_pair(pair), m, out);
    int state = m->cube_owner == 0 ? B2_CENTRED : (m->cube_owner == 1 ? B2_MINE : B2_THEIRS);
    const float cube = (float)m->cube_value;
    out->nd = cube * b2_nd[state][pair];
    out->dt = cube * 2.0f * b2_nd[B2_THEIRS][pair];
    out->dp = cube;
    out->bits = cube_bits(m, out->nd, out->dt, out->dp);
    return 1;
}

/* The efficiency of a cube the opponent holds in a small bear-off, as the exact money cube
 * shows it (GNU Backgammon reads its two-sided bear-offs' efficiency this way): how far the
 * exact money value of playing on against the opponent's cube lies from the cubeless equity,
 * as a share of the fully live model's distance, at least 0. */
int b2_theirs_efficiency(long pair, float win, float *x) {
    if (pair < 0 || !b2_ready_flag) return 0;
    const float cubeless = 2.0f * win - 1.0f;
    const float live = cube_money_live(win, 1.0f, 1.0f, 2);
    if (live - cubeless > -1e-4f && live - cubeless < 1e-4f) return 0;
    const float share = (b2_nd[B2_THEIRS][pair] - cubeless) / (live - cubeless);
    *x = share < 0.0f ? 0.0f : share;
    return 1;
}
