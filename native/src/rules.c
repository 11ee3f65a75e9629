/* rules.c: the public cffi face of the rules engine (the rules section of bg.h): validation,
 * legal plays into caller-owned arrays, typed-step checks, results, pips, a benchmark door.
 * Not the generator itself (movegen.c) and not the evaluator. */
#include <string.h>
#include "bg.h"
#include "movegen.h"

_Static_assert(sizeof(mg_board) == BG_BOARD_LEN, "bg.h board layout is mg_board");
_Static_assert(MG_BAR == BG_BAR && MG_MAX_PLAYS == BG_MAX_PLAYS, "bg.h and movegen.h agree");
_Static_assert(MG_MAX_STEPS == BG_MAX_STEPS && sizeof(mg_step) == BG_STEP_FIELDS,
               "a play's steps are bg.h's step records (mg_put_steps)");
_Static_assert(MG_STEP_BAR_FIRST == BG_STEP_BAR_FIRST && MG_STEP_NO_MAN == BG_STEP_NO_MAN &&
               MG_STEP_BLOCKED == BG_STEP_BLOCKED && MG_STEP_NOT_ALL_HOME == BG_STEP_NOT_ALL_HOME &&
               MG_STEP_MAN_HIGHER == BG_STEP_MAN_HIGHER && MG_STEP_BAD_INPUT == BG_STEP_BAD_INPUT,
               "step codes agree");

static _Thread_local mg_play play_buf[MG_MAX_PLAYS];

static const mg_board *as_board(const int8_t *board) { return (const mg_board *)board; }

int bg_validate(const int8_t *board)
{
    int men[2] = {0, 0};
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 25; i++) {
            int n = board[r * 25 + i];
            if (n < 0)
                return -BG_POS_NEGATIVE;
            men[r] += n;
        }
    if (men[0] > 15 || men[1] > 15)
        return -BG_POS_TOO_MANY_MEN;
    for (int i = 0; i < 24; i++)
        if (board[i] && board[25 + 23 - i])
            return -BG_POS_SHARED_POINT;
    if (men[0] == 0 && men[1] == 0)
        return -BG_POS_NO_MEN;
    return BG_POS_OK;
}

void bg_start(int8_t *out_board) { mg_start((mg_board *)out_board); }

void bg_swap(const int8_t *board, int8_t *out_board)
{
    mg_swap(as_board(board), (mg_board *)out_board);
}

void bg_pips(const int8_t *board, int *out_pips)
{
    out_pips[0] = mg_pips(as_board(board), 0);
    out_pips[1] = mg_pips(as_board(board), 1);
}

int bg_game_result(const int8_t *board) { return mg_result(as_board(board)); }

static int dice_ok(int die1, int die2)
{
    return die1 >= 1 && die1 <= 6 && die2 >= 1 && die2 <= 6;
}

int bg_legal_plays(const int8_t *board, int die1, int die2, int8_t *out_boards,
                   int8_t *out_steps, int8_t *out_nsteps, int max_plays)
{
    int bad = bg_validate(board);
    if (bad)
        return bad;
    if (!dice_ok(die1, die2))
        return -BG_BAD_DICE;
    int n = mg_generate(as_board(board), die1, die2, play_buf);
    if (n > max_plays)
        return -BG_NO_ROOM;
    for (int i = 0; i < n; i++) {
        const mg_play *p = &play_buf[i];
        memcpy(out_boards + (size_t)i * BG_BOARD_LEN, &p->after, BG_BOARD_LEN);
        out_nsteps[i] = p->nsteps;
        mg_put_steps(p, out_steps + (size_t)i * BG_MAX_STEPS * BG_STEP_FIELDS);
    }
    return n;
}

/* The turn's dice as a list (2, or 4 for doubles). */
static int roll_dice(int die1, int die2, int8_t *dice)
{
    dice[0] = (int8_t)die1; dice[1] = (int8_t)die2;
    if (die1 != die2)
        return 2;
    dice[2] = dice[3] = (int8_t)die1;
    return 4;
}

/* Take `die` out of the unused dice; 0 when it is not among them. */
static int use_die(int8_t *dice, int *ndice, int die)
{
    for (int i = 0; i < *ndice; i++)
        if (dice[i] == die) {
            dice[i] = dice[--*ndice];
            return 1;
        }
    return 0;
}

/* Make one more step of the turn and check that a legal complete play can still follow.
 * `needed` is the number of dice a complete play of this roll uses. BG_STEP_OK (0), or the
 * reason as bg.h gives it, -BG_STEP_*: every code in this file is negative, as at the door. */
