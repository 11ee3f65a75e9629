/* sldata.c: data for supervised training of the evaluator's nets (native/tools/sltrain.py).
 * `gen` plays 0-ply self-play and, at sampled decisions, writes the results of the best few
 * plays (the positions the net must rank against each other, the opponent then on roll) with
 * our own search's value of each as the target: 1-ply (the opponent's 21 rolls, each answered
 * by its best 0-ply play) or 2-ply (one roll deeper, level 5's judgement). `encode` turns such
 * records into the net's input vectors for the trainer. Seeded and single-threaded: run one
 * `gen` per core with different seeds. Not part of the game: built by `make -C native/tools`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "search.h"
#include "toolutil.h"
#include "wtsio.h"

#define REC_BYTES (50 + 4 * NN_OUT)   /* board (row 0 on roll), then five float targets: refine's */

static sr_cand cands[MG_MAX_PLAYS];

static void progress(const char *what, long done, long total, double t0) {
    static double last;
    double t = now_s();
    if (t - last < 1.0 && done != total) return;
    last = t;
    int width = 30, filled = total > 0 ? (int)(width * (double)done / total) : 0;
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '.';
    bar[width] = 0;
    fprintf(stderr, "\r[%s] %s %ld/%ld  %.0f/s  %.1f min ", bar, what, done, total,
            done / (t - t0 + 1e-9), (t - t0) / 60.0);
    fflush(stderr);
}

/* ---- gen ---------------------------------------------------------------------------- */

typedef struct {
    long positions;   /* records to write */
    uint64_t seed;
    int ply;          /* 1 or 2 */
    int top;          /* at most this many plays of a decision... */
    float margin;     /* ...none more than this (equity) behind the best at 0-ply */
    double sample;    /* share of decisions sampled */
    double explore;   /* share of moves played at random among the best three */
    int only;         /* 0, or EV_CONTACT / EV_RACE: that class alone */
} gen_opts;

static int cmd_gen(const gen_opts *o, const char *out) {
    FILE *f = fopen(out, "wb");
    if (!f) { fprintf(stderr, "sldata: cannot write %s\n", out); return 1; }
    /* OUT.dec: a byte a sampled decision, how many of the records that follow came from it
     * (the plays the net must rank against each other) */
    char dec_path[4096];
    snprintf(dec_path, sizeof dec_path, "%s.dec", out);
    FILE *fd = fopen(dec_path, "wb");
    if (!fd) { fprintf(stderr, "sldata: cannot write %s\n", dec_path); fclose(f); return 1; }
    uint64_t rng = o->seed * 0x2545F4914F6CDD1DULL + 7;
    long written = 0, decisions = 0;
    double t0 = now_s();
    while (written < o->positions) {
        mg_board pos;
        mg_start(&pos);
        int d1, d2;
        do { d1 = roll_die(&rng); d2 = roll_die(&rng); } while (d1 == d2);
        for (int moves = 0; moves < 2000 && written < o->positions; moves++) {
            int n = sr_rank(&pos, d1, d2, 3, cands, MG_MAX_PLAYS);
            if (n > MG_MAX_PLAYS) n = MG_MAX_PLAYS;
            if (rng_unit(&rng) < o->sample) {
                long before = written;
                for (int k = 0; k < n && k < o->top && written < o->positions; k++) {
                    if (k > 0 && cands[0].eq - cands[k].eq > o->margin) break;
                    mg_board sw;
                    mg_swap(&cands[k].play.after, &sw);
                    int cls = ev_class(&sw);
                    if (o->only ? cls != o->only : (cls != EV_CONTACT && cls != EV_RACE)) continue;
                    float p[NN_OUT];
                    uint8_t rec[REC_BYTES];
                    sr_eval_ply(&sw, o->ply, p);
                    ev_mask(&sw, cls, p);
                    memcpy(rec, &sw, 50);
                    memcpy(rec + 50, p, sizeof p);
                    if (fwrite(rec, 1, REC_BYTES, f) != REC_BYTES) {
                        fprintf(stderr, "sldata: write failed on %s\n", out);
                        fclose(f);
                        return 1;
                    }
                    written++;
                }
                if (written > before) {
                    uint8_t count = (uint8_t)(written - before);
                    decisions++;
                    if (fwrite(&count, 1, 1, fd) != 1) {
                        fprintf(stderr, "sldata: write failed on %s\n", dec_path);
                        fclose(f);
                        fclose(fd);
                        return 1;
                    }
                }
                progress("positions", written, o->positions, t0);
            }
            int pick = 0;
            if (n > 1 && rng_unit(&rng) < o->explore) {
                int top = n < 3 ? n : 3;
                pick = (int)(rng_next(&rng) % (uint64_t)top);
            }
            mg_board next;
            mg_swap(&cands[pick].play.after, &next);
            pos = next;
            if (mg_result(&pos) != 0) break;
            d1 = roll_die(&rng); d2 = roll_die(&rng);
        }
    }
    fprintf(stderr, "\n");
    if ((fclose(fd) != 0) | (fclose(f) != 0)) {
        fprintf(stderr, "sldata: write failed on %s\n", out);
        return 1;
    }
    printf("gen: %ld positions from %ld decisions (%d-ply targets) in %.1f s -> %s\n", written,
           decisions, o->ply, now_s() - t0, out);
    return 0;
}

