/* eval_api.c: the evaluator section of bg.h: loading the weights, evaluation, ranked plays
 * per level, cube decisions, the match equity table and the bear-off database, with every
 * argument checked so that bad input returns an error code and never crashes.
 * Not the USR door (usr.c) and not the rules section (rules.c). */
#include <string.h>
#include "../bg.h"
#include "cube.h"
#include "search.h"

_Static_assert(NN_OUT == BG_N_PROBS, "a candidate's probabilities are bg.h's five");
_Static_assert(sizeof(mg_step) * BG_MAX_STEPS == BG_MAX_STEPS * BG_STEP_FIELDS,
               "a play's steps fill bg_play.steps");
static ev_weights loading;   /* parsed here first so a damaged file never half-replaces ev_w */
/* the calling thread's scratch for a ranking's candidates (filled and read in one call) */
static _Thread_local sr_cand ranked[MG_MAX_PLAYS];

void bg_search_defaults(bg_search *out) {
    if (out) *out = sr_defaults;
}

int bg_check_search(const bg_search *s) {
    if (!s) return 0;
    if (s->plies != 2 && s->plies != 3) return -BG_ERR_BAD_SEARCH;
    if (s->work_budget < BG_BUDGET_MIN || s->work_budget > BG_BUDGET_MAX ||
        s->deep_budget < BG_BUDGET_MIN || s->deep_budget > BG_BUDGET_MAX)
        return -BG_ERR_BAD_SEARCH;
    if (s->roll_trials < 0 || s->roll_trials > BG_SEARCH_TRIALS_MAX || s->roll_horizon < 1 ||
        s->roll_horizon > BG_SEARCH_HORIZON_MAX || (s->cache != 0 && s->cache != 1))
        return -BG_ERR_BAD_SEARCH;
    if (s->threads < 1 || s->threads > BG_SEARCH_THREADS_MAX) return -BG_ERR_BAD_SEARCH;
    return 0;
}

int bg_load_weights(const uint8_t *data, int len) {
    if (!data || len <= 0) return -BG_ERR_WTS_SIZE;
    int rc = ev_wts_parse(&loading, data, len);
    if (rc != 0) return -rc;
    ev_w = loading;
    ev_tables_init();           /* every lazily built table now, before any thread reads it */
    (void)met_equity(1, 1, 0);  /* the match equity table */
    bo_init();                  /* the bear-off database (once; about 0.1 s) */
    b2_init();                  /* the two-sided bear-off's money cube (once) */
    return 0;
}

int bg_nn_avx2(int allow) {
    if (allow != 0 && allow != 1) return -BG_ERR_BAD_ARG;
    return nn_use_avx2(allow);
}

int bg_weights_games(void) { return ev_w.loaded ? (int)ev_w.games_trained : 0; }

int bg_weights_expected_size(void) {
    return (int)ev_wts_size(EV_N_IN, EV_N_HID_CONTACT_SHIPPED, EV_N_HID_RACE_SHIPPED,
                            EV_N_HID_CRASHED_SHIPPED);
}

static int check_board(const int8_t *board) {
    if (!board) return -BG_ERR_BAD_ARG;
    return bg_validate(board);
}

int bg_evaluate(const int8_t *board, int ply, const bg_search *search, float *out_probs) {
    int rc = check_board(board);
    if (rc) return rc;
    if (!out_probs || ply < 0 || ply > BG_JUDGE_MAX_PLY) return -BG_ERR_BAD_ARG;
    rc = bg_check_search(search);
    if (rc) return rc;
    const mg_board *b = (const mg_board *)board;
    if (!ev_w.loaded && ev_class(b) >= EV_RACE) return -BG_ERR_NO_WEIGHTS;
    if (!ev_w.loaded && ply > 0 && mg_result(b) == 0) return -BG_ERR_NO_WEIGHTS;
    sr_set_search(search);
    sr_eval_ply(b, ply, out_probs);
    return 0;
}

