/* bg.h: the one public header of the C side ("the machine code").
 * Everything between the cffi-cdef markers is also the cffi cdef (native/build.py reads it),
 * so it may hold only #define integer constants, typedefs and prototypes, no other
 * preprocessor lines. Functions take plain arrays and return plain values; Python owns memory.
 *
 * Errors, one convention: every function that can fail returns an int (bg_bench_generate an
 * int64_t), 0 or more on success (0, a count or the bits it documents)
 * and a negative named code on failure: -BG_POS_*, -BG_BAD_DICE, -BG_NO_ROOM, -BG_STEP_* or
 * -BG_ERR_*. Answers that are not a status come back through out pointers. There is no
 * process-global setting: a call that searches takes its settings (a bg_search) with it. The
 * exceptions, each for its reason: functions that cannot fail return void or their value
 * (bg_start, bg_swap, bg_pips, bg_abi_version, bg_weights_games, bg_weights_expected_size,
 * bg_search_defaults, bg_eval_cache_counts, bg_rollout_busy, bg_rollout_stop,
 * bg_rollout_free);
 * bg_game_result's negative values are a result (the opponent won), and it checks nothing
 * (bg_validate first); bg_equity is arithmetic on the caller's numbers; bg_usr returns the
 * status the USR call gives BASIC in BC, so it is the positive code (the usr door section).
 *
 * Board layout used everywhere: int8_t board[50] = two rows of 25.
 *   board[0..24]  the side on roll, board[25..49] its opponent;
 *   in each row index 0..23 is that side's own 1..24-point, index 24 is its bar.
 *   Men borne off are 15 minus the men on the row. */
#ifndef SPECTRUM_BG_H
#define SPECTRUM_BG_H
#include <stdint.h>

/* cffi-cdef begin */
#define BG_ABI_VERSION 3
int bg_abi_version(void);

/* ---- rules section (native/src/rules*.c) ---- */
/* Boards are int8_t[BG_BOARD_LEN] in the layout above; steps are BG_STEP_FIELDS bytes each:
 * from (0..23, 24 = bar), to (0..23, -1 = borne off), die (1..6), hit (1 = a blot was hit). */
#define BG_BOARD_LEN 50
#define BG_BAR 24
#define BG_MAX_PLAYS 4096
#define BG_MAX_STEPS 4
#define BG_STEP_FIELDS 4

/* Position checks (bg_validate): as negative numbers the errors of every function that
 * takes a board. */
#define BG_POS_OK 0
#define BG_POS_NEGATIVE 21       /* a point, bar or row holds a negative count */
#define BG_POS_TOO_MANY_MEN 22   /* one side has more than fifteen men */
#define BG_POS_SHARED_POINT 23   /* both colours stand on the same point */
#define BG_POS_NO_MEN 24         /* neither side has a man left */
#define BG_BAD_DICE 25           /* a die outside 1..6 */
#define BG_NO_ROOM 26            /* the caller's arrays are too small (max_plays) */

/* Typed single steps (bg_step_check): why a step cannot start or continue a legal play, as
 * negative numbers. */
#define BG_STEP_OK 0
#define BG_STEP_NO_SUCH_DIE 1    /* that number was not thrown, or is already used */
#define BG_STEP_BAR_FIRST 2      /* a man on the bar must enter first (rule 7) */
#define BG_STEP_NO_MAN 3         /* none of the mover's men on that point */
#define BG_STEP_BLOCKED 4        /* lands on two or more opposing men (rule 5) */
#define BG_STEP_NOT_ALL_HOME 5   /* bearing off before all fifteen are home (rule 8) */
#define BG_STEP_MAN_HIGHER 6     /* bearing off with a larger die while a man stands higher */
#define BG_STEP_WASTES_DICE 7    /* legal alone, but then fewer dice get played (rule 4) */
#define BG_STEP_HIGHER_DIE 8     /* only one die can be played and it must be the higher */
#define BG_STEP_TURN_OVER 9      /* the play is already complete */
#define BG_STEP_BAD_INPUT 10     /* from outside 0..24, die outside 1..6, or a bad history */

/* 0 when the board is a possible position, else -BG_POS_*. */
int bg_validate(const int8_t *board);
/* The standard starting position. */
void bg_start(int8_t *out_board);
/* The same position seen from the other side (rows exchanged); in and out may be one array. */
void bg_swap(const int8_t *board, int8_t *out_board);
/* Pip count of row 0 (out_pips[0]) and row 1 (out_pips[1]). */
void bg_pips(const int8_t *board, int *out_pips);
/* 0 = not over; 1/2/3 = row 0 has borne off all and wins single/gammon/backgammon;
 * -1/-2/-3 = row 1 has (a result, not an error: the board is not checked). */
