/* cubeful.c: cubeful equities by search, the method of GNU Backgammon's cubeful evaluation
 * in our own code. At ply 0 the formula of cube.c at the position's cube efficiency (a small
 * money bear-off exactly, bearoff2.c, at any ply); deeper,
 * each of the 21 rolls is answered by the play of the best cubeful equity, and at every node
 * the side on roll weighs its own options (no double, double/take, double/pass) on its
 * children's values. Several cube states share one pass over the tree: each node carries
 * them all, each with its doubled twin. Not the formula itself (cube.c, met.c) nor play choice
 * for the levels (search.c). */
#include <string.h>
#include "cube.h"
#include "search.h"

#define CF_MAX_PLY 3
#define CF_MAX_STATES 4       /* a node's states: the root's one, doubled at each ply above
                                 the deepest node (1, 2, 4 at 3 plies); its children see
                                 twice as many */
_Static_assert(CF_MAX_STATES >= 1 << (CF_MAX_PLY - 1), "a deepest node's states fit");
#define CF_SECOND_MARGIN 0.08f   /* the play search's filter: a close second is re-judged */

static _Thread_local mg_play cf_buf[CF_MAX_PLY][MG_MAX_PLAYS];   /* one a ply, 1..CF_MAX_PLY */

/* the terms as the other side sees them */
static bg_match turned(const bg_match *m) {
    bg_match t = *m;
    t.cube_owner = m->cube_owner == 0 ? 0 : 3 - m->cube_owner;
    t.away_me = m->away_opp;
    t.away_opp = m->away_me;
    return t;
}

static bg_match doubled(const bg_match *m) {
    bg_match t = *m;
    t.cube_value = 2 * m->cube_value;
    t.cube_owner = 2;
    return t;
}

static float double_pass(const bg_match *m) {
    if (m->match_to == 0) return (float)m->cube_value;
    return 2.0f * met_equity(m->away_me - m->cube_value, m->away_opp, m->crawford != 0) - 1.0f;
}

/* the value at terms m for the side on roll, its options weighed (it doubles when the
 * double, taken or passed, is worth more than playing on) */
static float weighed(const bg_match *m, float nd, float dt) {
    return cube_may_double(m) ? cube_weigh(nd, dt, double_pass(m)) : nd;
}

/* The cube at ply 0: exact in a small money bear-off, else the formula at the position's
 * efficiency (cube_decide_at). */
static void cube_at0(const mg_board *b, const float p[NN_OUT], const bg_match *m,
                     cube_result *r) {
    if (!b2_cube(b2_pair(b), m, r)) cube_decide_at(b, p, m, r);
}

/* A node: the side on roll at pos with its states s[0..n-1]; for each, the value of no
 * double in nd[i] and of double/take in dt[i] (when it may double), the cubeless chances in
 * p. Values are money points (cube included) or 2*mwc-1, for the side on roll. */
static void node(const mg_board *pos, int ply, const bg_match *s, int n, float *nd, float *dt,
                 float p[NN_OUT]);

/* A child: the opponent on roll at child (its states c[0..c_n-1]); its weighed value for
 * each state, turned to the parent's side, into v; its chances (the parent's side) into q. */
static void child_values(const mg_board *child, int ply, const float q0[NN_OUT],
                         const bg_match *c, int c_n, float *v, float q[NN_OUT]) {
    float cnd[2 * CF_MAX_STATES], cdt[2 * CF_MAX_STATES], cp[NN_OUT];
    const long pair = b2_pair(child);
    if (ply == 0 || mg_result(child) != 0 || b2_exact(pair, &c[0])) {
        memcpy(cp, q0, sizeof cp);
        for (int k = 0; k < c_n; k++) {
            cube_result r;
            cube_at0(child, cp, &c[k], &r);
            cnd[k] = r.nd;
            cdt[k] = r.dt;
        }
    } else {
        node(child, ply, c, c_n, cnd, cdt, cp);
    }
    for (int k = 0; k < c_n; k++) v[k] = -weighed(&c[k], cnd[k], cdt[k]);
    ev_invert(cp, q);
}

