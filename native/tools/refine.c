/* refine.c: refinement of the evaluator's nets by deeper-search targets, the step after
 * TD self-play (train.c). `gen` plays 0-ply self-play games with a little exploration and
 * writes each contact or race position with its 1-ply (or 2-ply) probabilities as the
 * target; `fit` trains the nets toward those targets (plain supervised SGD, held-out error
 * per epoch); `duel` plays two weights files against each other with duplicate dice.
 * Seeded and single-threaded: run one `gen` per core with different seeds. Not part of the
 * game: build with `make -C native/tools`, run `native/tools/refine --help`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "search.h"
#include "toolutil.h"
#include "wtsio.h"

#define REC_BYTES (50 + 4 * NN_OUT)   /* board (row 0 on roll), then five float targets */

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

static int fit_xent;   /* fit --loss xent: cross-entropy instead of squared error */
static sr_cand cands[MG_MAX_PLAYS];

/* ---- gen ---------------------------------------------------------------------------- */

/* only: 0 = contact and race positions, EV_CONTACT or EV_RACE = that class alone */
/* One game's sampled positions, kept until its end when the targets are its outcome. */
typedef struct { mg_board b; int side; } pending_t;
static pending_t pending[2000];

static int write_rec(FILE *f, const mg_board *b, const float p[NN_OUT], const char *out) {
    uint8_t rec[REC_BYTES];
    memcpy(rec, b, 50);
    memcpy(rec + 50, p, sizeof(float) * NN_OUT);
    if (fwrite(rec, 1, REC_BYTES, f) == REC_BYTES) return 0;
    fprintf(stderr, "refine: write failed on %s\n", out);
    return -1;
}

/* ply 1 or 2: each sampled position's target is our search that many rolls deeper; ply 0:
 * the outcome of the game it came from (win, gammon, backgammon as they fell, for the side
 * then on roll), written when the game ends; a game that reaches no end writes nothing. */
static int cmd_gen(long positions, uint64_t seed, double explore, double sample, int ply,
                   int only, const char *out) {
    FILE *f = fopen(out, "wb");
    if (!f) { fprintf(stderr, "refine: cannot write %s\n", out); return 1; }
    uint64_t rng = seed * 0x2545F4914F6CDD1DULL + 99;
    long written = 0;
    double t0 = now_s();
    while (written < positions) {
        mg_board pos;
        mg_start(&pos);
        int d1, d2, n_pending = 0;
        do { d1 = roll_die(&rng); d2 = roll_die(&rng); } while (d1 == d2);
        for (int moves = 0; moves < 2000 && written < positions; moves++) {
            int cls = ev_class(&pos);
            int wanted = only ? cls == only : (cls == EV_CONTACT || cls == EV_RACE);
            if (wanted && moves > 0 && rng_unit(&rng) < sample) {
                if (ply == 0) {
                    pending[n_pending].b = pos;
                    pending[n_pending++].side = moves & 1;
                } else {
                    float p[NN_OUT];
                    sr_eval_ply(&pos, ply, p);
                    ev_mask(&pos, cls, p);
                    if (write_rec(f, &pos, p, out) != 0) { fclose(f); return 1; }
                    written++;
                    progress("positions", written, positions, t0);
                }
            }
            int n = sr_rank(&pos, d1, d2, 3, cands, MG_MAX_PLAYS, NULL);
            int pick = 0;
            if (n > 1 && rng_unit(&rng) < explore) {
                int top = n < 3 ? n : 3;
                pick = (int)(rng_next(&rng) % (uint64_t)top);
            }
            mg_board next;
            mg_swap(&cands[pick].play.after, &next);
            pos = next;
            int result = mg_result(&pos);
            if (result != 0) {
                /* pos: the side on roll after move `moves`, i.e. the parity (moves + 1) & 1 */
                float mine[NN_OUT], theirs[NN_OUT];
                ev_terminal(result, mine);
                ev_invert(mine, theirs);
                for (int k = 0; k < n_pending && written < positions; k++) {
                    int same = pending[k].side == ((moves + 1) & 1);
                    if (write_rec(f, &pending[k].b, same ? mine : theirs, out) != 0) {
                        fclose(f);
                        return 1;
                    }
                    written++;
                    progress("positions", written, positions, t0);
                }
                break;
            }
            d1 = roll_die(&rng); d2 = roll_die(&rng);
        }
    }
    fprintf(stderr, "\n");
    if (fclose(f) != 0) { fprintf(stderr, "refine: write failed on %s\n", out); return 1; }
    if (ply == 0) printf("gen: %ld positions (game outcomes as targets) in %.1f s -> %s\n",
                         written, now_s() - t0, out);
    else printf("gen: %ld positions (%d-ply targets) in %.1f s -> %s\n", written, ply,
                now_s() - t0, out);
    return 0;
}