int bg_game_result(const int8_t *board);
/* Every legal complete play of the roll, one per distinct resulting position: count (>= 1; a
 * forfeited turn is one play of 0 steps) or a negative BG_POS_* / BG_BAD_DICE / BG_NO_ROOM.
 * out_boards: max_plays * BG_BOARD_LEN (mover still row 0); out_steps: max_plays *
 * BG_MAX_STEPS * BG_STEP_FIELDS, one way of making that play; out_nsteps: max_plays. */
int bg_legal_plays(const int8_t *board, int die1, int die2, int8_t *out_boards,
                   int8_t *out_steps, int8_t *out_nsteps, int max_plays);
/* Can the step (from, die) follow the n_made steps already typed this turn, made[2*i] = from
 * and made[2*i+1] = die, and still be part of a legal complete play of (die1, die2), in any
 * order of the dice? BG_STEP_OK (out_board = the board after all of them) or the reason,
 * -BG_STEP_* or -BG_POS_*; out_board is untouched unless BG_STEP_OK. */
int bg_step_check(const int8_t *turn_start, int die1, int die2, const int8_t *made, int n_made,
                  int from, int die, int8_t *out_board);
/* After n_made typed steps (as above): 1 = they form a complete legal play, 0 = more must be
 * played, negative = they are not the start of a legal play (or a bad board/dice). */
int bg_turn_complete(const int8_t *turn_start, int die1, int die2, const int8_t *made,
                     int n_made);
/* Benchmark door: generate plays for n positions (boards n * BG_BOARD_LEN, dice n * 2),
 * `repeats` times over, inside C; returns the plays generated in total, or -BG_POS_* /
 * -BG_BAD_DICE for a board or dice it refuses (all checked first), -BG_ERR_BAD_ARG. */
int64_t bg_bench_generate(const int8_t *boards, const int8_t *dice, int n, int repeats);


/* ---- evaluator section (native/src/eval*.c) ---- */
/* Probabilities are float[BG_N_PROBS] for the side on roll (row 0): win, win gammon, win
 * backgammon, lose gammon, lose backgammon (each gammon figure includes the backgammons).
 * Errors come back as negative numbers: -BG_POS_* / -BG_BAD_DICE from the rules section, or
 * -BG_ERR_* below. Levels: 1 = the 1983-style heuristic, 2 = net 0-ply with a deliberate
 * small error, 3 = net 0-ply, 4 = net 1-ply, 5 = net filtered 2-ply (3-ply on its closest
 * candidates with a bg_search of plies 3) under work budgets (positions evaluated, never the
 * clock: a level's play depends only on position, dice and the call's settings).
 * Threads: the evaluation, ranking and cube calls may run in several threads at once, each
 * with its own search state and its own settings (the bg_search it was given); only loading
 * the weights must wait until no other call runs. The USR door (bg_usr) belongs to the
 * emulated machine's one thread and searches at the defaults. */
#define BG_N_PROBS 5
#define BG_LEVEL_MIN 1
#define BG_LEVEL_MAX 5
#define BG_ERR_WTS_SIZE 101      /* weights file of the wrong length (truncated or padded) */
#define BG_ERR_WTS_MAGIC 102     /* not a weights file of this program */
#define BG_ERR_WTS_VERSION 103   /* weights of another format version or net shape */
#define BG_ERR_WTS_CHECKSUM 104  /* contents damaged (checksum or non-finite weights) */
#define BG_ERR_NO_WEIGHTS 105    /* a net level was asked for before bg_load_weights */
#define BG_ERR_BAD_LEVEL 106     /* level outside BG_LEVEL_MIN..BG_LEVEL_MAX */
#define BG_ERR_BAD_ARG 107       /* another argument out of range (ply, sizes, cube, score) */
#define BG_ERR_GAME_OVER 108     /* the position is already decided */
#define BG_ERR_BAD_CUBE 111      /* an impossible cube: a value not 1, 2, 4 .. BG_CUBE_MAX, an
                                    owner not 0..2, or a turned cube in the Crawford game */
#define BG_ERR_BAD_SCORE 112     /* an impossible score: a match past BG_MET_MAX, a side's
                                    points needed outside 1..the length, a Crawford state
                                    outside 0..2 or with neither side 1-away */
