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
#include "bg.h"
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

/* A standard normal deviate from the stream (Box-Muller; one of the pair is enough here). */
static double normal(uint64_t *rng) {
    double u = rng_unit(rng), v = rng_unit(rng);
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

/* --noise: the play a player makes whose every 0-ply equity is off by N(0, sigma), as gnubg's
 * "evaluation noise" makes a club player: the positions such games reach are the teacher's. */
static int noisy_pick(int n, double sigma, uint64_t *rng) {
    int pick = 0;
    double best = -1e9;
    for (int k = 0; k < n; k++) {
        double v = cands[k].eq + sigma * normal(rng);
        if (v > best) { best = v; pick = k; }
    }
    return pick;
}

typedef struct {
    long positions;   /* records to write */
    uint64_t seed;
    int ply;          /* 1 or 2 */
    int top;          /* at most this many plays of a decision... */
    float margin;     /* ...none more than this (equity) behind the best at 0-ply */
    double sample;    /* share of decisions sampled */
    double explore;   /* share of moves played at random among the best three */
    int only;         /* 0, or EV_CONTACT / EV_RACE / ONLY_CRASHED / ONLY_HARD / ONLY_DEFENDER /
                       * ONLY_FAVOURITE / ONLY_FEW: that kind alone */
    int rollout;      /* 0: the ply-N value; else the mean of this many truncated rollouts */
    int horizon;      /* plies each rollout plays (0-ply choices) before the 0-ply value */
    int race_cut;     /* 1: each rollout also ends where contact ends (--until race) */
    double noise;     /* 0, or each game's noise drawn in [0, noise): a club player's play */
} gen_opts;

/* --only crashed: contact positions where a side is down to its last few men in play
 * (ev_crashed, as GNU Backgammon's published classes count them). */
#define ONLY_CRASHED 100
/* --only hard: contact positions of the four classes bench/hard_positions.py measures (a
 * prime, a back game, a closed board, a contact bear-off), for either side; the tests are
 * that bench's in_class, held equal by tests/native/test_sltools.py. */
#define ONLY_HARD 101

static int row_men(const int8_t *row) {
    int men = 0;
    for (int j = 0; j < 25; j++) men += row[j];
    return men;
}

/* Five or more of row's points in a row within its 3..11 (indices 2..10), reaching its
 * 7-point or higher, an opposing man behind them (on the bar or below the prime's start). */
static int hard_prime(const int8_t *row, const int8_t *other) {
    for (int start = 2; start < 11; start++) {
        int length = 0;
        while (start + length < 11 && row[start + length] >= 2) length++;
        if (length < 5 || start + length <= 6) continue;
        int behind = other[MG_BAR] > 0;
        for (int p = 0; p < start && !behind; p++) behind = other[23 - p] > 0;
        if (behind) return 1;
    }
    return 0;
}

/* Two or more points held in the other's home board, 50 or more pips behind. */
static int hard_back_game(const int8_t *row, int behind_pips) {
    int held = 0;
    for (int p = 18; p < 24; p++) held += row[p] >= 2;
    return held >= 2 && behind_pips >= 50;
}

/* Five or six home-board points made, an opposing man on the bar, none of theirs off. */
static int hard_closed_board(const int8_t *row, const int8_t *other) {
    int made = 0;
    for (int p = 0; p < 6; p++) made += row[p] >= 2;
    return made >= 5 && other[MG_BAR] > 0 && row_men(other) == 15;
}

/* Every man home, an opposing man still on that home board or the bar. */
static int hard_contact_bearoff(const int8_t *row, const int8_t *other) {
    int home = 0;
    for (int p = 0; p < 6; p++) home += row[p];
    if (home != row_men(row)) return 0;
    if (other[MG_BAR] > 0) return 1;
    for (int p = 18; p < 24; p++) if (other[p] > 0) return 1;
    return 0;
}

static int hard_for(const int8_t *row, const int8_t *other, int behind_pips) {
    return hard_prime(row, other) || hard_back_game(row, behind_pips) ||
           hard_closed_board(row, other) || hard_contact_bearoff(row, other);
}

static int hard_position(const mg_board *b) {
    int pips0 = mg_pips(b, 0), pips1 = mg_pips(b, 1);
    return hard_for(b->b[0], b->b[1], pips0 - pips1) || hard_for(b->b[1], b->b[0], pips1 - pips0);
}

/* --only defender: positions of those classes left by a play of the side their boards do
 * not name: the side primed, the back-game player, the side on the bar against a closed
 * board, the side holding a point against a bear-off (bench/mixed_players.py finds our play
 * weakest there). The records are the positions after the play, so that side is row 1;
 * bench/hard_positions.py's defends() is the same test, held equal by the tests. */
#define ONLY_DEFENDER 102

/* --only favourite: contact positions whose side on roll wins FAV_LOW to FAV_HIGH at 0-ply,
 * where a cube is turned and taken (bench/cube_vs_gnubg.py draws the same band); a cube
 * decision stands on those chances. */
#define ONLY_FAVOURITE 103
#define FAV_LOW 0.55f
#define FAV_HIGH 0.92f
/* --only few: contact positions where a side has FEW_MEN or fewer men in play (the rest borne
 * off), e.g. two men left behind against a full army: the crashed net's thinnest class. */
#define ONLY_FEW 104
#define FEW_MEN 3

static int defends(const int8_t *row, const int8_t *other, int behind_pips) {
    return hard_prime(other, row) || hard_back_game(row, behind_pips) ||
           hard_closed_board(other, row) || hard_contact_bearoff(other, row);
}

/* win: the 0-ply chance of b's side on roll to win (--only favourite asks it) */
static int wanted_kind(const gen_opts *o, const mg_board *b, int cls, float win) {
    if (o->only == ONLY_CRASHED)
        return ev_crashed(b);
    if (o->only == ONLY_HARD)
        return cls == EV_CONTACT && hard_position(b);
    if (o->only == ONLY_DEFENDER)
        return cls == EV_CONTACT && defends(b->b[1], b->b[0], mg_pips(b, 1) - mg_pips(b, 0));
    if (o->only == ONLY_FAVOURITE)
        return cls == EV_CONTACT && win >= FAV_LOW && win <= FAV_HIGH;
    if (o->only == ONLY_FEW)
        return cls == EV_CONTACT &&
               (row_men(b->b[0]) <= FEW_MEN || row_men(b->b[1]) <= FEW_MEN);
    return o->only ? cls == o->only : (cls == EV_CONTACT || cls == EV_RACE);
}

/* The output of gen: the records and the decision counts beside them. */
typedef struct {
    FILE *f, *fd;
    const char *out;
    char dec_path[4096];
    long written, decisions;
} gen_out;

/* One sampled decision: the results of the best o->top plays among cands[0..n) (ranked at
 * 0-ply, within o->margin of the best), each with its o->ply value as the target, then the
 * count of records it gave in OUT.dec. 0, or 1 on a failed write. */
static int write_decision(const gen_opts *o, gen_out *g, int n) {
    long before = g->written;
    for (int k = 0; k < n && k < o->top && g->written < o->positions; k++) {
        if (k > 0 && cands[0].eq - cands[k].eq > o->margin) break;
        mg_board sw;
        mg_swap(&cands[k].play.after, &sw);
        int cls = ev_class(&sw);
        /* cands[k].p is the mover's at 0-ply: sw's side on roll wins what the mover loses */
        if (!wanted_kind(o, &sw, cls, 1.0f - cands[k].p[0])) continue;
        float p[NN_OUT];
        uint8_t rec[REC_BYTES];
        if (o->rollout)   /* every play of the decision on the same dice */
            sr_rollout(&sw, o->rollout, o->horizon, o->race_cut,
                       o->seed * 1000003ULL + (uint64_t)g->decisions, p);
        else
            sr_eval_ply(&sw, o->ply, p);
        ev_mask(&sw, cls, p);
        memcpy(rec, &sw, 50);
        memcpy(rec + 50, p, sizeof p);
        if (fwrite(rec, 1, REC_BYTES, g->f) != REC_BYTES) {
            fprintf(stderr, "sldata: write failed on %s\n", g->out);
            return 1;
        }
        g->written++;
    }
    if (g->written > before) {
        uint8_t count = (uint8_t)(g->written - before);
        g->decisions++;
        /* both files written through at each decision's end, so a run stopped by hand
         * leaves records and counts that agree up to its last whole decision */
        if (fwrite(&count, 1, 1, g->fd) != 1 || fflush(g->f) != 0 || fflush(g->fd) != 0) {
            fprintf(stderr, "sldata: write failed on %s\n", g->dec_path);
            return 1;
        }
    }
    return 0;
}

/* Decisions from a file (--from): DEC_BYTES a decision (toolutil.h), the board (row 0 on roll,
 * as the records) then its two dice; e.g. the positions met in games against another program
 * (native/tools/foreign_positions.py). Every decision is taken (no --sample). */

static int gen_from(const gen_opts *o, gen_out *g, FILE *fi, const char *from) {
    uint8_t d[DEC_BYTES];
    size_t got = DEC_BYTES;
    long seen = 0;
    double t0 = now_s();
    while (g->written < o->positions && (got = fread(d, 1, DEC_BYTES, fi)) == DEC_BYTES) {
        mg_board pos;
        memcpy(&pos, d, 50);
        int d1 = d[50], d2 = d[51];
        seen++;
        const char *why = dec_problem(d);
        if (why) {
            fprintf(stderr, "\nsldata: decision %ld of %s is not a position in play and a roll "
                    "(%s)\n", seen, from, why);
            return 1;
        }
        int n = sr_rank(&pos, d1, d2, 3, cands, MG_MAX_PLAYS, NULL);   /* >= 1: a forfeit is a play */
        if (n > MG_MAX_PLAYS) n = MG_MAX_PLAYS;
        if (write_decision(o, g, n)) return 1;
        progress("positions", g->written, o->positions, t0);
    }
    /* the file ran out: at a decision's end it is simply short, within one it is damaged */
    if (got != DEC_BYTES && (got != 0 || ferror(fi))) {
        fprintf(stderr, "\nsldata: %s ends in a partial decision\n", from);
        return 1;
    }
    return 0;
}

static int cmd_gen(const gen_opts *o, const char *out, const char *from) {
    gen_out g = { NULL, NULL, out, "", 0, 0 };
    FILE *fi = NULL;
    if (from && !(fi = fopen(from, "rb"))) {
        fprintf(stderr, "sldata: cannot read %s\n", from);
        return 1;
    }
    g.f = fopen(out, "wb");
    if (!g.f) {
        fprintf(stderr, "sldata: cannot write %s\n", out);
        if (fi) fclose(fi);
        return 1;
    }
    /* OUT.dec: a byte a sampled decision, how many of the records that follow came from it
     * (the plays the net must rank against each other) */
    snprintf(g.dec_path, sizeof g.dec_path, "%s.dec", out);
    g.fd = fopen(g.dec_path, "wb");
    if (!g.fd) {
        fprintf(stderr, "sldata: cannot write %s\n", g.dec_path);
        fclose(g.f);
        remove(out);
        if (fi) fclose(fi);
        return 1;
    }
    uint64_t rng = o->seed * 0x2545F4914F6CDD1DULL + 7;
    double t0 = now_s();
    int failed = 0;
    if (from) {
        failed = gen_from(o, &g, fi, from);
        fclose(fi);
    }
    while (!from && !failed && g.written < o->positions) {
        mg_board pos;
        mg_start(&pos);
        double sigma = o->noise > 0 ? o->noise * rng_unit(&rng) : 0.0;   /* this game's evaluation noise */
        int d1, d2;
        do { d1 = roll_die(&rng); d2 = roll_die(&rng); } while (d1 == d2);
        for (int moves = 0; moves < 2000 && g.written < o->positions; moves++) {
            int n = sr_rank(&pos, d1, d2, 3, cands, MG_MAX_PLAYS, NULL);
            if (n > MG_MAX_PLAYS) n = MG_MAX_PLAYS;
            if (rng_unit(&rng) < o->sample) {
                if ((failed = write_decision(o, &g, n))) break;
                progress("positions", g.written, o->positions, t0);
            }
            int pick = sigma > 0 ? noisy_pick(n, sigma, &rng) : 0;
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
    if ((fclose(g.fd) != 0) | (fclose(g.f) != 0) && !failed) {
        fprintf(stderr, "sldata: write failed on %s\n", out);
        failed = 1;
    }
    if (failed) {   /* nothing half-made is left behind */
        remove(out);
        remove(g.dec_path);
        return 1;
    }
    if (o->rollout)
        printf("gen: %ld positions from %ld decisions (targets: %d rollouts of %d plies) in %.1f s "
               "-> %s\n", g.written, g.decisions, o->rollout, o->horizon, now_s() - t0, out);
    else
        printf("gen: %ld positions from %ld decisions (%d-ply targets) in %.1f s -> %s\n",
               g.written, g.decisions, o->ply, now_s() - t0, out);
    return 0;
}

/* ---- encode ------------------------------------------------------------------------- */

/* Whether record `number` (from 1) of in_path holds a position bg_validate accepts; says
 * which record and why not when it does not (encode and eval read a point's men as 0..15). */
static int record_is_position(const uint8_t *rec, const char *in_path, long number) {
    int invalid = bg_validate((const int8_t *)rec);
    if (invalid < 0)
        fprintf(stderr, "sldata: %s: record %ld is no position (bg_validate %d)\n", in_path,
                number, invalid);
    return invalid >= 0;
}

/* Removes PREFIX.x, .y, .m, .c and .g: what a failed encode had begun. */
static void remove_outputs(const char *prefix, const char *const ext[5]) {
    char path[4096];
    for (int k = 0; k < 5; k++) {
        snprintf(path, sizeof path, "%s%s", prefix, ext[k]);
        remove(path);
    }
}

/* Records -> PREFIX.x (float32 inputs, EV_N_IN a record), PREFIX.y (float32 targets, five),
 * PREFIX.m (uint8, five: 1 where the output can be non-zero in that position, 0 where
 * ev_mask sets it to zero in play), PREFIX.c (uint8 class: EV_CONTACT or EV_RACE, or
 * EV_CRASHED_TAG for a contact position ev_crashed picks out, which the crashed net learns) and
 * PREFIX.g (uint32, the decision each record came from, numbered from 0; from DATA.dec, or
 * each record its own when there is none). */
static int cmd_encode(const char *in_path, const char *prefix) {
    FILE *f = fopen(in_path, "rb");
    if (!f) { fprintf(stderr, "sldata: cannot read %s\n", in_path); return 1; }
    char path[4096];
    snprintf(path, sizeof path, "%s.dec", in_path);
    FILE *fdec = fopen(path, "rb");   /* optional */
    const char *const ext[5] = { ".x", ".y", ".m", ".c", ".g" };
    FILE *o[5];
    for (int k = 0; k < 5; k++) {
        snprintf(path, sizeof path, "%s%s", prefix, ext[k]);
        if (!(o[k] = fopen(path, "wb"))) {
            fprintf(stderr, "sldata: cannot write %s\n", path);
            while (k-- > 0) fclose(o[k]);
            remove_outputs(prefix, ext);
            return 1;
        }
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
                    goto fail;
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
        if (!record_is_position(rec, in_path, read)) goto fail;
        int cls = ev_class(&b);
        if (cls != EV_CONTACT && cls != EV_RACE) { skipped++; continue; }
        float x[EV_N_IN], y[NN_OUT], ones[NN_OUT];
        uint8_t m[NN_OUT], c = (uint8_t)(ev_crashed(&b) ? EV_CRASHED_TAG : cls);
        ev_encode(&b, x);
        memcpy(y, rec + 50, sizeof y);
        for (int k = 0; k < NN_OUT; k++) ones[k] = 1.0f;
        ev_mask(&b, cls, ones);
        for (int k = 0; k < NN_OUT; k++) m[k] = ones[k] != 0.0f;
        if (fwrite(x, sizeof x, 1, o[0]) != 1 || fwrite(y, sizeof y, 1, o[1]) != 1 ||
            fwrite(m, sizeof m, 1, o[2]) != 1 || fwrite(&c, 1, 1, o[3]) != 1 ||
            fwrite(&group, sizeof group, 1, o[4]) != 1) {
            fprintf(stderr, "sldata: write failed under %s\n", prefix);
            goto fail;
        }
        n++;
    }
    fclose(f);
    if (fdec) fclose(fdec);
    int bad = 0;
    for (int k = 0; k < 5; k++) bad |= fclose(o[k]) != 0;
    if (got != 0 || bad) {
        if (got != 0) fprintf(stderr, "sldata: %s ends in a partial record\n", in_path);
        else fprintf(stderr, "sldata: write failed under %s\n", prefix);
        remove_outputs(prefix, ext);
        return 1;
    }
    printf("encode: %ld records (%ld neither contact nor race, skipped), %d inputs -> %s.{x,y,m,c,g}\n",
           n, skipped, EV_N_IN, prefix);
    return 0;
fail:   /* nothing half-made is left behind */
    fclose(f);
    if (fdec) fclose(fdec);
    for (int k = 0; k < 5; k++) fclose(o[k]);
    remove_outputs(prefix, ext);
    return 1;
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
        if (!record_is_position(rec, in_path, n + 1)) {
            fclose(f);
            return 1;
        }
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
        "             [--margin 0.12] [--sample 0.5] [--explore 0.1]\n"
        "             [--only contact|race|crashed|hard|defender|favourite|few]\n"
        "             [--noise 0.08]\n"
        "      0-ply self-play with W; at sampled decisions the results of the best --top plays\n"
        "      (within --margin of the best at 0-ply) with their ply-N values as targets;\n"
        "      --noise S: each game's plays chosen with N(0, s) added to every 0-ply equity,\n"
        "      s drawn per game in [0, S), so the positions a club player reaches are in it;\n"
        "      --only hard: contact positions of bench/hard_positions.py's four classes\n"
        "      --only defender: those left by a play of the side the classes' boards do not name\n"
        "      --only favourite: contact positions whose side on roll wins 55-92%% at 0-ply\n"
        "      --only few: contact positions where a side has 3 or fewer men in play\n"
        "  sldata gen --weights W --positions N --from DECISIONS --out DATA [--ply ...]\n"
        "      the same for the decisions in a file (52 bytes each: board, die1, die2) instead\n"
        "      of self-play: every decision, until N records or the file's end\n"
        "  sldata gen ... --rollout T [--horizon 8] [--until race]\n"
        "      targets from T truncated rollouts of each result instead (0-ply choices, the\n"
        "      0-ply value after --horizon plies, the luck of each roll taken out; a\n"
        "      decision's plays on the same dice; --until race: each game also ends where\n"
        "      contact ends, valued there by the race net or the bear-off table)\n"
        "  sldata encode --out PREFIX DATA\n"
        "      DATA's records as the net's inputs, targets, output masks and classes\n"
        "  sldata eval --weights W DATA\n"
        "      W's mean 0-ply equity error on DATA's targets\n");
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(); return argc < 2 ? 2 : 0; }
    const char *cmd = argv[1], *weights = NULL, *out = NULL, *data = NULL, *from = NULL;
    gen_opts o = { 100000, 1, 1, 5, 0.12f, 0.5, 0.1, 0, 0, 8, 0, 0.0 };
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
        else if (!strcmp(a, "--from")) from = v;
        else if (!strcmp(a, "--rollout")) o.rollout = atoi(v);
        else if (!strcmp(a, "--horizon")) o.horizon = atoi(v);
        else if (!strcmp(a, "--until")) {
            if (strcmp(v, "race")) {
                fprintf(stderr, "sldata: --until takes race, not %s\n", v);
                return 2;
            }
            o.race_cut = 1;
        }
        else if (!strcmp(a, "--positions")) o.positions = atol(v);
        else if (!strcmp(a, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--ply")) o.ply = atoi(v);
        else if (!strcmp(a, "--top")) o.top = atoi(v);
        else if (!strcmp(a, "--margin")) o.margin = (float)atof(v);
        else if (!strcmp(a, "--sample")) o.sample = atof(v);
        else if (!strcmp(a, "--explore")) o.explore = atof(v);
        else if (!strcmp(a, "--noise")) o.noise = atof(v);
        else if (!strcmp(a, "--only")) {
            if (!strcmp(v, "contact")) o.only = EV_CONTACT;
            else if (!strcmp(v, "race")) o.only = EV_RACE;
            else if (!strcmp(v, "crashed")) o.only = ONLY_CRASHED;
            else if (!strcmp(v, "hard")) o.only = ONLY_HARD;
            else if (!strcmp(v, "defender")) o.only = ONLY_DEFENDER;
            else if (!strcmp(v, "favourite")) o.only = ONLY_FAVOURITE;
            else if (!strcmp(v, "few")) o.only = ONLY_FEW;
            else {
                fprintf(stderr, "sldata: --only takes contact, race, crashed, hard, defender, favourite or few, not %s\n", v);
                return 2;
            }
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
    if (!strcmp(cmd, "gen")) {
        if (!out || data || o.ply < 1 || o.ply > 2 || o.top < 1 || o.positions < 1 ||
            o.sample <= 0 || o.sample > 1 || o.explore < 0 || o.explore > 1 || !(o.margin >= 0) ||
            o.rollout < 0 || o.rollout > 100000 || o.horizon < 1 || o.horizon > 2000 ||
            !(o.noise >= 0) || o.noise > 2 || (from && o.noise > 0)) {   /* noise: self-play's */
            usage();
            return 2;
        }
        return cmd_gen(&o, out, from);
    }
    if (!strcmp(cmd, "eval")) {
        if (!data) { usage(); return 2; }
        return cmd_eval(data);
    }
    usage();
    return 2;
}
