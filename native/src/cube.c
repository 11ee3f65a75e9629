/* cube.c: double/no double and take/pass. Money play mixes the dead-cube (cubeless) equity
 * with a live-cube model in which the winning chance moves continuously, so doubles and
 * passes happen exactly at the cash points (cube efficiency CUBE_LIVE). Match play mixes the
 * same way in match winning chances: the live model's cash and take points at each cube level
 * come from the computed table, worked out level by level up to the cube that decides the match.
 * Not the evaluation of the position (the caller passes the probabilities). */
#include "cube.h"
#include "../bg.h"

#define CUBE_LIVE 0.68f

/* live-cube equity per unit cube; owner 0 centred, 1 me, 2 opponent */
static float live_equity(float p, float W, float L, int owner) {
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

/* ---- match play, live cube ------------------------------------------------------------
 * Everything is my match winning chance (mwc) as a function of my game winning chance p.
 * With a fully live cube p moves continuously, so a game ends at p = 0 or 1 (with the
 * position's gammon shares) or at a cash point; in between the mwc is linear in p. */
typedef struct {
    int a, b, post;            /* points I need, points the opponent needs, post-Crawford */
    float wg, wbg, lg, lbg;    /* shares of my wins / losses that are gammons, backgammons */
} mstate;

static float m_met(const mstate *s, int a, int b) { return met_equity(a, b, s->post); }

static float m_win(const mstate *s, int c) {       /* the game won at cube c */
    return (1.0f - s->wg - s->wbg) * m_met(s, s->a - c, s->b) + s->wg * m_met(s, s->a - 2 * c, s->b)
           + s->wbg * m_met(s, s->a - 3 * c, s->b);
}

static float m_lose(const mstate *s, int c) {      /* the game lost at cube c */
    return (1.0f - s->lg - s->lbg) * m_met(s, s->a, s->b - c) + s->lg * m_met(s, s->a, s->b - 2 * c)
           + s->lbg * m_met(s, s->a, s->b - 3 * c);
}

static float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

static float m_opp_cash(const mstate *s, int c);

/* my p at which I, holding a cube of c, double to 2c and the opponent should pass (their
 * take point with 2c in their hands); 1 when my double can gain nothing (I need <= c) */
static float m_my_cash(const mstate *s, int c) {
    if (s->a <= c || c > 4096) return 1.0f;
    float q = m_opp_cash(s, 2 * c);                  /* where they would redouble me out */
    float low = q > 0.0f ? m_met(s, s->a, s->b - 2 * c) : m_lose(s, 2 * c);
    float high = m_win(s, 2 * c), pass = m_met(s, s->a - c, s->b);
    if (high - low < 1e-6f) return pass <= low ? q : 1.0f;
    return clamp01(q + (1.0f - q) * (pass - low) / (high - low));
}

/* my p at which the opponent, holding a cube of c, doubles to 2c and I should pass (my take
 * point with 2c in my hands); 0 when their double can gain nothing (they need <= c) */
static float m_opp_cash(const mstate *s, int c) {
    if (s->b <= c || c > 4096) return 0.0f;
    float r = m_my_cash(s, 2 * c);                   /* where I would redouble them out */
    float low = m_lose(s, 2 * c);
    float high = r < 1.0f ? m_met(s, s->a - 2 * c, s->b) : m_win(s, 2 * c);
    float pass = m_met(s, s->a, s->b - c);
    if (high - low < 1e-6f) return pass >= high ? r : 0.0f;
    return clamp01(r * (pass - low) / (high - low));
}

/* fully live mwc at p with a cube of c; owner 0 centred, 1 me, 2 opponent */
static float m_live(const mstate *s, float p, int c, int owner) {
    float xs[4], ys[4];
    int n = 0;
    xs[n] = 0.0f; ys[n++] = m_lose(s, c);
    float q = owner != 1 ? m_opp_cash(s, c) : 0.0f;
    float r = owner != 2 ? m_my_cash(s, c) : 1.0f;
    if (q >= r) { q = 0.0f; r = 1.0f; }             /* no window between them: a dead cube */
    if (q > 0.0f) { xs[n] = q; ys[n++] = m_met(s, s->a, s->b - c); }
    if (r < 1.0f) { xs[n] = r; ys[n++] = m_met(s, s->a - c, s->b); }
    xs[n] = 1.0f; ys[n++] = m_win(s, c);
    for (int i = 1; i < n; i++)
        if (p <= xs[i] || i == n - 1) {
            float span = xs[i] - xs[i - 1];
            float t = span > 1e-6f ? (p - xs[i - 1]) / span : 1.0f;
            return ys[i - 1] + (ys[i] - ys[i - 1]) * clamp01(t);
        }
    return ys[n - 1];
}

static void match_decide(const float p[NN_OUT], int c, int owner, int away_me, int away_opp,
                         int crawford, cube_result *out) {
    float win = p[EV_WIN], lose = 1.0f - win;
    mstate s = {away_me, away_opp, crawford >= 2, 0, 0, 0, 0};
    if (win > 1e-6f) { s.wg = (p[EV_WIN_G] - p[EV_WIN_BG]) / win; s.wbg = p[EV_WIN_BG] / win; }
    if (lose > 1e-6f) { s.lg = (p[EV_LOSE_G] - p[EV_LOSE_BG]) / lose; s.lbg = p[EV_LOSE_BG] / lose; }
    float x = crawford == 1 ? 0.0f : CUBE_LIVE;      /* the Crawford game has no cube */
    float nd = x * m_live(&s, win, c, owner)
               + (1.0f - x) * (win * m_win(&s, c) + lose * m_lose(&s, c));
    float dt = x * m_live(&s, win, 2 * c, 2)
               + (1.0f - x) * (win * m_win(&s, 2 * c) + lose * m_lose(&s, 2 * c));
    out->nd = 2.0f * nd - 1.0f;
    out->dt = 2.0f * dt - 1.0f;
    out->dp = 2.0f * m_met(&s, away_me - c, away_opp) - 1.0f;
}

void cube_decide(const float p[NN_OUT], int cube_value, int cube_owner, int match_to,
                 int away_me, int away_opp, int crawford, cube_result *out) {
    float win = p[EV_WIN], lose = 1.0f - win;
    float dead = ev_equity(p);
    out->bits = 0;
    if (match_to == 0) {
        float W = win > 1e-6f ? (win + p[EV_WIN_G] + p[EV_WIN_BG]) / win : 1.0f;
        float L = lose > 1e-6f ? (lose + p[EV_LOSE_G] + p[EV_LOSE_BG]) / lose : 1.0f;
        float own = cube_owner;   /* 0 centred, 1 me, 2 opponent */
        float nd = CUBE_LIVE * live_equity(win, W, L, (int)own) + (1.0f - CUBE_LIVE) * dead;
        float dt = 2.0f * (CUBE_LIVE * live_equity(win, W, L, 2) + (1.0f - CUBE_LIVE) * dead);
        out->nd = nd * cube_value;
        out->dt = dt * cube_value;
        out->dp = 1.0f * cube_value;
    } else {
        match_decide(p, cube_value, cube_owner, away_me, away_opp, crawford, out);
    }
    if (out->dt <= out->dp) out->bits |= BG_CUBE_TAKE;
    int may_double = cube_owner != 2 && !(match_to && crawford == 1)
                     && !(match_to && away_me <= cube_value);
    if (may_double) {
        if (out->dt > out->dp) {   /* the double would be passed: cash unless playing on wins more */
            if (out->nd > out->dp + 1e-4f) out->bits |= BG_CUBE_TOO_GOOD;
            else out->bits |= BG_CUBE_DOUBLE;
        } else if (out->dt > out->nd) {
            out->bits |= BG_CUBE_DOUBLE;
        }
    }
}