/* ---- fit ---------------------------------------------------------------------------- */

typedef struct { mg_board b; float p[NN_OUT]; } rec_t;

static rec_t *recs;
static long n_recs, cap_recs;

static int read_data(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "refine: cannot read %s\n", path); return -1; }
    uint8_t rec[REC_BYTES];
    size_t got;
    while ((got = fread(rec, 1, REC_BYTES, f)) == REC_BYTES) {
        if (n_recs == cap_recs) {
            cap_recs = cap_recs ? cap_recs * 2 : 1 << 20;
            recs = realloc(recs, sizeof(rec_t) * (size_t)cap_recs);
            if (!recs) { fprintf(stderr, "refine: out of memory\n"); fclose(f); return -1; }
        }
        memcpy(&recs[n_recs].b, rec, 50);
        memcpy(recs[n_recs].p, rec + 50, sizeof recs[n_recs].p);
        n_recs++;
    }
    fclose(f);
    if (got != 0) { fprintf(stderr, "refine: %s ends in a partial record\n", path); return -1; }
    return 0;
}

/* mean squared error over the outputs, and mean absolute equity error, on idx[0..n) */
static void holdout_error(nn_net *net, const long *idx, long n, double *mse, double *eq_err) {
    double se = 0, ee = 0;
    for (long j = 0; j < n; j++) {
        const rec_t *r = &recs[idx[j]];
        float in[EV_N_IN], p[NN_OUT];
        nn_trace tr;
        ev_encode(&r->b, in);
        nn_forward(net, in, &tr);
        memcpy(p, tr.out, sizeof p);
        for (int k = 0; k < NN_OUT; k++) se += (p[k] - r->p[k]) * (p[k] - r->p[k]);
        ee += fabs(ev_equity(p) - ev_equity(r->p));
    }
    *mse = n ? se / ((double)n * NN_OUT) : 0;
    *eq_err = n ? ee / (double)n : 0;
}

static int cmd_fit(ev_weights *w, int epochs, double alpha0, double alpha_end, uint64_t seed,
                   const char *out) {
    /* each record teaches the net that judges it in play (ev_net_index) */
    long *idx[3], cnt[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++) idx[c] = malloc(sizeof(long) * (size_t)(n_recs ? n_recs : 1));
    for (long i = 0; i < n_recs; i++) {
        int cls = ev_class(&recs[i].b);
        if (cls == EV_CONTACT || cls == EV_RACE) {
            int k = ev_net_index(w, &recs[i].b, cls);
            idx[k][cnt[k]++] = i;
        }
    }
    nn_net *nets[3] = { &w->contact, &w->race, &w->crashed };
    const char *names[3] = { "contact", "race", "crashed" };
    int n_nets = w->crashed.n_hid > 0 ? 3 : 2;
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 5;
    for (int c = 0; c < n_nets; c++) {   /* a fixed shuffle; the last 2% are held out */
        for (long i = cnt[c] - 1; i > 0; i--) {
            long j = (long)(rng_next(&rng) % (uint64_t)(i + 1));
            long t = idx[c][i]; idx[c][i] = idx[c][j]; idx[c][j] = t;
        }
    }
    printf("fit: %ld contact, %ld race", cnt[0], cnt[1]);
    if (n_nets == 3) printf(", %ld crashed", cnt[2]);
    printf(" positions; %d epochs, alpha %.4f -> %.4f\n", epochs, alpha0, alpha_end);
    for (int c = 0; c < n_nets; c++) {
        long hold = cnt[c] / 50, train = cnt[c] - hold;
        double mse, eqe;
        holdout_error(nets[c], idx[c] + train, hold, &mse, &eqe);
        printf("%s epoch 0: held-out mse %.5f, equity error %.4f\n", names[c], mse, eqe);
        double t0 = now_s();
        for (int e = 1; e <= epochs; e++) {
            double frac = epochs > 1 ? (double)(e - 1) / (epochs - 1) : 0;
            float alpha = (float)(alpha0 * pow(alpha_end / alpha0, frac));
            for (long i = train - 1; i > 0; i--) {   /* reshuffle the training part */
                long j = (long)(rng_next(&rng) % (uint64_t)(i + 1));
                long t = idx[c][i]; idx[c][i] = idx[c][j]; idx[c][j] = t;
            }
            for (long j = 0; j < train; j++) {
                const rec_t *r = &recs[idx[c][j]];
                float in[EV_N_IN];
                nn_trace tr;
                ev_encode(&r->b, in);
                nn_forward(nets[c], in, &tr);
                nn_train_step_loss(nets[c], in, &tr, r->p, alpha, fit_xent);
                if ((j & 0xFFF) == 0) progress(names[c], j, train, t0);
            }
            holdout_error(nets[c], idx[c] + train, hold, &mse, &eqe);
            fprintf(stderr, "\n");
            printf("%s epoch %d (alpha %.4f): held-out mse %.5f, equity error %.4f\n", names[c],
                   e, alpha, mse, eqe);
            fflush(stdout);
            if (wts_save(w, out) != 0) { fprintf(stderr, "refine: cannot write %s\n", out); return 1; }
        }
    }
    for (int c = 0; c < 3; c++) free(idx[c]);
    return 0;
}

