/* eval.h: the position evaluator inside the C side: input encoding, position classes, the
 * networks (contact, race, and optionally crashed) with the exact bear-off database, and
 * equity helpers.
 * Not the search (search.h), not the cube (cube.h), not the Python-facing API (bg.h). */
#ifndef SPECTRUM_EVAL_H
#define SPECTRUM_EVAL_H
#include "movegen.h"
#include "nn.h"

/* outputs, always for the side on roll (row 0) */
#define EV_WIN 0
#define EV_WIN_G 1
#define EV_WIN_BG 2
#define EV_LOSE_G 3
#define EV_LOSE_BG 4

/* The net's inputs for one side, as ev_encode writes them (eval.c encode_side): the side on
 * roll's from 0, the other side's from EV_PER_SIDE. First EV_UNITS_PER_POINT units for each
 * of the side's 24 points (its index i from i * EV_UNITS_PER_POINT): one man there, two or
 * more, three or more, the men beyond three by halves. Then one input each, scaled to about
 * 0..1 by the divisor given (rolls are out of 36; "the other" is the other side): */
enum ev_input {
    EV_UNITS_PER_POINT = 4,
    EV_IN_BAR = 24 * EV_UNITS_PER_POINT,   /* men on the bar, by halves */
    EV_IN_OFF,             /* men borne off / 15 */
    EV_IN_PIPS,            /* the pip count / 150 */
    EV_IN_PRIME,           /* the longest run of points held / 6 */
    EV_IN_HOME_POINTS,     /* points held in the home board / 6 */
    EV_IN_BACK_MEN,        /* men on the bar or in the other's home board / 8 */
    EV_IN_HIT_ROLLS,       /* rolls on which the other hits one of this side's blots */
    EV_IN_BLOTS,           /* blots / 5 */
    EV_IN_ESCAPE,          /* rolls on which the rearmost man gets past every point the other
                            * holds in the 12 in front of it (1 with no man left) */
    EV_IN_HELD_IN_FRONT,   /* the points the other holds in those 12 / 6 */
    EV_IN_OUT_PIPS,        /* pips still to move before every man is home / 60 */
    EV_IN_OUT_MEN,         /* men not yet home / 15 */
    EV_IN_CROSSINGS,       /* quarters still to cross on the way home / 20 */
    EV_IN_BEAROFF_ROLLS,   /* expected rolls to bear off the men already home (the one-sided
                            * bear-off database) / 10 */
    EV_IN_PIPS_LOST,       /* pips a hit costs (the most advanced blot reached), summed over
                            * the 36 rolls / (36 * 12) */
    EV_IN_REARMOST,        /* where the rearmost man stands, index + 1 (0: none) / 25 */
    EV_IN_REAR_POINT,      /* the rearmost point held, index + 1 (0: none) / 24 */
    EV_IN_FRONT_POINT,     /* the foremost point held, index + 1 (0: none) / 24 */
    EV_IN_CONTACT_PIPS,    /* pips still to move before the sides have passed / 100 */
    EV_IN_DOUBLE_SHOTS,    /* rolls that reach two of this side's blots */
    EV_IN_STAY_OUT,        /* with a man on the bar: (the other's home points held)^2 / 36 */
    EV_IN_FORWARD_ANCHOR,  /* the most advanced point held in the other's home board / 6 */
    EV_IN_CONTAIN,         /* 36 less the fewest escapes (as EV_IN_ESCAPE) a man of the
                            * other would have on one of this side's 9- to 1-points / 36 */
    EV_IN_CONTAIN2,        /* EV_IN_CONTAIN squared */
    EV_IN_CONTAIN_MEN,     /* as EV_IN_CONTAIN, only where the other's men stand (and the bar) */
    EV_IN_SPREAD,          /* the men beyond their mean pip: their squared distance from it,
                            * a man / 400 */
    EV_IN_BACK_ANCHORS,    /* points held in the other's home board / 2 */
    EV_IN_MOBILITY,        /* the way home: each outside man's pips to go times its escapes
                            * past the other's points / 3600 */
    EV_PER_SIDE            /* the inputs of one side (124) */
};
#define EV_N_IN (2 * EV_PER_SIDE)
#define EV_N_HID 80            /* default hidden units of the training tool */
#define EV_N_HID_CONTACT_SHIPPED 192   /* hidden units of the committed weights file's nets */
#define EV_N_HID_RACE_SHIPPED 128
#define EV_N_HID_CRASHED_SHIPPED 192