/* Cube decision bits (bg_cube_decision) */
#define BG_CUBE_DOUBLE 1         /* the side on roll should double */
#define BG_CUBE_TAKE 2           /* the opponent should take a double */
#define BG_CUBE_TOO_GOOD 4       /* too good to double: play on for the gammon */
#define BG_CUBE_OUT_LEN 6        /* out: probs[0..4] as above ... see bg_cube_decision */
#define BG_MET_MAX 25            /* longest match the match equity table covers */
#define BG_CUBE_MAX 4096         /* the highest cube value the engine takes ... */
#define BG_CUBE_MAX_LOG2 12      /* ... which is 2 to this power */
#define BG_CUBE_FACE_MAX 64      /* the cube's highest face: a cube at it cannot be turned */
#define BG_ERR_BAD_SEARCH 113    /* search settings out of range (bg_check_search) */
#define BG_BUDGET_MIN 1000       /* the work and deep budgets' range, positions */
#define BG_BUDGET_MAX 100000000
#define BG_SEARCH_TRIALS_MAX 3600   /* level 5's rollout trials per candidate, at most */
#define BG_SEARCH_HORIZON_MAX 50    /* ... and their horizon, plies */
#define BG_SEARCH_THREADS_MAX 2     /* threads a search's root may share its rolls among */

/* The cube and the score as ONE side sees them (the side on roll, or a ranked play's mover),
 * the one shape of the match terms: every function that needs them takes `const bg_match *`,
 * NULL meaning money play at a centred cube of 1. */
typedef struct bg_match {
    int cube_value;   /* 1, 2, 4 .. BG_CUBE_MAX */
    int cube_owner;   /* 0 centred, 1 this side, 2 its opponent */
    int match_to;     /* 0 = money play, else the match length 1..BG_MET_MAX */
    int away_me;      /* match play: the points this side still needs, 1..match_to */
    int away_opp;     /* ... and the points its opponent still needs, 1..match_to */
    int crawford;     /* 0 before the Crawford game, 1 in it (cube 1), 2 after it; 1 and 2
                         need a side 1-away */
} bg_match;
/* 0 when the terms are acceptable (NULL: money play), else -BG_ERR_BAD_CUBE or
 * -BG_ERR_BAD_SCORE (every function taking terms returns these for terms refused here, unless
 * it says otherwise). Money play (match_to 0) looks only at the cube value and owner. */
int bg_check_match(const bg_match *match);
/* Whether the side of these terms may turn the cube before its throw: 1 yes, 0 no (the
 * Crawford game; the opponent's cube; a cube at BG_CUBE_FACE_MAX; a dead cube: in a match, a
 * win at the cube's present value already wins it), or the code of bg_check_match. The one
 * rule of the cube search and the cube bits, the same as game/model/match_terms.py's
 * MatchTerms.double_refused. NULL: money play at a centred cube of 1 (1). */
int bg_may_double(const bg_match *match);

/* The search's settings for ONE call (as gnubg's evalcontext): every function that searches
 * takes `const bg_search *`, NULL meaning the defaults (bg_search_defaults). They shape only
 * levels 4 and 5 and the cache; a level's play depends on position, dice and these alone. */
typedef struct bg_search {
    int plies;          /* level 5's deepest ply: 2 (the default: filtered 2-ply) or 3 (then
                           its closest 2-ply candidates, at most 3 within 0.04 of the leader,
                           are judged one roll deeper when two of them fit in the deep budget
                           by estimate; bench/strength.py's level5p3; and its cube
                           decision is a 3-ply cubeful search, bg_cube_decision) */
    int work_budget;    /* level 5 starts no further 2-ply candidate once the ranking has
                           evaluated this many positions, BG_BUDGET_MIN..BG_BUDGET_MAX
                           (default 300,000) */
    int deep_budget;    /* the most positions a ranking with its 3-ply pass may evaluate, by
                           the pass's own estimate, BG_BUDGET_MIN..BG_BUDGET_MAX (800,000) */
    int roll_trials;    /* level 5's rollouts: 0 (the default) none; else 1..
                           BG_SEARCH_TRIALS_MAX trials for each of its closest candidates (at
                           most 3 within 0.06 of the leader at the deepest ply judged), on the
                           same dice (drawn from the position and roll), the luck of every roll
                           taken out; those then rank first, by the rollouts' values, at
                           depth 4 */
    int roll_horizon;   /* ... each of 1..BG_SEARCH_HORIZON_MAX plies (default 4) */
    int cache;          /* 1 (the default): the calling thread's cache of 0-ply judgements
                           (freed when the thread ends) serves the call; 0: not. Plays, values
                           and work are the same bits either way, only the time differs */
    int threads;        /* 1 (the default): a cube decision (bg_cube_decision) or a play's
                           judgement of 2 or 3 plies (bg_judge_plays) is searched in the
                           calling thread alone; up to BG_SEARCH_THREADS_MAX: the root's 21
                           rolls are shared with threads - 1 helpers it starts and joins
                           (each with its own cache). The same bits either way, only the time
                           differs (the tutor's 3-ply checks on two idle cores) */
} bg_search;
/* The defaults into *out. */
void bg_search_defaults(bg_search *out);
/* 0 when the settings are acceptable (NULL: the defaults), else -BG_ERR_BAD_SEARCH (every
 * function taking settings returns it for settings refused here). */
int bg_check_search(const bg_search *search);

