/* bg.h: the one public header of the C side ("the machine code").
 * Everything between the cffi-cdef markers is also the cffi cdef (native/build.py reads it),
 * so it may hold only #define integer constants, typedefs and prototypes, no other
 * preprocessor lines. Functions take plain arrays and return plain values; Python owns memory.
 *
 * Board layout used everywhere: int8_t board[50] = two rows of 25.
 *   board[0..24]  the side on roll, board[25..49] its opponent;
 *   in each row index 0..23 is that side's own 1..24-point, index 24 is its bar.
 *   Men borne off are 15 minus the men on the row. */
#ifndef SPECTRUM_BG_H
#define SPECTRUM_BG_H
#include <stdint.h>

/* cffi-cdef begin */
#define BG_ABI_VERSION 1
int bg_abi_version(void);

/* ---- rules section (native/src/rules*.c) ---- */
/* Boards are int8_t[BG_BOARD_LEN] in the layout above; steps are BG_STEP_FIELDS bytes each:
 * from (0..23, 24 = bar), to (0..23, -1 = borne off), die (1..6), hit (1 = a blot was hit). */
#define BG_BOARD_LEN 50
#define BG_BAR 24
#define BG_MAX_PLAYS 4096
#define BG_MAX_STEPS 4
#define BG_STEP_FIELDS 4

/* Position checks (bg_validate); as negative numbers they are also the errors of the
 * functions below that take a board. */
#define BG_POS_OK 0
#define BG_POS_NEGATIVE 21       /* a point, bar or row holds a negative count */
#define BG_POS_TOO_MANY_MEN 22   /* one side has more than fifteen men */
#define BG_POS_SHARED_POINT 23   /* both colours stand on the same point */
#define BG_POS_NO_MEN 24         /* neither side has a man left */
#define BG_BAD_DICE 25           /* a die outside 1..6 */
#define BG_NO_ROOM 26            /* the caller's arrays are too small (max_plays) */

/* Typed single steps (bg_step_check): why a step cannot start or continue a legal play. */
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

/* 0 when the board is a possible position, else a BG_POS_* code. */
int bg_validate(const int8_t *board);
/* The standard starting position. */
void bg_start(int8_t *out_board);
/* The same position seen from the other side (rows exchanged); in and out may be one array. */
void bg_swap(const int8_t *board, int8_t *out_board);
/* Pip count of row 0 (out_pips[0]) and row 1 (out_pips[1]). */
void bg_pips(const int8_t *board, int *out_pips);
/* 0 = not over; 1/2/3 = row 0 has borne off all and wins single/gammon/backgammon;
 * -1/-2/-3 = row 1 has. */
int bg_game_result(const int8_t *board);
/* Every legal complete play of the roll, one per distinct resulting position: count (>= 1; a
 * forfeited turn is one play of 0 steps) or a negative BG_POS_* / BG_BAD_DICE / BG_NO_ROOM.
 * out_boards: max_plays * BG_BOARD_LEN (mover still row 0); out_steps: max_plays *
 * BG_MAX_STEPS * BG_STEP_FIELDS, one way of making that play; out_nsteps: max_plays. */
int bg_legal_plays(const int8_t *board, int die1, int die2, int8_t *out_boards,
                   int8_t *out_steps, int8_t *out_nsteps, int max_plays);
/* Can the step (from, die) follow the n_made steps already typed this turn, made[2*i] = from
 * and made[2*i+1] = die, and still be part of a legal complete play of (die1, die2), in any
 * order of the dice? BG_STEP_OK (out_board = the board after all of them) or a BG_STEP_* /
 * negative BG_POS_* reason; out_board is untouched unless BG_STEP_OK. */
int bg_step_check(const int8_t *turn_start, int die1, int die2, const int8_t *made, int n_made,
                  int from, int die, int8_t *out_board);
/* After n_made typed steps (as above): 1 = they form a complete legal play, 0 = more must be
 * played, negative = they are not the start of a legal play (or a bad board/dice). */
int bg_turn_complete(const int8_t *turn_start, int die1, int die2, const int8_t *made,
                     int n_made);
/* Benchmark door: generate plays for n positions (boards n * BG_BOARD_LEN, dice n * 2),
 * `repeats` times over, inside C; returns the plays generated in total. */
int64_t bg_bench_generate(const int8_t *boards, const int8_t *dice, int n, int repeats);


/* ---- evaluator section (native/src/eval*.c) ---- */

/* ---- usr door section (native/src/usr.c) ---- */

/* cffi-cdef end */
#endif