int bg_judge_plays(const int8_t *afters, int n, int ply, const bg_match *match,
                   const bg_search *search, float *out_probs, float *out_equity) {
    if (!afters || !out_probs || !out_equity || n < 0 || ply < 0 || ply > BG_JUDGE_MAX_PLY)
        return -BG_ERR_BAD_ARG;
    int rc = bg_check_match(match);
    if (rc) return rc;
    rc = bg_check_search(search);
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        rc = check_board(afters + (size_t)i * BG_BOARD_LEN);
        if (rc) return rc;
    }
    if (n > 0 && !ev_w.loaded) return -BG_ERR_NO_WEIGHTS;
    if (!bo_ready()) bo_init();
    sr_set_search(search);
    sr_set_match(match);
    for (int i = 0; i < n; i++)
        out_equity[i] = sr_judge_after((const mg_board *)(afters + (size_t)i * BG_BOARD_LEN),
                                       ply, out_probs + (size_t)i * BG_N_PROBS);
    sr_set_match(NULL);   /* other callers of the search stay money, as bg_rank_plays */
    return n;
}

int bg_evaluate_many(const int8_t *boards, int n, float *out_probs) {
    if (!boards || !out_probs || n < 0) return -BG_ERR_BAD_ARG;
    for (int i = 0; i < n; i++) {
        int rc = bg_evaluate(boards + (size_t)i * BG_BOARD_LEN, 0, NULL,
                             out_probs + (size_t)i * BG_N_PROBS);
        if (rc) return rc;
    }
    return n;
}

float bg_equity(const float *probs) { return probs ? ev_equity(probs) : 0.0f; }

int bg_check_match(const bg_match *m) {
    if (!m) return 0;
    const int c = m->cube_value;
    if (c < 1 || c > BG_CUBE_MAX || (c & (c - 1)) || m->cube_owner < 0 || m->cube_owner > 2)
        return -BG_ERR_BAD_CUBE;
    if (m->match_to < 0 || m->match_to > BG_MET_MAX) return -BG_ERR_BAD_SCORE;
    if (m->match_to == 0) return 0;
    if (m->away_me < 1 || m->away_opp < 1 || m->away_me > m->match_to ||
        m->away_opp > m->match_to || m->crawford < 0 || m->crawford > 2)
        return -BG_ERR_BAD_SCORE;
    if (m->crawford && m->away_me != 1 && m->away_opp != 1) return -BG_ERR_BAD_SCORE;
    if (m->crawford == 1 && (c != 1 || m->cube_owner != 0)) return -BG_ERR_BAD_CUBE;
    return 0;
}

int bg_may_double(const bg_match *m) {
    static const bg_match money_1 = {1, 0, 0, 0, 0, 0};
    int rc = bg_check_match(m);
    if (rc) return rc;
    return cube_may_double(m ? m : &money_1);
}

static void put_play(const sr_cand *c, bg_play *out) {
    memcpy(out->board, &c->play.after, BG_BOARD_LEN);
    mg_put_steps(&c->play, out->steps);
    out->nsteps = (int8_t)c->play.nsteps;
    out->ply = c->ply;
    out->equity = c->eq;
    memcpy(out->probs, c->p, sizeof out->probs);
}

int bg_rank_plays(const int8_t *board, int die1, int die2, int level, const bg_match *match,
                  const bg_search *search, bg_ranking *out) {
    int rc = check_board(board);
    if (rc) return rc;
    if (die1 < 1 || die1 > 6 || die2 < 1 || die2 > 6) return -BG_BAD_DICE;
    if (level < BG_LEVEL_MIN || level > BG_LEVEL_MAX) return -BG_ERR_BAD_LEVEL;
    if (!out || !out->plays || out->max_plays < 1) return -BG_ERR_BAD_ARG;
    out->legal = out->work = 0;
    if (level > 1 && !ev_w.loaded) return -BG_ERR_NO_WEIGHTS;
    const mg_board *b = (const mg_board *)board;
    if (mg_result(b) != 0) return -BG_ERR_GAME_OVER;
    if (level > 1 && !bo_ready()) bo_init();
    rc = bg_check_match(match);
    if (rc) return rc;
    rc = bg_check_search(search);
    if (rc) return rc;
    sr_set_search(search);
    sr_set_match(match);
    long work = 0;
    const int room = out->max_plays < MG_MAX_PLAYS ? out->max_plays : MG_MAX_PLAYS;
    int n = sr_rank(b, die1, die2, level, ranked, room, &work);
    sr_set_match(NULL);   /* other callers of the search (cube, evaluate) stay money */
    out->legal = n;
    out->work = (int)work;
    int m = n < out->max_plays ? n : out->max_plays;
    for (int i = 0; i < m; i++) put_play(&ranked[i], &out->plays[i]);
    return m;
}