/* Load the weights file image (bytes, len): 0 or -BG_ERR_WTS_*. */
int bg_load_weights(const uint8_t *data, int len);
/* Self-play games the loaded weights were trained on (0 when none are loaded). */
int bg_weights_games(void);
/* Length in bytes of a weights file of the shape this build expects. */
int bg_weights_expected_size(void);
/* Evaluate at ply 0 to BG_JUDGE_MAX_PLY (cubeless, side on roll; 3 as level 5's 3-ply pass
 * judges, each reply re-judged alone) with the settings `search` (its cache switch): 0 or a
 * negative error. */
int bg_evaluate(const int8_t *board, int ply, const bg_search *search, float *out_probs);
/* 0-ply evaluation of n boards (n * BG_BOARD_LEN) into n * BG_N_PROBS; n or an error. */
int bg_evaluate_many(const int8_t *boards, int n, float *out_probs);
/* Cubeless money equity of probabilities (points per game for the side on roll): arithmetic
 * on the caller's numbers, no status (NULL gives 0). */
float bg_equity(const float *probs);
/* A play's depth when it was rolled out (bg_play's ply; the review's rollout check too). */
#define BG_PLY_ROLLED_OUT 4
/* One ranked play, filled by bg_rank_plays: the resulting board (mover still row 0), one way
 * of making it (nsteps steps of BG_STEP_FIELDS bytes), the depth it was judged at (0, 1, 2 or
 * 3 plies, BG_PLY_ROLLED_OUT rolled out; level 1's heuristic: -1; deeper judgements rank first, so a later
 * play may show a higher shallower value), the mover's equity after it as the level judged it
 * (cubeless, or 2*mwc-1 in match play; level 1 gives its heuristic score) and the mover's
 * probabilities after it from that very judgement (as bg_evaluate's: the net's outputs
 * averaged through the search at that depth, a rollout's mean; level 1: zeros). */
typedef struct bg_play {
    int8_t board[BG_BOARD_LEN];
    int8_t steps[BG_MAX_STEPS * BG_STEP_FIELDS];
    int8_t nsteps;
    int8_t ply;
    float equity;
    float probs[BG_N_PROBS];
} bg_play;
/* A ranking's answer: the caller gives `plays` (room for max_plays, 1 or more); the call
 * fills the best first, and `legal` (the plays of the roll, which may exceed max_plays) and
 * `work` (the positions it evaluated at 0-ply, each cache hit counted). */
typedef struct bg_ranking {
    bg_play *plays;     /* in: the caller's array */
    int max_plays;      /* in: its room */
    int legal;          /* out */
    int work;           /* out */
} bg_ranking;
/* Every legal play of the roll ranked best first by the given level, with the settings
 * `search` (NULL: the defaults), into out->plays (the best out->max_plays when there are
 * more): the count returned, or a negative error.
 * match: the mover's terms; NULL or match_to 0 is money play (cubeless equity). In match
 * play the plays are ranked by the mover's match winning chance after the play from the
 * match equity table (each outcome single/gammon/backgammon at the cube value, dead cube)
 * and equity is 2*mwc-1; level 1 keeps its heuristic. Terms and settings refused: the code
 * bg_check_match or bg_check_search gives. */
int bg_rank_plays(const int8_t *board, int die1, int die2, int level, const bg_match *match,
                  const bg_search *search, bg_ranking *out);
/* The plays reaching n boards `afters` (n * BG_BOARD_LEN, each the result of a play, its mover
 * still row 0; a finished game is allowed) judged at `ply` 0..BG_JUDGE_MAX_PLY as a ranking
 * judges a candidate at that depth (3: as level 5's 3-ply pass, never given up; no budget),
 * at the mover's terms `match` as bg_rank_plays scores them, with the settings `search` (its
 * cache switch; NULL the defaults): out_probs n * BG_N_PROBS (the mover's chances),
 * out_equity n (cubeless equity, or 2*mwc-1). The review checks an error with it
 * (game/analysis/checking.py). n, or a negative BG_POS_* / BG_ERR_* code. */
#define BG_JUDGE_MAX_PLY 3
int bg_judge_plays(const int8_t *afters, int n, int ply, const bg_match *match,
                   const bg_search *search, float *out_probs, float *out_equity);
/* The cubeful value of each of n plays for its mover at its terms `match` (NULL: money, a
 * centred cube of 1), as GNU Backgammon values a play with the cube in play: `afters` as
 * bg_judge_plays takes them, `probs` n * BG_N_PROBS the mover's cubeless chances after each
 * (from any judgement: bg_judge_plays, a ranking, a rollout); the opponent, then on roll,
 * weighs its cube by the live/dead cube formula at its position's efficiency
 * (bg_cube_decision's levels 1-3), and that value is turned to the mover's side. With `ply`
 * 1 or 2 the opponent's cube is also searched that deep (as bg_cube_decision's levels 4 and
 * 5) and the formula's miss there, the search's value less the formula's at the search's own
 * chances, is added: where one roll decides (a last shot, a blitz), the owner's cube is worth
 * what the rolls make of it, not what one efficiency says. 0: the formula alone. out_equity
 * n: money points with the cube value included, or 2*mwc-1. n, or a negative code (chances
 * as bg_cube_from_probs refuses them, or ply outside 0..BG_CUBE_MISS_MAX_PLY:
 * -BG_ERR_BAD_ARG). */