static int next_step(mg_board *cur, int8_t *dice, int *ndice, int done, int needed,
                     int die1, int die2, const mg_board *start, int from, int die)
{
    if (done >= needed)
        return -BG_STEP_TURN_OVER;
    if (die < 1 || die > 6 || from < 0 || from > BG_BAR)
        return -BG_STEP_BAD_INPUT;
    int8_t rest[4];
    int nrest = *ndice;
    memcpy(rest, dice, sizeof rest);
    if (!use_die(rest, &nrest, die))
        return -BG_STEP_NO_SUCH_DIE;
    mg_board next = *cur;
    int why = mg_step_apply(&next, from, die, NULL);
    if (why != MG_STEP_OK)
        return -why;                          /* movegen's reasons are bg.h's numbers */
    if (done + 1 + mg_most_steps(&next, rest, nrest) < needed)
        return -BG_STEP_WASTES_DICE;
    if (needed == 1 && die1 != die2) {        /* rule 4: the higher die when only one plays */
        int high = die1 > die2 ? die1 : die2;
        int8_t only_high[1] = {(int8_t)high};
        if (die != high && mg_most_steps(start, only_high, 1) == 1)
            return -BG_STEP_HIGHER_DIE;
    }
    *cur = next;
    memcpy(dice, rest, sizeof rest);
    *ndice = nrest;
    return BG_STEP_OK;
}

/* Replay the typed history; BG_STEP_OK with the state after it, or the first failure:
 * -BG_POS_* for the start, -BG_STEP_BAD_INPUT for bad dice or a history that breaks a rule. */
static int replay(const int8_t *turn_start, int die1, int die2, const int8_t *made, int n_made,
                  mg_board *cur, int8_t *dice, int *ndice, int *needed)
{
    int bad = bg_validate(turn_start);
    if (bad)
        return bad;
    if (!dice_ok(die1, die2) || n_made < 0 || n_made > 4)
        return -BG_STEP_BAD_INPUT;
    const mg_board *start = as_board(turn_start);
    *cur = *start;
    *ndice = roll_dice(die1, die2, dice);
    *needed = mg_most_steps(start, dice, *ndice);
    for (int k = 0; k < n_made; k++) {
        int why = next_step(cur, dice, ndice, k, *needed, die1, die2, start,
                            made[2 * k], made[2 * k + 1]);
        if (why != BG_STEP_OK)
            return -BG_STEP_BAD_INPUT;
    }
    return BG_STEP_OK;
}

int bg_step_check(const int8_t *turn_start, int die1, int die2, const int8_t *made, int n_made,
                  int from, int die, int8_t *out_board)
{
    mg_board cur;
    int8_t dice[4];
    int ndice, needed;
    if (!out_board)
        return -BG_STEP_BAD_INPUT;
    int why = replay(turn_start, die1, die2, made, n_made, &cur, dice, &ndice, &needed);
    if (why != BG_STEP_OK)
        return why;
    why = next_step(&cur, dice, &ndice, n_made, needed, die1, die2, as_board(turn_start),
                    from, die);
    if (why == BG_STEP_OK)
        memcpy(out_board, &cur, BG_BOARD_LEN);
    return why;
}

int bg_turn_complete(const int8_t *turn_start, int die1, int die2, const int8_t *made,
                     int n_made)
{
    mg_board cur;
    int8_t dice[4];
    int ndice, needed;
    int why = replay(turn_start, die1, die2, made, n_made, &cur, dice, &ndice, &needed);
    if (why != BG_STEP_OK)
        return why;
    return n_made == needed;
}

int64_t bg_bench_generate(const int8_t *boards, const int8_t *dice, int n, int repeats)
{
    if (!boards || !dice || n < 0 || repeats < 0)
        return -BG_ERR_BAD_ARG;
    for (int i = 0; i < n; i++) {
        int bad = bg_validate(boards + (size_t)i * BG_BOARD_LEN);
        if (bad)
            return bad;
        if (!dice_ok(dice[2 * i], dice[2 * i + 1]))
            return -BG_BAD_DICE;
    }
    int64_t plays = 0;
    for (int r = 0; r < repeats; r++)
        for (int i = 0; i < n; i++)
            plays += mg_generate(as_board(boards + (size_t)i * BG_BOARD_LEN),
                                 dice[2 * i], dice[2 * i + 1], play_buf);
    return plays;
}
