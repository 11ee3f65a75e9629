/* cube.c: double/no double and take/pass. Money play mixes the dead-cube (cubeless) equity
 * with a live-cube model in which the winning chance moves continuously, so doubles and
 * passes happen exactly at the cash points (cube efficiency CUBE_LIVE). Match play mixes the
 * same way in match winning chances, with the live-cube match model of met.c.
 * Not the evaluation of the position (the caller passes the probabilities). */
#include "cube.h"
#include "../bg.h"

#define CUBE_LIVE 0.68f

/* live-cube equity per unit cube; owner 0 centred, 1 me, 2 opponent */
float cube_money_live(float p, float W, float L, int owner) {
    float cash_me = (L + 1.0f) / (W + L + 0.5f);     /* my p where the opponent must pass */
    float cash_opp = (L - 0.5f) / (W + L + 0.5f);    /* my p where I must pass */
    if (owner == 1) {
        if (p <= cash_me) return -L + (1.0f + L) * p / cash_me;
        return 1.0f + (W - 1.0f) * (p - cash_me) / (1.0f - cash_me);
    }
    if (owner == 2) {
        if (p <= cash_opp) return -L + (L - 1.0f) * p / cash_opp;
        return -1.0f + (W + 1.0f) * (p - cash_opp) / (1.0f - cash_opp);
    }
    if (p <= cash_opp) return -L + (L - 1.0f) * p / cash_opp;
    if (p <= cash_me) return -1.0f + 2.0f * (p - cash_opp) / (cash_me - cash_opp);
    return 1.0f + (W - 1.0f) * (p - cash_me) / (1.0f - cash_me);
}

/* the game at the score as the side of p sees it, with p's gammon shares */
static met_game game_of(const float p[NN_OUT], int away_me, int away_opp, int post) {
    float win = p[EV_WIN], lose = 1.0f - win;
    met_game g = {away_me, away_opp, post, 0, 0, 0, 0};
    if (win > 1e-6f) { g.wg = (p[EV_WIN_G] - p[EV_WIN_BG]) / win; g.wbg = p[EV_WIN_BG] / win; }
    if (lose > 1e-6f) { g.lg = (p[EV_LOSE_G] - p[EV_LOSE_BG]) / lose; g.lbg = p[EV_LOSE_BG] / lose; }
    return g;
}

/* match play: the live-cube model of met.c for this position's gammon shares, mixed with
 * the dead cube at efficiency x. The game's outcomes are scored post-Crawford from the
 * Crawford game on (after it the Crawford game is past). */
static void match_decide(const float p[NN_OUT], float x_nd, float x_dt, int c, int owner,
                         int away_me, int away_opp, int crawford, cube_result *out) {
    float win = p[EV_WIN], lose = 1.0f - win;
    met_game g = game_of(p, away_me, away_opp, crawford != 0);
    if (crawford == 1) x_nd = x_dt = 0.0f;           /* the Crawford game has no cube */
    float nd = x_nd * met_live(&g, win, c, owner)
               + (1.0f - x_nd) * (win * met_win(&g, c) + lose * met_lose(&g, c));
    float dt = x_dt * met_live(&g, win, 2 * c, 2)
               + (1.0f - x_dt) * (win * met_win(&g, 2 * c) + lose * met_lose(&g, 2 * c));
    out->nd = 2.0f * nd - 1.0f;
    out->dt = 2.0f * dt - 1.0f;
    out->dp = 2.0f * met_equity(away_me - c, away_opp, g.post) - 1.0f;
}

void cube_decide(const float p[NN_OUT], const bg_match *m, cube_result *out) {
    cube_decide_x(p, CUBE_LIVE, m, out);
}

void cube_decide_x(const float p[NN_OUT], float x, const bg_match *m, cube_result *out) {
    cube_decide_x2(p, x, x, m, out);
}