#define BG_CUBE_MISS_MAX_PLY 2   /* the deepest search of the formula's miss (a play's cube,
                                    bg_cubeful_plays; a decision, bg_cube_from_probs_at) */
int bg_cubeful_plays(const int8_t *afters, int n, const float *probs, const bg_match *match,
                     int ply, float *out_equity);
/* bg_cubeful_plays' miss alone: for each of n plays (`afters` as there) at the mover's terms
 * `match` (NULL: money, a centred cube of 1), what its `ply` (0..BG_CUBE_MISS_MAX_PLY) adds
 * to the formula's value, in its units; 0 at ply 0 or where the play ends the game. It
 * depends on the play and the terms, not on any chances, so a caller judging one play
 * several ways searches it once: bg_cubeful_plays at `ply` is, to the bit, its value at 0
 * plus this, added in float. n, or a negative code (a bad board or match, ply out of range:
 * -BG_ERR_BAD_ARG). */
int bg_cube_misses(const int8_t *afters, int n, const bg_match *match, int ply,
                   float *out_miss);
/* Each thread's cache of 0-ply judgements is direct-mapped, 2^BG_EVAL_CACHE_BITS slots (two
 * boards of one slot take turns in it). The calling thread's lookups (looks[0]) and hits
 * (hits[0]) so far. */
#define BG_EVAL_CACHE_BITS 17
void bg_eval_cache_counts(double *looks, double *hits);
/* Test hook of the network's forward pass (native/src/nn.c): allow 0 makes it take its
 * generic path even where the CPU has AVX2, 1 (the default) lets it take its AVX2 path
 * there. Both paths give the same bits. Returns 1 when the AVX2 path is now in use, else 0
 * (a CPU or build without it); another value: -BG_ERR_BAD_ARG, unchanged. */
int bg_nn_avx2(int allow);
/* Cube decision for the side on roll (before it rolls) at its terms `match` (NULL: money
 * play, centred cube of 1; the Crawford game allows no double), with the settings `search`
 * (its cache switch, and for level 5 its plies; NULL: the defaults).
 * out[BG_CUBE_OUT_LEN]: equity no double, equity double/take, equity double/pass (all for
 * the side on roll, in money points or in match winning chance as 2*mwc-1), then
 * P(win), P(win gammon), P(lose gammon) used. Returns the BG_CUBE_* bits or an error.
 * The equities are cubeful (native/src/cubeful.c): levels 1-3 the live/dead cube formula at
 * the position's cube efficiency (by its class), level 4 a 1-ply and level 5 a 2-ply cubeful
 * search, or 3-ply when search->plies is 3 (each roll answered by its best cubeful play, the
 * play search's filter re-judging a close second; the cube weighed at every node; the
 * review's check, 13 to 32 times a 2-ply decision's CPU: bench/cube_plies.py). A cube
 * decision is a function of the position, the terms and the plies alone. */
int bg_cube_decision(const int8_t *board, int level, const bg_match *match,
                     const bg_search *search, float *out);
/* The same decision from given probabilities (P(win), P(win gammon), P(win backgammon),
 * P(lose gammon), P(lose backgammon) for the side on roll), without a position: the cube
 * theory on its own. Probabilities out of 0..1 or inconsistent (a gammon share above the
 * wins, backgammons above gammons): -BG_ERR_BAD_ARG. */
int bg_cube_from_probs(const float *probs, const bg_match *match, float *out);
/* The same from given probabilities for the side on roll in `board`, at that position's cube
 * efficiency (by its class, as levels 1-3 weigh their own chances): e.g. a rollout's mean
 * chances judged as the position's own. With `ply` 1 or 2 the position's cube is also
 * searched that deep (as bg_cube_decision's levels 4 and 5) and the formula's miss there, the
 * search's no double and double/take less the formula's at the search's own chances, is
 * added to the formula's at `probs`: the timing of the cube that one efficiency cannot see,
 * with the chances given. 0: the formula alone. A bad board or terms: its negative code;
 * chances as bg_cube_from_probs refuses them, or ply outside 0..BG_CUBE_MISS_MAX_PLY:
 * -BG_ERR_BAD_ARG. */
int bg_cube_from_probs_at(const int8_t *board, const float *probs, const bg_match *match,
                          int ply, float *out);