/* ---- duel --------------------------------------------------------------------------- */

static ev_weights wa, wb;

/* Starting positions for duel --from: decisions of DEC_BYTES (toolutil.h), the board (row 0 on
 * roll) then the first roll's two dice, as sldata gen --from reads them (e.g.
 * few_positions.py's). */
static uint8_t *starts;
static long n_starts;

static int read_starts(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "refine: cannot read %s\n", path); return 1; }
    uint8_t d[DEC_BYTES];
    size_t got;
    long cap = 0;
    while ((got = fread(d, 1, DEC_BYTES, f)) == DEC_BYTES) {
        const char *why = dec_problem(d);
        if (why) {
            fprintf(stderr, "refine: start %ld of %s is not a position in play and a roll (%s)\n",
                    n_starts + 1, path, why);
            fclose(f);
            return 1;
        }
        if (n_starts == cap) {
            cap = cap ? 2 * cap : 1024;
            uint8_t *more = realloc(starts, (size_t)cap * DEC_BYTES);
            if (!more) { fprintf(stderr, "refine: out of memory\n"); fclose(f); return 1; }
            starts = more;
        }
        memcpy(starts + (size_t)n_starts * DEC_BYTES, d, DEC_BYTES);
        n_starts++;
    }
    int bad = ferror(f) || got != 0;
    fclose(f);
    if (bad || n_starts == 0) {
        fprintf(stderr, "refine: %s %s\n", path, n_starts == 0 && !bad ? "holds no start" : "ends in a partial start");
        return 1;
    }
    return 0;
}

/* Pair g: A and B each take the side that moves first once, on the same dice; from the
 * opening (no --from) or from start g mod n_starts with its own first roll. Cubeless points. */