/* The best play of one roll at 0-ply by its cubeful value at the first state (c[0], the
 * child's view), ties (a cash is a cash whatever the play) broken by the cubeless equity;
 * and the runner-up: their results (the child on roll) and chances. Returns how many there
 * are (1 or 2) and their values' gap in *gap. */
static int best_two(const mg_board *pos, int d1, int d2, int ply, const bg_match *c,
                    mg_board kids[2], float qs[2][NN_OUT], float *gap) {
    mg_play *plays = cf_buf[ply - 1];
    int np = mg_generate(pos, d1, d2, plays), have = 0;
    float best[2] = {-1e9f, -1e9f}, tie[2] = {-1e9f, -1e9f};
    for (int i = 0; i < np; i++) {
        mg_board kid;
        float q0[NN_OUT];
        cube_result r;
        mg_swap(&plays[i].after, &kid);
        sr_eval0(&kid, q0);
        cube_at0(&kid, q0, &c[0], &r);
        float v0 = -weighed(&c[0], r.nd, r.dt), t0 = -ev_equity(q0);
        if (v0 > best[0] || (v0 == best[0] && t0 > tie[0])) {
            best[1] = best[0]; tie[1] = tie[0]; kids[1] = kids[0];
            memcpy(qs[1], qs[0], sizeof qs[0]);
            best[0] = v0; tie[0] = t0; kids[0] = kid; memcpy(qs[0], q0, sizeof q0);
        } else if (v0 > best[1] || (v0 == best[1] && t0 > tie[1])) {
            best[1] = v0; tie[1] = t0; kids[1] = kid; memcpy(qs[1], q0, sizeof q0);
        }
        if (have < 2) have++;
    }
    *gap = best[0] - best[1];
    return have;
}

/* One roll (d1, d2) of a node at pos: the value of each child state c[0..m-1] (the parent's
 * side) after the roll's best play into v, and its chances into q; at a node of 2 plies or
 * more a close second is judged too (the play search's filter). */
static void roll_values(const mg_board *pos, int ply, int d1, int d2, const bg_match *c, int m,
                        float v[2 * CF_MAX_STATES], float q[NN_OUT]) {
    mg_board kids[2];
    float qs[2][NN_OUT] = {{0}}, gap;
    int have = best_two(pos, d1, d2, ply, c, kids, qs, &gap);
    child_values(&kids[0], ply - 1, qs[0], c, m, v, q);
    /* the margin per unit of cube: money values carry the cube */
    const float unit = c[0].match_to == 0 ? (float)c[0].cube_value : 1.0f;
    if (ply >= 2 && have > 1 && gap < CF_SECOND_MARGIN * unit) {
        float v2[2 * CF_MAX_STATES], q2[NN_OUT];
        child_values(&kids[1], ply - 1, qs[1], c, m, v2, q2);
        if (v2[0] > v[0]) { memcpy(v, v2, sizeof v2); memcpy(q, q2, sizeof q2); }
    }
}

/* A node's rolls, each roll's values and chances in rows of its own (sr_share_rolls) */
typedef struct {
    const mg_board *pos;
    int ply, m;
    const bg_match *c;
    float (*v)[2 * CF_MAX_STATES];
    float (*q)[NN_OUT];
} node_rolls;

static void node_roll(void *ctx, int r) {
    const node_rolls *at = ctx;
    roll_values(at->pos, at->ply, sr_roll_d1[r], sr_roll_d2[r], at->c, at->m, at->v[r],
                at->q[r]);
}