void cube_decide_x2(const float p[NN_OUT], float x, float x_dt, const bg_match *m,
                    cube_result *out) {
    const int cube_value = m->cube_value, cube_owner = m->cube_owner, match_to = m->match_to;
    const int away_me = m->away_me, crawford = m->crawford;
    float win = p[EV_WIN], lose = 1.0f - win;
    float dead = ev_equity(p);
    out->bits = 0;
    if (match_to == 0) {
        float W = win > 1e-6f ? (win + p[EV_WIN_G] + p[EV_WIN_BG]) / win : 1.0f;
        float L = lose > 1e-6f ? (lose + p[EV_LOSE_G] + p[EV_LOSE_BG]) / lose : 1.0f;
        float own = cube_owner;   /* 0 centred, 1 me, 2 opponent */
        float nd = x * cube_money_live(win, W, L, (int)own) + (1.0f - x) * dead;
        float dt = 2.0f * (x_dt * cube_money_live(win, W, L, 2) + (1.0f - x_dt) * dead);
        out->nd = nd * cube_value;
        out->dt = dt * cube_value;
        out->dp = 1.0f * cube_value;
    } else {
        match_decide(p, x, x_dt, cube_value, cube_owner, away_me, m->away_opp, crawford, out);
    }
    out->bits = cube_bits(m, out->nd, out->dt, out->dp);
}

int cube_may_double(const bg_match *m) {
    if (m->cube_owner == 2 || m->cube_value >= BG_CUBE_FACE_MAX) return 0;
    return !(m->match_to && (m->crawford == 1 || m->away_me <= m->cube_value));
}

/* Ties within CUBE_TIE go to the double (it loses nothing: the post-Crawford trailer's
 * double at an even score, a double whose take and whose no double are worth the same);
 * no double when playing on beats the cash is "too good", taken or passed. */
#define CUBE_TIE 1e-5f
#define CUBE_TOO_GOOD_BY 1e-4f

int cube_bits(const bg_match *m, float nd, float dt, float dp) {
    int bits = dt <= dp ? BG_CUBE_TAKE : 0;
    if (!cube_may_double(m)) return bits;
    if (nd > dp + CUBE_TOO_GOOD_BY) return bits | BG_CUBE_TOO_GOOD;
    if (dt > dp || dt >= nd - CUBE_TIE) bits |= BG_CUBE_DOUBLE;
    return bits;
}

float cube_efficiency(const mg_board *b) {
    switch (ev_class(b)) {
    case EV_OVER: return 0.0f;
    case EV_BEAROFF: return 0.6f;
    case EV_RACE: {
        float x = 0.55f + 0.00125f * (float)mg_pips(b, 0);
        return x < 0.6f ? 0.6f : (x > 0.7f ? 0.7f : x);
    }
    default: return CUBE_LIVE;
    }
}

/* The efficiency of the opponent's cube in a small bear-off at a match score: the exact
 * money cube's (x_money) where their redouble would cash us at money's point (a winning
 * chance of 0.2, W = L = 1) or lower, rising to the position's default x as that point nears
 * 0.5. A short bear-off rarely swings far enough to reach a far cash point, but often reaches
 * a near one: against the exact recursion (short bear-offs, session 57) the money figure put
 * the 3-away/3-away double/take within 0.04 EMG where the default was 0.11 low, while at
 * 2-away/4-away (the taker's redouble cashes at 0.5) the default is the right one. */
static float theirs_x(float x_money, float x, float cash) {
    float t = (cash - 0.2f) / 0.3f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    float blended = x_money + (x - x_money) * t;
    return blended < x ? blended : x;
}

void cube_decide_at(const mg_board *b, const float p[NN_OUT], const bg_match *m,
                    cube_result *out) {
    float x = cube_efficiency(b), x_nd = x, x_dt = x, x_money;
    if (m->match_to && m->crawford != 1 && b2_theirs_efficiency(b2_pair(b), p[EV_WIN], &x_money)) {
        met_game g = game_of(p, m->away_me, m->away_opp, m->crawford != 0);
        x_dt = theirs_x(x_money, x, met_opp_cash(&g, 2 * m->cube_value));
        if (m->cube_owner == 2) x_nd = theirs_x(x_money, x, met_opp_cash(&g, m->cube_value));
    }
    cube_decide_x2(p, x_nd, x_dt, m, out);
}