static int cmd_duel(int level_a, int level_b, long pairs, uint64_t seed) {
    double sum = 0, sumsq = 0;
    long wins_a = 0, games = 0;
    double t0 = now_s();
    for (long g = 0; g < pairs; g++) {
        double pair_pts = 0;
        for (int a_first = 0; a_first < 2; a_first++) {
            uint64_t rng = seed * 1000003u + (uint64_t)g * 7919u;
            mg_board pos;
            int d1, d2, side = 0;   /* side 0 moves first; it is A when a_first */
            if (n_starts) {
                const uint8_t *d = starts + (size_t)(g % n_starts) * DEC_BYTES;
                memcpy(&pos, d, 50);
                d1 = d[50];
                d2 = d[51];
            } else {
                mg_start(&pos);
                do { d1 = roll_die(&rng); d2 = roll_die(&rng); } while (d1 == d2);
            }
            for (int moves = 0; moves < 2000; moves++) {
                int a_moves = (side == 0) == (a_first == 1);
                ev_w = a_moves ? wa : wb;
                sr_rank(&pos, d1, d2, a_moves ? level_a : level_b, cands, 1, NULL);
                mg_board next;
                mg_swap(&cands[0].play.after, &next);
                pos = next;
                int r = mg_result(&pos);
                if (r != 0) {   /* r < 0: the side that just moved won |r| points */
                    double pts = (double)(-r);
                    pair_pts += a_moves ? pts : -pts;
                    wins_a += a_moves;
                    break;
                }
                side ^= 1;
                d1 = roll_die(&rng); d2 = roll_die(&rng);
            }
            games++;
        }
        double m = pair_pts / 2;
        sum += m;
        sumsq += m * m;
        progress("pairs", g + 1, pairs, t0);
    }
    fprintf(stderr, "\n");
    double mean = sum / pairs, var = pairs > 1 ? (sumsq - pairs * mean * mean) / (pairs - 1) : 0;
    double half = 1.96 * sqrt(var / pairs);
    printf("duel: %ld games, A (level %d) %+.3f ppg, 95%% CI [%+.3f, %+.3f], A wins %.3f\n",
           games, level_a, mean, mean - half, mean + half, (double)wins_a / games);
    return 0;
}

/* ---- average ------------------------------------------------------------------------ */

/* The element-wise mean of weights files of the same shape (e.g. checkpoints of one run, or
 * runs started from the same weights), which smooths the noise of the last learning steps. */
static int cmd_average(const char **paths, int n, const char *out) {
    static ev_weights sum, one;
    for (int f = 0; f < n; f++) {
        ev_weights *w = f == 0 ? &sum : &one;
        if (wts_load(w, paths[f]) != 0) { fprintf(stderr, "refine: cannot load %s\n", paths[f]); return 1; }
        if (f == 0) continue;
        nn_net *a[3] = { &sum.contact, &sum.race, &sum.crashed };
        nn_net *b[3] = { &one.contact, &one.race, &one.crashed };
        for (int k = 0; k < 3; k++) {
            if (a[k]->n_hid != b[k]->n_hid) { fprintf(stderr, "refine: %s has another shape\n", paths[f]); return 1; }
            int nh = a[k]->n_hid;
            for (long i = 0; i < (long)EV_N_IN * nh; i++) a[k]->w_in[i] += b[k]->w_in[i];
            for (int i = 0; i < nh; i++) a[k]->b_hid[i] += b[k]->b_hid[i];
            for (int i = 0; i < NN_OUT * nh; i++) a[k]->w_out[i] += b[k]->w_out[i];
            for (int i = 0; i < NN_OUT; i++) a[k]->b_out[i] += b[k]->b_out[i];
        }
        if (one.games_trained > sum.games_trained) sum.games_trained = one.games_trained;
    }
    nn_net *a[3] = { &sum.contact, &sum.race, &sum.crashed };
    for (int k = 0; k < 3; k++) {   /* (a missing crashed net has 0 hidden units: nothing) */
        int nh = a[k]->n_hid;
        for (long i = 0; i < (long)EV_N_IN * nh; i++) a[k]->w_in[i] /= n;
        for (int i = 0; i < nh; i++) a[k]->b_hid[i] /= n;
        for (int i = 0; i < NN_OUT * nh; i++) a[k]->w_out[i] /= n;
        for (int i = 0; i < NN_OUT; i++) a[k]->b_out[i] /= n;
    }
    if (wts_save(&sum, out) != 0) { fprintf(stderr, "refine: cannot write %s\n", out); return 1; }
    printf("average of %d files -> %s\n", n, out);
    return 0;
}

