/* met.c: the match equity table, computed by our own model, and the live-cube match model
 * that both the table and the cube decisions (cube.c) stand on. Model: a game starts at 50%
 * and its winning chance moves continuously (a fully live cube), so it ends at 0 or 1 or at a
 * cash point worked out level by level from the table itself; the table value is that live
 * result mixed with the dead-cube one (MET_CUBE_LIVE), gammons MET_GAMMON_SHARE of the games
 * played out. The Crawford game has no cube; after it, the published post-Crawford column
 * (MET_POST_PUBLISHED). Not the decisions themselves (cube.c). */
#include "../bg.h"
#include "cube.h"

/* The two free parameters of the model. With these the table lies within 0.5% of published
 * rollout tables (Kazaross-XG2) at every score up to 9-away (RMS 0.16%); tests/game/model/test_cube.py. */
#define MET_GAMMON_SHARE 0.28f
#define MET_CUBE_LIVE 0.80f

/* After the Crawford game the trailer doubles at once, and the leader drops it for free when
 * the trailer's game is good enough. The model cannot see that free drop: it put a 2-away
 * trailer at 50% (the rollouts say 48.8%) and a 5-away and a 6-away trailer level, where a
 * leader facing a 6-away trailer's double should take (passing leaves it 5-away). A leader's
 * take at even aways turns on those differences, so this column is the published one: the
 * trailer's chance needing n against a leader 1-away, n = 0..25, from the Kazaross-XG2
 * 25-point table as GNU Backgammon 1.07 prints it (`show matchequitytable 25`; rollouts). */
static const float MET_POST_PUBLISHED[MET_MAX + 1] = {
    0.00000f, 0.50000f, 0.48803f, 0.32264f, 0.31002f, 0.19012f, 0.18072f,
    0.11559f, 0.10906f, 0.06953f, 0.06516f, 0.04207f, 0.03906f, 0.02537f,
    0.02343f, 0.01530f, 0.01405f, 0.00924f, 0.00842f, 0.00556f, 0.00505f,
    0.00336f, 0.00303f, 0.00203f, 0.00182f, 0.00118f,
};

static float met_pre[MET_MAX + 1][MET_MAX + 1];   /* [a][b]: needing a vs needing b */
static int met_ready;

/* the table as built so far (every score the model asks for is built before it is asked) */
static float table(int a, int b, int post) {
    if (a <= 0) return 1.0f;
    if (b <= 0) return 0.0f;
    if (a > MET_MAX) a = MET_MAX;
    if (b > MET_MAX) b = MET_MAX;
    if (post && b == 1 && a > 1) return MET_POST_PUBLISHED[a];
    if (post && a == 1 && b > 1) return 1.0f - MET_POST_PUBLISHED[b];
    return met_pre[a][b];
}

/* ---- the live-cube model: my match winning chance (mwc) as a function of my game winning
 * chance p. p moves continuously, so a game ends at p = 0 or 1 (with the gammon shares) or at
 * a cash point, and between those the mwc is linear in p. */

static float g_win(const met_game *g, int c) {       /* the game won at cube c */
    return (1.0f - g->wg - g->wbg) * table(g->a - c, g->b, g->post)
           + g->wg * table(g->a - 2 * c, g->b, g->post) + g->wbg * table(g->a - 3 * c, g->b, g->post);
}

static float g_lose(const met_game *g, int c) {      /* the game lost at cube c */
    return (1.0f - g->lg - g->lbg) * table(g->a, g->b - c, g->post)
           + g->lg * table(g->a, g->b - 2 * c, g->post) + g->lbg * table(g->a, g->b - 3 * c, g->post);
}

static float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

static float g_opp_cash(const met_game *g, int c);

/* my p at which I, holding a cube of c, double to 2c and the opponent should pass (their take
 * point with 2c in their hands); 1 when my double can gain nothing (I need c or less) */
static float g_my_cash(const met_game *g, int c) {
    if (g->a <= c || c > BG_CUBE_MAX) return 1.0f;
    float q = g_opp_cash(g, 2 * c);                  /* where they would redouble me out */
    float low = q > 0.0f ? table(g->a, g->b - 2 * c, g->post) : g_lose(g, 2 * c);
    float high = g_win(g, 2 * c), pass = table(g->a - c, g->b, g->post);
    if (high - low < 1e-6f) return pass <= low ? q : 1.0f;
    return clamp01(q + (1.0f - q) * (pass - low) / (high - low));
}

