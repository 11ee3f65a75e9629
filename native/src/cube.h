/* cube.h: doubling-cube decisions from the net's probabilities (money: Janowski-style
 * live/dead cube mix; match: match winning chances from the computed match equity table).
 * Not the probabilities themselves (eval.h, search.h). */
#ifndef SPECTRUM_CUBE_H
#define SPECTRUM_CUBE_H
#include "../bg.h"
#include "eval.h"

#define MET_MAX 25
/* chance to win the match needing away_me against away_opp; crawford_done = 1 once the
 * Crawford game has been played (post-Crawford), 0 before it or during it */
float met_equity(int away_me, int away_opp, int crawford_done);
/* 2*mwc-1 for the side of the probabilities p when the game ends at this cube value (dead
 * cube: each outcome scored from the table); post = 1 when the Crawford game will have been played */
float met_match_value(const float p[NN_OUT], int cube, int away_me, int away_opp, int post);

/* a game at a match score as one side sees it: the points it needs (a) and the opponent needs
 * (b), post = 1 after the Crawford game, and the shares of its wins and of its losses that are
 * gammons (not backgammons) and backgammons */
typedef struct {
    int a, b, post;
    float wg, wbg, lg, lbg;
} met_game;
/* its match winning chance once the game is won / lost at this cube value */
float met_win(const met_game *g, int cube);
float met_lose(const met_game *g, int cube);
/* its match winning chance with a fully live cube at game winning chance p; owner 0 centred,
 * 1 this side, 2 the opponent (cash and take points worked from the table, level by level) */
float met_live(const met_game *g, float p, int cube, int owner);
/* its game winning chance at which the opponent, holding a cube of `cube`, redoubles and it
 * should pass (0 when their redouble can gain nothing) */
float met_opp_cash(const met_game *g, int cube);

typedef struct {
    float nd, dt, dp;   /* no double, double/take, double/pass: money points for the side on
                           roll (cube value included), or 2*mwc-1 in match play */
    int bits;           /* BG_CUBE_* */
} cube_result;

/* The decision at the side on roll's terms m (bg.h's bg_match, checked by the caller), its
 * live cube at the efficiency of a contact position (CUBE_LIVE): the theory without a board. */
void cube_decide(const float p[NN_OUT], const bg_match *m, cube_result *out);
/* The same with the live cube at efficiency x (0: a dead cube, 1: a fully live one). */
void cube_decide_x(const float p[NN_OUT], float x, const bg_match *m, cube_result *out);
/* The same with the no double's live cube at efficiency x and the double/take's at x_dt. */
void cube_decide_x2(const float p[NN_OUT], float x, float x_dt, const bg_match *m,
                    cube_result *out);
/* The formula's decision at board b (side on roll = row 0) with its chances p, at the
 * efficiency cube_efficiency(b); in a small bear-off at a match score, a cube the opponent
 * holds at an efficiency read from the exact money cube (b2_theirs_efficiency). */
void cube_decide_at(const mg_board *b, const float p[NN_OUT], const bg_match *m,
                    cube_result *out);
/* Money play's live cube (Janowski): equity per unit cube at winning chance p, W and L the
 * average values of a win and a loss; owner 0 centred, 1 the side of p, 2 its opponent. */
float cube_money_live(float p, float W, float L, int owner);
/* 1 when the side of m may double now (it does not hold the cube against it, not the
 * Crawford game, the cube below BG_CUBE_FACE_MAX, and a win at the present cube does not
 * already win it the match): the rule of MatchTerms.double_refused, bg_may_double's */
int cube_may_double(const bg_match *m);
/* The side on roll's value before its cube action, where it may double: the double (the
 * taker choosing the lesser of take and pass) when that is worth at least playing on, else
 * no double. The one rule of every search's node (cubeful.c, bearoff2.c, bearoff_match.c). */
static inline float cube_weigh(float nd, float dt, float dp) {
    float answered = dt < dp ? dt : dp;
    return answered >= nd ? answered : nd;
}
/* BG_CUBE_* bits of the three equities at terms m */
int cube_bits(const bg_match *m, float nd, float dt, float dp);
/* The cube's efficiency in a position (side on roll = row 0), by its class as GNU Backgammon
 * sets it: contact and crashed 0.68; a race 0.55 + 0.00125 a pip of the side on roll, within
 * 0.6..0.7; both sides in the bear-off database 0.6; a finished game 0. */
