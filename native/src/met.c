/* met.c: the match equity table, computed by our own model (no published table is copied).
 * Model: each game is won by either side with chance 1/2; a won game is worth 1, 2 or 4 cube
 * points in the proportions of money play with a live cube (passes at 1 and 2, games played
 * out at 2 and 4), with gammons 22% of the games played out. The Crawford game is played
 * without a cube; after it, the trailer doubles at once (free drops ignored).
 * Not the cube decisions themselves (cube.c). */
#include "cube.h"

#define GAMMON_SHARE 0.22

static float met_pre[MET_MAX + 1][MET_MAX + 1];   /* [a][b]: needing a vs needing b */
static float met_post[MET_MAX + 1];               /* trailer needing n vs leader 1-away */
static int met_ready;

static double pre(int a, int b) {
    if (a <= 0) return 1.0;
    if (b <= 0) return 0.0;
    return met_pre[a][b];
}

static double post_trailer(int n) { return n <= 0 ? 1.0 : met_post[n]; }

/* chance for the side needing a (vs b) at the start of a game that is the Crawford game */
static double crawford_game(int a, int b) {
    double g = GAMMON_SHARE;
    if (a == 1) {   /* I am the leader: I win the game, or the trailer goes on post-Crawford */
        double lose_single = 1.0 - post_trailer(b - 1), lose_gammon = 1.0 - post_trailer(b - 2);
        return 0.5 + 0.5 * ((1 - g) * lose_single + g * lose_gammon);
    }
    /* I am the trailer, the opponent needs 1 */
    return 0.5 * ((1 - g) * post_trailer(a - 1) + g * post_trailer(a - 2));
}

static void met_build(void) {
    double g = GAMMON_SHARE;
    met_post[1] = 0.5f;
    for (int n = 2; n <= MET_MAX; n++) {
        /* the trailer's double is taken: the game is played for 2 (4 with a gammon) */
        met_post[n] = (float)(0.5 * ((1 - g) * post_trailer(n - 2) + g * post_trailer(n - 4)));
    }
    /* share of games by points won: pass at 1, played at 2, pass at 2 (redouble), played at 4 */
    const double share_pass1 = 0.35, share_play2 = 0.45, share_pass2 = 0.12, share_play4 = 0.08;
    const int pts[6] = {1, 2, 4, 2, 4, 8};
    const double w[6] = {share_pass1, share_play2 * (1 - g), share_play2 * g,
                         share_pass2, share_play4 * (1 - g), share_play4 * g};
    for (int s = 2; s <= 2 * MET_MAX; s++)
        for (int a = 1; a <= MET_MAX; a++) {
            int b = s - a;
            if (b < 1 || b > MET_MAX) continue;
            double v;
            if (a == 1 && b == 1) v = 0.5;
            else if (a == 1 || b == 1) v = crawford_game(a, b);
            else {
                v = 0.0;
                for (int k = 0; k < 6; k++) {
                    /* the cube never needs to go higher than what wins the match */
                    int win_pts = pts[k], lose_pts = pts[k];
                    v += 0.5 * w[k] * pre(a - win_pts, b) + 0.5 * w[k] * pre(a, b - lose_pts);
                }
            }
            met_pre[a][b] = (float)v;
        }
    met_ready = 1;
}

float met_equity(int away_me, int away_opp, int crawford_done) {
    if (!met_ready) met_build();
    if (away_me <= 0) return 1.0f;
    if (away_opp <= 0) return 0.0f;
    if (away_me > MET_MAX) away_me = MET_MAX;
    if (away_opp > MET_MAX) away_opp = MET_MAX;
    if (crawford_done && away_opp == 1 && away_me > 1) return met_post[away_me];
    if (crawford_done && away_me == 1 && away_opp > 1) return 1.0f - met_post[away_opp];
    return met_pre[away_me][away_opp];
}

float met_match_value(const float p[NN_OUT], int cube, int away_me, int away_opp, int post) {
    float win = p[EV_WIN], lose = 1.0f - win;
    float wg = p[EV_WIN_G] - p[EV_WIN_BG], wbg = p[EV_WIN_BG];
    float lg = p[EV_LOSE_G] - p[EV_LOSE_BG], lbg = p[EV_LOSE_BG];
    float ws = win - p[EV_WIN_G], ls = lose - p[EV_LOSE_G];
    float mwc = ws * met_equity(away_me - cube, away_opp, post)
              + wg * met_equity(away_me - 2 * cube, away_opp, post)
              + wbg * met_equity(away_me - 3 * cube, away_opp, post)
              + ls * met_equity(away_me, away_opp - cube, post)
              + lg * met_equity(away_me, away_opp - 2 * cube, post)
              + lbg * met_equity(away_me, away_opp - 3 * cube, post);
    return 2.0f * mwc - 1.0f;
}
