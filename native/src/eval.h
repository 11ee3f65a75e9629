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

#define EV_PER_SIDE 124
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
/* distribution of the number of rolls to bear off all men of the given home board */
const float *bo_dist(int index);
float bo_mean(int index);
/* P(win) for the side on roll when both sides are in the database */
float bo_win_prob(const mg_board *b);
#endif