/* The match equity table our code computes: out[(i-1)*BG_MET_MAX + (j-1)] = chance to win
 * the match for a player needing i points against one needing j (i, j in 1..BG_MET_MAX),
 * before the Crawford game. Returns 0. */
int bg_met_table(float *out);
/* One entry of that table at any score, into out[0] (a score, not a bg_match: a side 0 or
 * less away has won): the chance to win the match for a player needing away_me against one
 * needing away_opp, crawford as bg_match's (not 0: the Crawford game is this one or past, so
 * a 1-away score is read from the post-Crawford table). For the review's equivalent money
 * game. 0, or -BG_ERR_BAD_ARG for crawford outside 0..2. */
int bg_match_equity(int away_me, int away_opp, int crawford, float *out);
/* 2*mwc-1 into out[0] of the side holding `probs` (as bg_cube_from_probs) at its terms
 * `match` when the game ends at that cube value with no more doubling: the score a play is
 * ranked by in match play. 0, or -BG_ERR_BAD_ARG for money play or terms bg_check_match
 * refuses. */
int bg_match_value(const float *probs, const bg_match *match, float *out);
/* Build the one-sided bear-off database now (otherwise at first use); returns positions. */
int bg_bearoff_init(void);
/* Distribution of rolls to bear off a home board (home6 = men on points 1..6): fills
 * out_dist[32], returns the expected rolls * 1000, or an error. */
int bg_bearoff_dist(const int8_t *home6, float *out_dist);

/* ---- python face section (native/src/pyface.c) ---- */
/* What game/model/rules.py and game/model/evaluator.py need to answer in one or two calls
 * without a Python object per candidate: gnubg position IDs read and written in C. */
#define BG_ID_LEN 14             /* characters of a gnubg position ID */
#define BG_ERR_BAD_ID 109        /* not a position ID of a possible position */
/* The board (side on roll = row 0) of a position ID: its first BG_ID_LEN characters (a NUL
 * before them is an error); 0, or -BG_ERR_BAD_ID for anything but the ID of a possible
 * position (then out_board is untouched). Python words the reason (game/model/position.py). */
int bg_board_from_id(const char *id, int8_t *out_board);
/* The position IDs of n boards (n * BG_BOARD_LEN, side on roll = row 0), each followed by
 * one space: out_text gets n * (BG_ID_LEN + 1) characters, no NUL. Returns n. */
int bg_ids_of_boards(const int8_t *boards, int n, char *out_text);
/* Every position a legal play of the roll reaches from the position of `id` (as in
 * bg_board_from_id), as IDs in the form of bg_ids_of_boards: the count (as bg_legal_plays),
 * -BG_ERR_BAD_ID, -BG_BAD_DICE, or -BG_NO_ROOM when more than max_ids. */
int bg_legal_result_ids(const char *id, int die1, int die2, char *out_text, int max_ids);
/* The same IDs as one NUL-terminated text in the calling thread's own buffer (valid until
 * its next call), so the caller passes none: *out_text points at it. The count, or an error
 * as bg_legal_result_ids' (then *out_text is NULL). */
int bg_legal_result_text(const char *id, int die1, int die2, const char **out_text);

/* ---- rollout section (native/src/rollout.c) ---- */
/* Rollouts on threads of their own. bg_rollout_start copies the boards, starts `threads`
 * threads and returns at once; the caller polls, may stop it, and must free it. Every trial
 * plays the game to its end (or `truncate` half-moves, then the 0-ply net judges), each side
 * choosing at the level (3: 0-ply, 4: 1-ply, 5: filtered 2-ply; money play, or at a match
 * score by its match winning chance), and counts the result
 * less the luck of every roll (the value of the roll's best 0-ply play, judged at 0-ply,
 * or at 1-ply for level 5, less its mean over the 21 rolls). Trial t meets the same dice for
 * every candidate (unless BG_ROLLOUT_APART); any 36 trials from a multiple of 36 meet each
 * first and each second roll once, any 1,296 from a multiple of 1,296 every pair of them. The
 * answer after n trials is that of trials 0..n-1 in order: the same bits for a seed whatever
 * the threads, whether it ran to the end or was stopped. A rollout's threads are searches
 * running (see the evaluator section) until bg_rollout_busy says 0.
 * Kinds: BG_ROLLOUT_PLAYS: boards are the results of candidate plays (mover still row 0;
 * a finished game is allowed), figures for the mover; BG_ROLLOUT_CUBE: one board, the side on
 * roll before its roll, figures for it. Figures: BG_ROLLOUT_FIGURES per candidate, the five
 * chances of BG_N_PROBS (means kept within 0..1) then the equity: cubeless money points, or
 * with a match 2*mwc-1 at the score after each trial's result (single, gammon, backgammon
 * times the cube, by the match table; the luck taken out in the same units). */