static void usage(void) {
    fprintf(stderr,
        "refine: deeper-search targets for the evaluator nets\n"
        "  refine gen --weights W --positions N --seed S --out DATA [--explore 0.1]\n"
        "             [--sample 0.5] [--ply 1] [--only contact|race]\n"
        "      0-ply self-play with W; writes sampled positions with their ply-N targets\n"
        "      (--ply 0: the outcome of the game each came from)\n"
        "      (--only: positions of that class alone)\n"
        "  refine fit --weights W --out W2 [--epochs 4] [--alpha 0.01] [--alpha-end 0.002]\n"
        "             [--seed S] [--loss mse|xent] DATA...\n"
        "      trains W toward the targets in DATA (2%% held out), writes W2 after each epoch\n"
        "  refine duel --weights A --against B [--pairs 5000] [--level 3] [--level-b 3]\n"
        "             [--seed S] [--from STARTS]\n"
        "      duplicate-dice games, A against B; levels 3 (0-ply) or 4 (1-ply); --from:\n"
        "      each pair from the next of STARTS' positions and first rolls (52 bytes each,\n"
        "      as sldata gen --from) instead of the opening\n"
        "  refine average --out W W1 W2 ...\n"
        "      the element-wise mean of weights files of one shape\n");
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(); return argc < 2 ? 2 : 0; }
    const char *cmd = argv[1], *weights = NULL, *against = NULL, *out = NULL, *from = NULL;
    long positions = 100000, pairs = 5000;
    uint64_t seed = 1;
    double explore = 0.1, sample = 0.5, alpha0 = 0.01, alpha_end = 0.002;
    int ply = 1, epochs = 4, level_a = 3, level_b = -1, only = 0;
    const char *data[64];
    int n_data = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            if (n_data == 64) { fprintf(stderr, "refine: too many data files\n"); return 2; }
            data[n_data++] = a;
            continue;
        }
        if (!v) { usage(); return 2; }
        if (!strcmp(a, "--weights")) weights = v;
        else if (!strcmp(a, "--against")) against = v;
        else if (!strcmp(a, "--from")) from = v;
        else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--positions")) positions = atol(v);
        else if (!strcmp(a, "--pairs")) pairs = atol(v);
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--explore")) explore = atof(v);
        else if (!strcmp(a, "--sample")) sample = atof(v);
        else if (!strcmp(a, "--ply")) ply = atoi(v);
        else if (!strcmp(a, "--only")) {
            if (!strcmp(v, "contact")) only = EV_CONTACT;
            else if (!strcmp(v, "race")) only = EV_RACE;
            else { usage(); return 2; }
        }
        else if (!strcmp(a, "--epochs")) epochs = atoi(v);
        else if (!strcmp(a, "--loss")) {
            if ((fit_xent = parse_loss(v)) < 0) {
                fprintf(stderr, "refine: --loss takes mse or xent, not %s\n", v);
                return 2;
            }
        }
        else if (!strcmp(a, "--alpha")) alpha0 = atof(v);
        else if (!strcmp(a, "--alpha-end")) alpha_end = atof(v);
        else if (!strcmp(a, "--level")) level_a = atoi(v);
        else if (!strcmp(a, "--level-b")) level_b = atoi(v);
        else { usage(); return 2; }
        i++;
    }
    if (level_b < 0) level_b = level_a;
    if (!strcmp(cmd, "average")) {
        if (!out || n_data < 2) { usage(); return 2; }
        return cmd_average(data, n_data, out);
    }
    if (!weights) { fprintf(stderr, "refine: --weights is needed\n"); return 2; }
    bo_init();
    if (wts_load(&ev_w, weights) != 0) { fprintf(stderr, "refine: cannot load %s\n", weights); return 1; }
    if (!strcmp(cmd, "gen")) {
        if (!out || ply < 0 || ply > 2) { usage(); return 2; }
        return cmd_gen(positions, seed, explore, sample, ply, only, out);
    }
    if (!strcmp(cmd, "fit")) {
        if (!out || n_data == 0 || epochs < 1) { usage(); return 2; }
        for (int i = 0; i < n_data; i++) if (read_data(data[i]) != 0) return 1;
        static ev_weights w;   /* about 1 MB: not on the stack */
        w = ev_w;
        return cmd_fit(&w, epochs, alpha0, alpha_end, seed, out);
    }
    if (!strcmp(cmd, "duel")) {
        if (!against || level_a < 3 || level_a > 5 || level_b < 3 || level_b > 5) { usage(); return 2; }
        wa = ev_w;
        if (wts_load(&wb, against) != 0) { fprintf(stderr, "refine: cannot load %s\n", against); return 1; }
        if (from && read_starts(from) != 0) return 1;
        return cmd_duel(level_a, level_b, pairs, seed);
    }
    usage();
    return 2;
}
