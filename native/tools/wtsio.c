/* wtsio.c: weights-file reading and writing for the offline tools (see wtsio.h). */
#include "wtsio.h"
#include <stdio.h>
#include <stdlib.h>

int wts_save(const ev_weights *w, const char *path) {
    long size = ev_wts_size(EV_N_IN, w->contact.n_hid, w->race.n_hid, w->crashed.n_hid);
    uint8_t *buf = malloc(size);
    if (!buf) return -1;
    ev_wts_serialize(w, buf, size);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) { free(buf); return -1; }
    size_t ok = fwrite(buf, 1, size, f);
    fclose(f);
    free(buf);
    if (ok != (size_t)size) return -1;
    return rename(tmp, path);
}

int wts_load_inputs(ev_weights *w, const char *path, int want_in) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (size <= 0) { fclose(f); return -1; }
    uint8_t *buf = malloc(size);
    if (!buf) { fclose(f); return -1; }
    long got = (long)fread(buf, 1, size, f);
    fclose(f);
    int rc = got == size ? ev_wts_parse_inputs(w, buf, size, want_in) : -1;
    free(buf);
    return rc;
}

int wts_load(ev_weights *w, const char *path) { return wts_load_inputs(w, path, EV_N_IN); }