/* ---- encode ------------------------------------------------------------------------- */

/* Records -> PREFIX.x (float32 inputs, EV_N_IN a record), PREFIX.y (float32 targets, five),
 * PREFIX.m (uint8, five: 1 where the output can be non-zero in that position, 0 where
 * ev_mask sets it to zero in play), PREFIX.c (uint8 class: EV_CONTACT or EV_RACE) and
 * PREFIX.g (uint32, the decision each record came from, numbered from 0; from DATA.dec, or
 * each record its own when there is none). */
static int cmd_encode(const char *in_path, const char *prefix) {
    FILE *f = fopen(in_path, "rb");
    if (!f) { fprintf(stderr, "sldata: cannot read %s\n", in_path); return 1; }
    char path[4096];
    snprintf(path, sizeof path, "%s.dec", in_path);
    FILE *fdec = fopen(path, "rb");   /* optional */
    const char *ext[5] = { ".x", ".y", ".m", ".c", ".g" };
    FILE *o[5];
    for (int k = 0; k < 5; k++) {
        snprintf(path, sizeof path, "%s%s", prefix, ext[k]);
        if (!(o[k] = fopen(path, "wb"))) { fprintf(stderr, "sldata: cannot write %s\n", path); return 1; }
    }
    uint8_t rec[REC_BYTES];
    size_t got;
    long n = 0, skipped = 0, read = 0;
    uint32_t group = 0, next_group = 0;
    int left_in_group = 0;   /* records still to come from the current decision */
    while ((got = fread(rec, 1, REC_BYTES, f)) == REC_BYTES) {
        if (fdec) {
            while (left_in_group == 0) {
                int c = fgetc(fdec);
                if (c == EOF) {
                    fprintf(stderr, "sldata: %s.dec counts fewer records than %s holds\n", in_path, in_path);
                    return 1;
                }
                left_in_group = c;
                group = next_group;
                next_group += c > 0;
            }
            left_in_group--;
        } else {
            group = (uint32_t)read;
        }
        read++;
        mg_board b;
        memcpy(&b, rec, 50);
        int cls = ev_class(&b);
        if (cls != EV_CONTACT && cls != EV_RACE) { skipped++; continue; }
        float x[EV_N_IN], y[NN_OUT], ones[NN_OUT];
        uint8_t m[NN_OUT], c = (uint8_t)cls;
        ev_encode(&b, x);
        memcpy(y, rec + 50, sizeof y);
        for (int k = 0; k < NN_OUT; k++) ones[k] = 1.0f;
        ev_mask(&b, cls, ones);
        for (int k = 0; k < NN_OUT; k++) m[k] = ones[k] != 0.0f;
        if (fwrite(x, sizeof x, 1, o[0]) != 1 || fwrite(y, sizeof y, 1, o[1]) != 1 ||
            fwrite(m, sizeof m, 1, o[2]) != 1 || fwrite(&c, 1, 1, o[3]) != 1 ||
            fwrite(&group, sizeof group, 1, o[4]) != 1) {
            fprintf(stderr, "sldata: write failed under %s\n", prefix);
            return 1;
        }
        n++;
    }
    fclose(f);
    if (fdec) fclose(fdec);
    int bad = 0;
    for (int k = 0; k < 5; k++) bad |= fclose(o[k]) != 0;
    if (got != 0) { fprintf(stderr, "sldata: %s ends in a partial record\n", in_path); return 1; }
    if (bad) { fprintf(stderr, "sldata: write failed under %s\n", prefix); return 1; }
    printf("encode: %ld records (%ld neither contact nor race, skipped), %d inputs -> %s.{x,y,m,c,g}\n",
           n, skipped, EV_N_IN, prefix);
    return 0;
}