#define BG_ROLLOUT_PLAYS 0
#define BG_ROLLOUT_CUBE 1
#define BG_ROLLOUT_APART 2        /* or'd with PLAYS: each candidate its own dice (to measure) */
#define BG_ROLLOUT_NO_LUCK 4      /* or'd with either: the luck left in (to measure) */
#define BG_ROLLOUT_MAX_CANDS 5
#define BG_ROLLOUT_MAX_TRIALS 46656
#define BG_ROLLOUT_MAX_TRUNCATE 1000
#define BG_ROLLOUT_MAX_THREADS 64
#define BG_ROLLOUT_LEVEL_MIN 3
#define BG_ROLLOUT_FIGURES 6
#define BG_ROLLOUT_EQUITY 5       /* the figure that is the equity */
#define BG_ERR_RESOURCES 110      /* no memory or no thread could be had for the work */
typedef struct bg_rollout bg_rollout;
/* What a rollout does (bg_rollout_start copies it). */
typedef struct bg_rollout_plan {
    int kind;           /* BG_ROLLOUT_PLAYS or BG_ROLLOUT_CUBE, with the flags above or'd */
    int trials;         /* 1..BG_ROLLOUT_MAX_TRIALS */
    int level;          /* BG_ROLLOUT_LEVEL_MIN..BG_LEVEL_MAX, both sides' */
    int truncate;       /* 0 (none) ..BG_ROLLOUT_MAX_TRUNCATE half-moves */
    int threads;        /* 1..BG_ROLLOUT_MAX_THREADS */
    uint64_t seed;      /* the dice's */
} bg_rollout_plan;
/* n_boards 1..BG_ROLLOUT_MAX_CANDS boards (1 for CUBE), the plan as above. match: a PLAYS
 * rollout's terms, the candidates' mover's (the cube value of the game, a dead cube); NULL
 * or match_to 0 is money play. A CUBE rollout's games are money play (NULL or money;
 * bg_rollout_cube takes its terms). search: the settings every choice of the players is
 * searched with (NULL: the defaults; copied). 0 with the handle in *out_rollout, or a
 * negative BG_POS_* / BG_ERR_* code (-BG_ERR_BAD_ARG for a plan out of range or terms
 * bg_check_match refuses, -BG_ERR_BAD_SEARCH for settings bg_check_search refuses) with
 * *out_rollout NULL. */
int bg_rollout_start(const int8_t *boards, int n_boards, const bg_rollout_plan *plan,
                     const bg_match *match, const bg_search *search, bg_rollout **out_rollout);
/* The answer so far, without waiting: out_mean and out_se (n_boards * BG_ROLLOUT_FIGURES
 * each) get each figure's mean and standard error (NaN before 1, resp. 2, trials); returns
 * the trials done. */
int bg_rollout_poll(bg_rollout *ro, double *out_mean, double *out_se);
/* Candidate a's equity less candidate b's over the same trials: out[0] the mean difference,
 * out[1] its standard error (from the trials' own differences); returns the trials done. */
int bg_rollout_diff(bg_rollout *ro, int a, int b, double *out);
/* CUBE rollouts: the cube decision (as bg_cube_from_probs, out[BG_CUBE_OUT_LEN]) from the
 * chances rolled out so far, and in out_se[3] the standard errors of its three equities (no
 * double, double/take, double/pass; by the chances' covariance). Returns the BG_CUBE_* bits,
 * or -BG_ERR_BAD_ARG (no trial done yet, another kind, or terms bg_check_match refuses). */
int bg_rollout_cube(bg_rollout *ro, const bg_match *match, float *out, double *out_se);
/* 1 while any of its threads still runs (a finished or stopped rollout: 0). */
int bg_rollout_busy(bg_rollout *ro);
/* Asks the threads to stop (each leaves its trial unfinished and uncounted); returns at once. */
void bg_rollout_stop(bg_rollout *ro);
/* Stops it, waits for its threads and frees it (NULL: nothing). */
void bg_rollout_free(bg_rollout *ro);