/* my p at which the opponent, holding a cube of c, doubles to 2c and I should pass (my take
 * point with 2c in my hands); 0 when their double can gain nothing (they need c or less) */
static float g_opp_cash(const met_game *g, int c) {
    if (g->b <= c || c > BG_CUBE_MAX) return 0.0f;
    float r = g_my_cash(g, 2 * c);                   /* where I would redouble them out */
    float low = g_lose(g, 2 * c);
    float high = r < 1.0f ? table(g->a - 2 * c, g->b, g->post) : g_win(g, 2 * c);
    float pass = table(g->a, g->b - c, g->post);
    if (high - low < 1e-6f) return pass >= high ? r : 0.0f;
    return clamp01(r * (pass - low) / (high - low));
}

static float g_live(const met_game *g, float p, int c, int owner) {
    float xs[4], ys[4];
    int n = 0;
    xs[n] = 0.0f; ys[n++] = g_lose(g, c);
    float q = owner != 1 ? g_opp_cash(g, c) : 0.0f;
    float r = owner != 2 ? g_my_cash(g, c) : 1.0f;
    if (q >= r) { q = 0.0f; r = 1.0f; }             /* no window between them: a dead cube */
    if (q > 0.0f) { xs[n] = q; ys[n++] = table(g->a, g->b - c, g->post); }
    if (r < 1.0f) { xs[n] = r; ys[n++] = table(g->a - c, g->b, g->post); }
    xs[n] = 1.0f; ys[n++] = g_win(g, c);
    for (int i = 1; i < n; i++)
        if (p <= xs[i] || i == n - 1) {
            float span = xs[i] - xs[i - 1];
            float t = span > 1e-6f ? (p - xs[i - 1]) / span : 1.0f;
            return ys[i - 1] + (ys[i] - ys[i - 1]) * clamp01(t);
        }
    return ys[n - 1];
}

/* ---- building the table ---------------------------------------------------------------- */

static float post_trailer(int n) { return n <= 0 ? 1.0f : MET_POST_PUBLISHED[n]; }

/* chance for the side needing a (vs b) at the start of the Crawford game (one side needs 1) */
static float crawford_game(int a, int b) {
    float g = MET_GAMMON_SHARE;
    if (a == 1) {   /* I am the leader: I win the game, or the trailer goes on post-Crawford */
        float lose_single = 1.0f - post_trailer(b - 1), lose_gammon = 1.0f - post_trailer(b - 2);
        return 0.5f + 0.5f * ((1 - g) * lose_single + g * lose_gammon);
    }
    return 0.5f * ((1 - g) * post_trailer(a - 1) + g * post_trailer(a - 2));
}

static void met_build(void) {
    float g = MET_GAMMON_SHARE;
    for (int s = 2; s <= 2 * MET_MAX; s++)   /* by total still needed: smaller totals first */
        for (int a = 1; a <= MET_MAX; a++) {
            int b = s - a;
            if (b < 1 || b > MET_MAX) continue;
            float v;
            if (a == 1 && b == 1) v = 0.5f;
            else if (a == 1 || b == 1) v = crawford_game(a, b);
            else {
                met_game game = {a, b, 0, g, 0.0f, g, 0.0f};
                float dead = 0.5f * g_win(&game, 1) + 0.5f * g_lose(&game, 1);
                v = MET_CUBE_LIVE * g_live(&game, 0.5f, 1, 0) + (1.0f - MET_CUBE_LIVE) * dead;
            }
            met_pre[a][b] = v;
        }
    /* the model is symmetric only up to rounding: make the table exactly fair */
    for (int a = 1; a <= MET_MAX; a++)
        for (int b = a + 1; b <= MET_MAX; b++) met_pre[b][a] = 1.0f - met_pre[a][b];
    met_ready = 1;
}

static void ensure_built(void) { if (!met_ready) met_build(); }

float met_equity(int away_me, int away_opp, int crawford_done) {
    ensure_built();
    return table(away_me, away_opp, crawford_done);
}

float met_win(const met_game *g, int cube) { ensure_built(); return g_win(g, cube); }
float met_lose(const met_game *g, int cube) { ensure_built(); return g_lose(g, cube); }
float met_opp_cash(const met_game *g, int cube) { ensure_built(); return g_opp_cash(g, cube); }
float met_live(const met_game *g, float p, int cube, int owner) {
    ensure_built();
    return g_live(g, p, cube, owner);
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