float cube_efficiency(const mg_board *b);

/* The exact money cube of a small two-sided bear-off (bearoff2.c): b2_init builds it once,
 * at weights load (after bo_init); b2_pair is a board's entry in it (both sides 6 men or
 * fewer, all home), or -1; b2_exact says whether an entry judges these terms (an entry, money
 * play, the cube below BG_CUBE_FACE_MAX; or a match and both sides 5 men or fewer, bm_pair);
 * b2_cube fills out from it as cube_decide does and returns 1 when b2_exact holds (and, in a
 * match, its tables could be built), else 0 and out untouched. */
void b2_init(void);
long b2_pair(const mg_board *pos);
int b2_exact(long pair, const bg_match *m);
int b2_cube(long pair, const bg_match *m, cube_result *out);
/* The efficiency of a cube the opponent holds at table entry `pair`, as the exact money cube
 * shows it, into *x (at least 0); 1, or 0 when there is no entry or no live value to measure. */
int b2_theirs_efficiency(long pair, float win, float *x);
/* bearoff2.c's boards for bearoff_match.c: their count, each one's men and pips into men[]
 * and pips[] (room for 1024), 0 before b2_init; and board a's results for roll r (0..20 in
 * the order d1 <= d2) as bearoff2.c's indexes, their count returned. */
int b2_boards(int *men, int *pips);
int b2_kids_of(int a, int roll, const short **kids);

/* The exact match cube of small two-sided bear-offs (bearoff_match.c): bm_init (from b2_init)
 * readies it; bm_pair is bearoff2.c's `pair` in its smaller table (both sides 5 men or fewer),
 * or -1; bm_cube fills out for terms m (a match) as cube_decide does, from that score's
 * tables (built at the first such call, several threads at once allowed), and returns 1, or
 * 0 with out untouched when there is no memory for them. */
void bm_init(void);
long bm_pair(long b2pair);
int bm_cube(long pair, const bg_match *m, cube_result *out);

/* Cubeful equities by search (cubeful.c): the side on roll's no double and double/take at
 * ply 0 (the formula at its position's efficiency), 1, 2 or 3 (each of the 21 rolls answered
 * by the play of the best cubeful equity one ply down, the cube passed on and weighed at
 * every node by the side then on roll). out as cube_decide's; p: the cubeless chances of the
 * same search. m checked by the caller. */
void cf_decide(const mg_board *pos, int ply, const bg_match *m, cube_result *out,
               float p[NN_OUT]);
/* The same with the root's 21 rolls shared among `threads` threads (the caller and helpers
 * it starts, each searching at the calling thread's settings): the same bits as cf_decide,
 * in about 1/threads of the time on as many idle cores. */
void cf_decide_shared(const mg_board *pos, int ply, const bg_match *m, int threads,
                      cube_result *out, float p[NN_OUT]);
/* The cubeful value of a play for its mover at its terms m (row 0 of `after` still the
 * mover's; `mover`: its cubeless chances after the play, from any judgement): the opponent,
 * then on roll, weighs its cube (no double, double/take, double/pass) by the formula at the
 * efficiency of its position; that value turned to the mover's side. With ply 1..3 the
 * opponent's cube is searched that deep (cf_decide) and the formula's miss there (the
 * search's value less the formula's at the search's own chances) is added to the formula's
 * value at `mover`: the cube's timing where one roll decides, which no single efficiency
 * sees, with the chances of the judgement given. Money points (cube included) or 2*mwc-1.
 * m checked by the caller. */
float cf_after_play(const mg_board *after, const float mover[NN_OUT], const bg_match *m,
                    int ply);
/* What cf_after_play adds to the formula's value at ply 1..3: the opponent's miss turned to
 * the mover's side (0 at ply 0, or when the play ends the game). It depends on the position
 * and the terms alone, not on the chances, so a caller may keep it for every judgement of
 * the same play; cf_after_play(.., ply) is, to the bit, cf_after_play(.., 0) plus this in
 * float. m checked by the caller. */
float cf_play_miss(const mg_board *after, const bg_match *m, int ply);
#endif
