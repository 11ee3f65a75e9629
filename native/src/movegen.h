/* movegen.h: the internal C interface of the rules engine, shared by the evaluator, the
 * search and the training tools. Not part of the cffi cdef (that is ../bg.h).
 * Board layout: see bg.h (row 0 = side on roll, row 1 = opponent, index 24 = bar). */
#ifndef SPECTRUM_MOVEGEN_H
#define SPECTRUM_MOVEGEN_H
#include <stdint.h>

#define MG_MAX_PLAYS 4096   /* more than the most distinct plays any position and roll allows */
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
    mg_step steps[4];
} mg_play;

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

#endif
