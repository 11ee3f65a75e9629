/* movegen.h: the internal C interface of the rules engine, shared by the evaluator, the
 * search and the training tools. Not part of the cffi cdef (that is ../bg.h).
 * Board layout: see bg.h (row 0 = side on roll, row 1 = opponent, index 24 = bar). */
#ifndef SPECTRUM_MOVEGEN_H
#define SPECTRUM_MOVEGEN_H
#include <stdint.h>

#define MG_MAX_PLAYS 4096   /* more than the most distinct plays any position and roll allows */
#define MG_MAX_STEPS 4      /* the most steps (dice) a turn plays: a double's four */
#define MG_BAR 24
#define MG_OFF (-1)

typedef struct { int8_t b[2][25]; } mg_board;

typedef struct {
    int8_t from;   /* 0..23 own point index, 24 = bar */
    int8_t to;     /* 0..23 own point index, -1 = borne off */
    int8_t die;    /* 1..6 */
    int8_t hit;    /* 1 when an opposing blot was sent to the bar */
} mg_step;

typedef struct {
    mg_board after;     /* position after the play, same orientation (mover still row 0) */
    int8_t nsteps;      /* 0 when no play is possible (then there is exactly one "play") */
    mg_step steps[MG_MAX_STEPS];
} mg_play;

/* The play's steps as bg.h's step arrays hold them: MG_MAX_STEPS records of one mg_step's
 * four bytes (from, to, die, hit), those past nsteps zero. */
void mg_put_steps(const mg_play *p, int8_t *out);

/* Every legal complete play of (die1, die2) for the side on roll, deduplicated by resulting
 * position. Returns the count (>= 1: a forfeited turn is one play with nsteps 0). */
int mg_generate(const mg_board *pos, int die1, int die2, mg_play *out);

/* The same board seen from the other side (rows exchanged). */
void mg_swap(const mg_board *in, mg_board *out);

/* 0 = game not over; 1/2/3 = the side in row 0 has borne off all men and wins a
 * single/gammon/backgammon; -1/-2/-3 = the same for row 1. */
int mg_result(const mg_board *pos);

/* pip count of one row. */
int mg_pips(const mg_board *pos, int row);

/* The standard starting position. */
void mg_start(mg_board *out);

/* ---- single steps (added for typed-entry checks; the generator does not need them) ---- */

/* Why one step (a man from `from`, 0..23 or 24 = bar, moved `die` pips) is not legal on its
 * own; the same numbers as BG_STEP_* in bg.h. */
#define MG_STEP_OK 0
#define MG_STEP_BAR_FIRST 2      /* a man is on the bar and this step is not an entry (rule 7) */
#define MG_STEP_NO_MAN 3         /* no man of the mover on that point */
#define MG_STEP_BLOCKED 4        /* it lands on two or more opposing men (rule 5) */
#define MG_STEP_NOT_ALL_HOME 5   /* bearing off with a man still outside or on the bar (rule 8) */
#define MG_STEP_MAN_HIGHER 6     /* bearing off with a larger die while a man stands higher */
#define MG_STEP_BAD_INPUT 10     /* from outside 0..24 or die outside 1..6 */

/* Check one step and, when legal, make it on *pos (hits included) and describe it in *out
 * (out may be NULL). Returns MG_STEP_OK or the reason; *pos is unchanged when not legal. */
int mg_step_apply(mg_board *pos, int from, int die, mg_step *out);

/* The most of these dice (1..4 of them, any order) that can be played in turn from pos. */
int mg_most_steps(const mg_board *pos, const int8_t *dice, int ndice);

#endif