/* ---- eval: the 0-ply outputs of a weights file on records (to check the trainer) ------- */

static int cmd_eval(const char *in_path) {
    FILE *f = fopen(in_path, "rb");
    if (!f) { fprintf(stderr, "sldata: cannot read %s\n", in_path); return 1; }
    uint8_t rec[REC_BYTES];
    double eq_err = 0;
    long n = 0;
    while (fread(rec, 1, REC_BYTES, f) == REC_BYTES) {
        mg_board b;
        float p[NN_OUT], y[NN_OUT];
        memcpy(&b, rec, 50);
        memcpy(y, rec + 50, sizeof y);
        ev_evaluate(&b, p);
        eq_err += fabs(ev_equity(p) - ev_equity(y));
        n++;
    }
    fclose(f);
    printf("eval: %ld records, mean |equity error| %.5f\n", n, n ? eq_err / n : 0.0);
    return 0;
}

static void usage(void) {
    fprintf(stderr,
        "sldata: data for supervised training of the evaluator nets (sltrain.py)\n"
        "  sldata gen --weights W --positions N --seed S --out DATA [--ply 1|2] [--top 5]\n"
        "             [--margin 0.12] [--sample 0.5] [--explore 0.1] [--only contact|race]\n"
        "      0-ply self-play with W; at sampled decisions the results of the best --top plays\n"
        "      (within --margin of the best at 0-ply) with their ply-N values as targets\n"
        "  sldata encode --out PREFIX DATA\n"
        "      DATA's records as the net's inputs, targets, output masks and classes\n"
        "  sldata eval --weights W DATA\n"
        "      W's mean 0-ply equity error on DATA's targets\n");
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(); return argc < 2 ? 2 : 0; }
    const char *cmd = argv[1], *weights = NULL, *out = NULL, *data = NULL;
    gen_opts o = { 100000, 1, 1, 5, 0.12f, 0.5, 0.1, 0 };
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            if (data) { usage(); return 2; }
            data = a;
            continue;
        }
        if (!v) { usage(); return 2; }
        if (!strcmp(a, "--weights")) weights = v;
        else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--positions")) o.positions = atol(v);
        else if (!strcmp(a, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--ply")) o.ply = atoi(v);
        else if (!strcmp(a, "--top")) o.top = atoi(v);
        else if (!strcmp(a, "--margin")) o.margin = (float)atof(v);
        else if (!strcmp(a, "--sample")) o.sample = atof(v);
        else if (!strcmp(a, "--explore")) o.explore = atof(v);
        else if (!strcmp(a, "--only")) {
            if (!strcmp(v, "contact")) o.only = EV_CONTACT;
            else if (!strcmp(v, "race")) o.only = EV_RACE;
            else { fprintf(stderr, "sldata: --only takes contact or race, not %s\n", v); return 2; }
        }
        else { usage(); return 2; }
        i++;
    }
    bo_init();
    if (!strcmp(cmd, "encode")) {   /* needs no weights: the encoding is the build's */
        if (!out || !data) { usage(); return 2; }
        return cmd_encode(data, out);
    }
    if (!weights) { fprintf(stderr, "sldata: --weights is needed\n"); return 2; }
    if (wts_load(&ev_w, weights) != 0) { fprintf(stderr, "sldata: cannot load %s\n", weights); return 1; }
    sr_cache_use(1);   /* the search's cache: the same values, sooner (weights told apart by tag) */
    if (!strcmp(cmd, "gen")) {
        if (!out || data || o.ply < 1 || o.ply > 2 || o.top < 1 || o.positions < 1 ||
            o.sample <= 0 || o.sample > 1 || o.explore < 0 || o.explore > 1 || !(o.margin >= 0)) {
            usage();
            return 2;
        }
        return cmd_gen(&o, out);
    }
    if (!strcmp(cmd, "eval")) {
        if (!data) { usage(); return 2; }
        return cmd_eval(data);
    }
    usage();
    return 2;
}
