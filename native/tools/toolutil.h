/* toolutil.h: what the offline tools (train, refine, the fuzzers) share besides weights files:
 * a seeded splitmix64 stream with dice and uniform draws, the wall clock, the --loss option,
 * reading a whole file and checking a decision read from one. Not used by the game,
 * whose dice come from game/model/dice.py. */
#ifndef SPECTRUM_TOOLUTIL_H
#define SPECTRUM_TOOLUTIL_H
#include <stdint.h>
uint64_t rng_next(uint64_t *s);   /* the next 64 random bits of the stream in *s */
int roll_die(uint64_t *s);        /* 1..6 */
double rng_unit(uint64_t *s);     /* uniform in [0, 1) */
double now_s(void);               /* monotonic wall clock, seconds */
/* --loss: 0 for mse (squared error), 1 for xent (cross-entropy), -1 for anything else */
int parse_loss(const char *name);
/* The file at path into buf (at most cap bytes): its length, or -1 when it cannot be opened. */
long read_file(const char *path, uint8_t *buf, long cap);
/* A decision as `sldata gen --from` and `refine duel --from` read it: the board (row 0 on
 * roll, 50 bytes) then the two dice. */
#define DEC_BYTES 52
/* Why the decision d is not a position in play and a roll ("bad board", "game over", "bad
 * dice"), or NULL when it is one. */
const char *dec_problem(const uint8_t *d);
#endif
