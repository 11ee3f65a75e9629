/* toolutil.c: the offline tools' random stream, clock, --loss option, file reading and
 * decision check (see toolutil.h). */
#define _POSIX_C_SOURCE 199309L
#include "toolutil.h"
#include <stdio.h>
#include "bg.h"
#include "movegen.h"
#include <string.h>
#include <time.h>

uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int roll_die(uint64_t *s) { return (int)(rng_next(s) % 6) + 1; }

double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int parse_loss(const char *name) {
    if (!strcmp(name, "mse")) return 0;
    if (!strcmp(name, "xent")) return 1;
    return -1;
}

long read_file(const char *path, uint8_t *buf, long cap) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    long len = (long)fread(buf, 1, (size_t)cap, f);
    fclose(f);
    return len;
}

const char *dec_problem(const uint8_t *d) {
    mg_board pos;
    memcpy(&pos, d, 50);
    return bg_validate((const int8_t *)d) ? "bad board"
           : mg_result(&pos) != 0 ? "game over"
           : d[50] < 1 || d[50] > 6 || d[51] < 1 || d[51] > 6 ? "bad dice" : NULL;
}