void bg_eval_cache_counts(double *looks, double *hits) {
    long l, h;
    sr_cache_counts(&l, &h);
    if (looks) *looks = (double)l;
    if (hits) *hits = (double)h;
}

static const bg_match money = {1, 0, 0, 0, 0, 0};

/* the cubeful search's depth for a level: 1-3 the formula (0), 4 one ply, 5 two plies, or
 * three with settings of plies 3 (the review's check) */
static int cube_plies(int level, const bg_search *search) {
    if (level <= 3) return 0;
    if (level == 5 && search && search->plies == 3) return 3;
    return level - 3;
}

int bg_cube_decision(const int8_t *board, int level, const bg_match *match,
                     const bg_search *search, float *out) {
    int rc = check_board(board);
    if (rc) return rc;
    if (level < BG_LEVEL_MIN || level > BG_LEVEL_MAX) return -BG_ERR_BAD_LEVEL;
    if (!out) return -BG_ERR_BAD_ARG;
    rc = bg_check_match(match);
    if (rc) return rc;
    rc = bg_check_search(search);
    if (rc) return rc;
    const mg_board *b = (const mg_board *)board;
    if (mg_result(b) != 0) return -BG_ERR_GAME_OVER;
    if (!ev_w.loaded) return -BG_ERR_NO_WEIGHTS;
    if (!bo_ready()) bo_init();
    float p[NN_OUT];
    cube_result r;
    sr_set_search(search);
    cf_decide_shared(b, cube_plies(level, search), match ? match : &money,
                     search ? search->threads : 1, &r, p);
    out[0] = r.nd; out[1] = r.dt; out[2] = r.dp;
    out[3] = p[EV_WIN]; out[4] = p[EV_WIN_G]; out[5] = p[EV_LOSE_G];
    return r.bits;
}

/* chances a cube formula takes: each in 0..1 (not NaN), gammons within the wins, ... */
static int chances_ok(const float *probs) {
    const float eps = 1e-5f;
    float win = probs[EV_WIN];
    for (int i = 0; i < NN_OUT; i++)
        if (!(probs[i] >= 0.0f && probs[i] <= 1.0f)) return 0;   /* NaN too */
    return !(probs[EV_WIN_G] > win + eps || probs[EV_WIN_BG] > probs[EV_WIN_G] + eps ||
             probs[EV_LOSE_G] > 1.0f - win + eps || probs[EV_LOSE_BG] > probs[EV_LOSE_G] + eps);
}

/* bg_cube_from_probs and bg_cube_from_probs_at: the decision from given chances, checked, at
 * the cube efficiency of the position `at` (NULL: a contact position's, cube_decide's), into
 * bg_cube_decision's out[]; with ply 1..BG_CUBE_MISS_MAX_PLY (and `at`), the formula's miss
 * found by searching `at` that deep is added to its no double and double/take; its bits */
static int from_probs(const float *probs, const mg_board *at, const bg_match *match, int ply,
                      float *out) {
    if (!probs || !out || ply < 0 || ply > BG_CUBE_MISS_MAX_PLY) return -BG_ERR_BAD_ARG;
    int rc = bg_check_match(match);
    if (rc) return rc;
    if (!chances_ok(probs)) return -BG_ERR_BAD_ARG;
    const bg_match *m = match ? match : &money;
    cube_result r;
    if (at) cube_decide_at(at, probs, m, &r);
    else cube_decide(probs, m, &r);
    if (at && ply > 0 && mg_result(at) == 0) {
        cube_result searched, formula;
        float p[NN_OUT];
        cf_decide(at, ply, m, &searched, p);
        cube_decide_at(at, p, m, &formula);
        r.nd += searched.nd - formula.nd;
        r.dt += searched.dt - formula.dt;
        r.bits = cube_bits(m, r.nd, r.dt, r.dp);
    }
    out[0] = r.nd; out[1] = r.dt; out[2] = r.dp;
    out[3] = probs[EV_WIN]; out[4] = probs[EV_WIN_G]; out[5] = probs[EV_LOSE_G];
    return r.bits;
}