/* node, its rolls shared among `threads` threads (sr_share_rolls: the same bits) */
static void node_shared(const mg_board *pos, int ply, const bg_match *s, int n, int threads,
                        float *nd, float *dt, float p[NN_OUT]) {
    bg_match c[2 * CF_MAX_STATES];   /* each state, and its doubled twin when it may double,
                                        as the child sees them */
    int slot_nd[CF_MAX_STATES], slot_dt[CF_MAX_STATES], m = 0;
    for (int i = 0; i < n; i++) {
        slot_nd[i] = m;
        c[m++] = turned(&s[i]);
        slot_dt[i] = -1;
        if (cube_may_double(&s[i])) {
            bg_match twin = doubled(&s[i]);
            slot_dt[i] = m;
            c[m++] = turned(&twin);
        }
    }
    float v[SR_ROLLS][2 * CF_MAX_STATES], q[SR_ROLLS][NN_OUT];
    node_rolls at = {pos, ply, m, c, v, q};
    if (threads > 1) sr_share_rolls(threads, node_roll, &at);
    else for (int r = 0; r < SR_ROLLS; r++) node_roll(&at, r);
    double sum[2 * CF_MAX_STATES] = {0}, psum[NN_OUT] = {0};
    for (int r = 0; r < SR_ROLLS; r++) {
        const double w = sr_roll_d1[r] == sr_roll_d2[r] ? 1.0 : 2.0;
        for (int k = 0; k < m; k++) sum[k] += w * v[r][k];
        for (int k = 0; k < NN_OUT; k++) psum[k] += w * q[r][k];
    }
    for (int i = 0; i < n; i++) {
        nd[i] = (float)(sum[slot_nd[i]] / 36.0);
        dt[i] = slot_dt[i] >= 0 ? (float)(sum[slot_dt[i]] / 36.0) : nd[i];
    }
    for (int k = 0; k < NN_OUT; k++) p[k] = (float)(psum[k] / 36.0);
}

static void node(const mg_board *pos, int ply, const bg_match *s, int n, float *nd, float *dt,
                 float p[NN_OUT]) {
    node_shared(pos, ply, s, n, 1, nd, dt, p);
}

void cf_decide_shared(const mg_board *pos, int ply, const bg_match *m, int threads,
                      cube_result *out, float p[NN_OUT]) {
    if (ply > CF_MAX_PLY) ply = CF_MAX_PLY;
    const long pair = b2_pair(pos);
    if (ply <= 0 || mg_result(pos) != 0 || b2_exact(pair, m)) {
        sr_eval0(pos, p);
        cube_at0(pos, p, m, out);
        return;
    }
    float nd, dt;
    node_shared(pos, ply, m, 1, threads, &nd, &dt, p);
    cube_result at0;   /* the double/take when no double is possible: the formula's, shown */
    cube_decide_at(pos, p, m, &at0);
    out->nd = nd;
    out->dt = cube_may_double(m) ? dt : at0.dt;
    out->dp = double_pass(m);
    out->bits = cube_bits(m, out->nd, out->dt, out->dp);
}

void cf_decide(const mg_board *pos, int ply, const bg_match *m, cube_result *out,
               float p[NN_OUT]) {
    cf_decide_shared(pos, ply, m, 1, out, p);
}

/* the opponent's value (on roll at opp, its terms theirs) by the formula at chances q */
static float theirs_at0(const mg_board *opp, const float q[NN_OUT], const bg_match *theirs) {
    cube_result r;
    cube_at0(opp, q, theirs, &r);
    return weighed(theirs, r.nd, r.dt);
}

/* the formula's miss for the opponent on roll at opp (its terms theirs), its cube searched
 * ply deep: the search's weighed value less the formula's at the search's own chances (0 at
 * ply 0, or when the game is over) */
static float theirs_miss(const mg_board *opp, const bg_match *theirs, int ply) {
    if (ply <= 0 || mg_result(opp) != 0) return 0.0f;
    cube_result r;
    float p[NN_OUT];
    cf_decide(opp, ply, theirs, &r, p);
    return weighed(theirs, r.nd, r.dt) - theirs_at0(opp, p, theirs);
}

float cf_after_play(const mg_board *after, const float mover[NN_OUT], const bg_match *m,
                    int ply) {
    bg_match theirs = turned(m);
    mg_board opp;
    float q[NN_OUT];
    mg_swap(after, &opp);
    ev_invert(mover, q);
    float value = theirs_at0(&opp, q, &theirs);
    if (ply > 0 && mg_result(&opp) == 0) value += theirs_miss(&opp, &theirs, ply);
    return -value;
}

float cf_play_miss(const mg_board *after, const bg_match *m, int ply) {
    bg_match theirs = turned(m);
    mg_board opp;
    mg_swap(after, &opp);
    return -theirs_miss(&opp, &theirs, ply);
}
