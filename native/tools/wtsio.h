/* wtsio.h: reading and writing a weights file for the offline tools (train, refine).
 * Not used by the game, which loads its weights through bg_load_weights. */
#ifndef SPECTRUM_WTSIO_H
#define SPECTRUM_WTSIO_H
#include "eval.h"
/* 0 on success; the write goes to PATH.tmp first and is renamed over PATH */
int wts_save(const ev_weights *w, const char *path);
/* 0 on success, -1 when unreadable, or ev_wts_parse's negative code */
int wts_load(ev_weights *w, const char *path);
/* As wts_load for nets of want_in inputs, or (0) of any input count (ev_wts_parse_inputs) */
int wts_load_inputs(ev_weights *w, const char *path, int want_in);
#endif
