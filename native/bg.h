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

/* ---- evaluator section (native/src/eval*.c) ---- */

/* ---- usr door section (native/src/usr.c) ---- */

/* cffi-cdef end */
#endif