enum { EV_OVER = 0, EV_BEAROFF = 1, EV_RACE = 2, EV_CONTACT = 3 };
/* Not a class of ev_class (crashed positions are EV_CONTACT there): the tag `sldata encode`
 * gives the contact positions ev_crashed picks out, which the crashed net learns from. */
#define EV_CRASHED_TAG 4

typedef struct {
    nn_net contact;
    nn_net race;
    nn_net crashed;   /* n_hid 0: none (a version-1 file), and the contact net judges them */
    uint32_t games_trained;
    int loaded;
    uint32_t tag;   /* a number of its own for each parse (the search's cache tells weights apart) */
} ev_weights;

extern ev_weights ev_w;   /* the weights the game plays with */

int ev_class(const mg_board *b);
/* 1 for a contact position where a side is down to its last few men in play, as GNU
 * Backgammon's published classes count them: at most 6 men on the board, not counting all
 * but one of a stack on the ace point, or on the ace and deuce points together. */
int ev_crashed(const mg_board *b);
/* Which of w's nets judges a position of class cls (EV_CONTACT or EV_RACE): the race net, the
 * crashed net for a crashed position when the weights have one, else the contact net. */
enum { EV_NET_CONTACT = 0, EV_NET_RACE = 1, EV_NET_CRASHED = 2 };
int ev_net_index(const ev_weights *w, const mg_board *b, int cls);
/* Builds the encoder's and the net's small tables now (else at first use), so that threads
 * started later only read them. */
void ev_tables_init(void);
void ev_encode(const mg_board *b, float *in);   /* in[EV_N_IN] */
/* 0-ply probabilities for the side on roll, with the given weights. */
void ev_evaluate_w(const ev_weights *w, const mg_board *b, float p[NN_OUT]);
void ev_evaluate(const mg_board *b, float p[NN_OUT]);
/* Probabilities from the game's end as seen by the side on roll (mg_result of b). */
void ev_terminal(int result, float p[NN_OUT]);
void ev_sanitize(float p[NN_OUT]);
/* Zeroes the gammon and backgammon chances a position of class cls cannot have. */
void ev_mask(const mg_board *b, int cls, float p[NN_OUT]);
void ev_invert(const float in[NN_OUT], float out[NN_OUT]);
float ev_equity(const float p[NN_OUT]);   /* cubeless money equity, points per game */
/* Level 1: the hand-written score of a position the mover has just made (eval_heur.c). */
float ev_heuristic(const mg_board *after);

/* weights file (evalwts.c): version 1 holds the contact and race nets; version 2 adds the
 * crashed net (its hidden units a header field after the games count) */
#define EV_WTS_MAGIC "SPBGNET1"
#define EV_WTS_VERSION 1
#define EV_WTS_VERSION_CRASHED 2
/* n_hid_crashed 0: a version-1 file without a crashed net */
long ev_wts_size(int n_in, int n_hid_contact, int n_hid_race, int n_hid_crashed);
long ev_wts_serialize(const ev_weights *w, uint8_t *buf, long cap);
/* 0 ok, or a negative BG_ERR_WTS_* code */
int ev_wts_parse(ev_weights *w, const uint8_t *buf, long len);
/* As ev_wts_parse for nets of want_in inputs, or (want_in 0) of any count up to NN_MAX_IN,
 * as the training tool's --widen reads an older, narrower encoding. */
int ev_wts_parse_inputs(ev_weights *w, const uint8_t *buf, long len, int want_in);
uint32_t ev_fnv1a(const uint8_t *data, long len);

/* bear-off database (bearoff.c) */
#define BO_POINTS 6
#define BO_MAX_ROLLS 32
#define BO_POSITIONS 54264
int bo_ready(void);
void bo_init(void);
int bo_index(const int8_t *home6);
/* the home board after home6 with at most `most` men in all, in place, in the order of an
 * odometer from the empty board (the last point turning fastest): 0 after the last one */
int bo_next_board(int8_t *home6, int most);
/* the pips of a home board */
int bo_pips(const int8_t *home6);
/* distribution of the number of rolls to bear off all men of the given home board */
const float *bo_dist(int index);
float bo_mean(int index);
/* P(win) for the side on roll when both sides are in the database */
float bo_win_prob(const mg_board *b);
#endif