int bg_cube_from_probs(const float *probs, const bg_match *match, float *out) {
    return from_probs(probs, NULL, match, 0, out);
}

int bg_cube_from_probs_at(const int8_t *board, const float *probs, const bg_match *match,
                          int ply, float *out) {
    if (!board) return -BG_ERR_BAD_ARG;
    int rc = check_board(board);
    return rc ? rc : from_probs(probs, (const mg_board *)board, match, ply, out);
}

/* The arguments of bg_cubeful_plays and bg_cube_misses: n plays' boards, their terms, the
 * plies of the miss's search, and each play's chances when there are any (probs not NULL).
 * 0, or the first refusal's negative code. */
static int check_plays(const int8_t *afters, int n, const float *probs, const bg_match *match,
                       int ply) {
    if (!afters || n < 0 || ply < 0 || ply > BG_CUBE_MISS_MAX_PLY) return -BG_ERR_BAD_ARG;
    int rc = bg_check_match(match);
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        rc = check_board(afters + (size_t)i * BG_BOARD_LEN);
        if (rc) return rc;
        if (probs && !chances_ok(probs + (size_t)i * BG_N_PROBS)) return -BG_ERR_BAD_ARG;
    }
    return 0;
}

int bg_cubeful_plays(const int8_t *afters, int n, const float *probs, const bg_match *match,
                     int ply, float *out_equity) {
    if (!probs || !out_equity) return -BG_ERR_BAD_ARG;
    int rc = check_plays(afters, n, probs, match, ply);
    if (rc) return rc;
    for (int i = 0; i < n; i++)
        out_equity[i] = cf_after_play((const mg_board *)(afters + (size_t)i * BG_BOARD_LEN),
                                      probs + (size_t)i * BG_N_PROBS, match ? match : &money, ply);
    return n;
}

int bg_cube_misses(const int8_t *afters, int n, const bg_match *match, int ply,
                   float *out_miss) {
    if (!out_miss) return -BG_ERR_BAD_ARG;
    int rc = check_plays(afters, n, NULL, match, ply);
    if (rc) return rc;
    for (int i = 0; i < n; i++)
        out_miss[i] = cf_play_miss((const mg_board *)(afters + (size_t)i * BG_BOARD_LEN),
                                   match ? match : &money, ply);
    return n;
}

int bg_met_table(float *out) {
    if (!out) return -BG_ERR_BAD_ARG;
    for (int i = 1; i <= BG_MET_MAX; i++)
        for (int j = 1; j <= BG_MET_MAX; j++)
            out[(i - 1) * BG_MET_MAX + (j - 1)] = met_equity(i, j, 0);
    return 0;
}

int bg_match_equity(int away_me, int away_opp, int crawford, float *out) {
    if (!out || crawford < 0 || crawford > 2) return -BG_ERR_BAD_ARG;
    out[0] = met_equity(away_me, away_opp, crawford != 0);
    return 0;
}

int bg_match_value(const float *probs, const bg_match *m, float *out) {
    if (!probs || !out || !m || m->match_to == 0 || bg_check_match(m)) return -BG_ERR_BAD_ARG;
    out[0] = met_match_value(probs, m->cube_value, m->away_me, m->away_opp, m->crawford != 0);
    return 0;
}

int bg_bearoff_init(void) {
    bo_init();
    return bo_ready() ? BO_POSITIONS : -BG_ERR_BAD_ARG;
}

int bg_bearoff_dist(const int8_t *home6, float *out_dist) {
    if (!home6 || !out_dist) return -BG_ERR_BAD_ARG;
    int men = 0;
    for (int i = 0; i < BO_POINTS; i++) {
        if (home6[i] < 0 || home6[i] > 15) return -BG_POS_NEGATIVE;
        men += home6[i];
    }
    if (men > 15) return -BG_POS_TOO_MANY_MEN;
    bo_init();
    if (!bo_ready()) return -BG_ERR_BAD_ARG;
    int idx = bo_index(home6);
    memcpy(out_dist, bo_dist(idx), sizeof(float) * BO_MAX_ROLLS);
    return (int)(bo_mean(idx) * 1000.0f + 0.5f);
}