/* ---- usr door section (native/src/usr.c) ---- */
/* The program POKEs a request block into the machine's RAM at PARAMS and calls USR; the trap
 * calls bg_usr(memory, PARAMS), which writes the answer into the same block and returns the
 * status (0 = done, else a BG_POS_* / BG_BAD_DICE / BG_ERR_* code, positive: the header's one
 * exception, as it is the USR value BASIC gets in BC, an unsigned number).
 * All offsets are from PARAMS; the block never exceeds BG_USR_BLOCK_LEN bytes. Signed bytes
 * (board counts, a step's `to` = -1 for borne off) are two's complement; 16-bit values are
 * little-endian; equities are signed 16-bit thousandths of a point (of 2*mwc-1 in match
 * play, BG_USR_EQUITY_SCALE); probabilities are unsigned 16-bit ten-thousandths
 * (BG_USR_PROB_SCALE). A cube value travels as its log2, at most BG_CUBE_MAX_LOG2.
 *
 * Request:
 *   +0 job (BG_USR_JOB_*)   +1 level 1..5   +2 die1   +3 die2
 *   +6..+55  the position, 50 signed bytes in the board layout (side on roll = row 0)
 *   +56..+61 the side on roll's terms (a bg_match) for every job that needs them:
 *   +56 cube value, log2 (0 = 1, 1 = 2, ...)   +57 cube owner (0 centred, 1 on roll, 2 other)
 *   +58 match length (0 = money)   +59 points the side on roll still needs
 *   +60 points the opponent still needs   +61 Crawford state (0 before, 1 this game, 2 after)
 *   BEST/RANK rank by them as bg_rank_plays does (cubeless equity in money play, else by
 *   match winning chance at that cube value, equities 2*mwc-1); CUBE decides at them; bad
 *   terms give BG_ERR_BAD_CUBE or BG_ERR_BAD_SCORE (as bg_check_match).
 *   +62 most candidates wanted (RANK; at most BG_USR_MAX_CANDS)
 * Answer:
 *   +4 status (as returned)   +5 count (plays returned by BEST/RANK; plays legal is +63)
 *   +63 number of legal plays of the roll (capped at 255)
 *   BEST:  +64..+113 the position after the chosen play (mover still row 0);
 *          +114 number of steps; +115.. steps, 4 bytes each: from, to, die, hit (BG_STEP_FIELDS)
 *          +131..+132 the equity the level gave it
 *   RANK:  BG_USR_CAND_LEN-byte entries from +BG_USR_CANDS, best first: +0 steps, +1..+16
 *          steps as in BEST, +17..+18 equity; count at +5
 *   CUBE:  +64 BG_CUBE_* bits; +66 equity no double, +68 double/take, +70 double/pass;
 *          +72 P(win), +74 P(win gammon), +76 P(lose gammon) (BG_USR_CUBE_*)
 *   EVAL:  +64.. five probabilities (as BG_N_PROBS) at 2-byte steps, +74 equity; the ply is
 *          the level's (levels 1-3: 0, 4: 1, 5: 2)
 *   PING:  +64 1 when weights are loaded; returns BG_ABI_VERSION */
#define BG_USR_BLOCK_LEN 512
#define BG_USR_MEMORY_LEN 65536   /* the memory bg_usr is given: the machine's 64 KiB */
#define BG_USR_EQUITY_SCALE 1000  /* an equity in the block: its value times this, rounded */
#define BG_USR_PROB_SCALE 10000   /* a probability in the block: its value times this */
#define BG_USR_JOB_PING 0
#define BG_USR_JOB_BEST 1
#define BG_USR_JOB_RANK 2
#define BG_USR_JOB_CUBE 3
#define BG_USR_JOB_EVAL 4
#define BG_USR_JOB 0
#define BG_USR_LEVEL 1
#define BG_USR_DIE1 2
#define BG_USR_DIE2 3
#define BG_USR_STATUS 4
#define BG_USR_COUNT 5
#define BG_USR_BOARD 6
#define BG_USR_CUBE_LOG2 56
#define BG_USR_CUBE_OWNER 57
#define BG_USR_MATCH_TO 58
#define BG_USR_AWAY_ME 59
#define BG_USR_AWAY_OPP 60
#define BG_USR_CRAWFORD 61
#define BG_USR_WANT 62
#define BG_USR_NLEGAL 63
#define BG_USR_OUT 64
#define BG_USR_BEST_NSTEPS 114
#define BG_USR_BEST_STEPS 115
#define BG_USR_BEST_EQUITY 131
#define BG_USR_CUBE_NO_DOUBLE 66
#define BG_USR_CUBE_DOUBLE_TAKE 68
#define BG_USR_CUBE_DOUBLE_PASS 70
#define BG_USR_CUBE_WIN 72
#define BG_USR_CUBE_WIN_GAMMON 74
#define BG_USR_CUBE_LOSE_GAMMON 76
#define BG_USR_EVAL_EQUITY 74
#define BG_USR_CANDS 134
#define BG_USR_CAND_LEN 19
#define BG_USR_CAND_STEPS 1       /* a candidate's steps; its step count is at +0 */
#define BG_USR_CAND_EQUITY 17
#define BG_USR_MAX_CANDS 19
#define BG_ERR_USR_ADDR 120      /* the block would run past the end of memory */
#define BG_ERR_USR_JOB 121       /* unknown job code */
/* memory: the machine's BG_USR_MEMORY_LEN bytes; params_addr: PARAMS. Returns the status
 * (also at +4). */
int bg_usr(uint8_t *memory, int params_addr);

/* cffi-cdef end */
#endif
