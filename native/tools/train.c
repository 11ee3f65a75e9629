/* train.c: the self-play TD training tool for the evaluator's nets (contact, race, and the
 * crashed net when the file has one: each position teaches the net that judges it in play).
 * Greedy 0-ply self-play; after each move the net's value of the position before it moves
 * toward the value of the best play (TD(0)), and toward the result at the game's end.
 * Seeded and reproducible (one thread; game g's dice come from its own stream of the seed and
 * g, so a run continued from one of its checkpoints with --continue plays exactly the games
 * it would have played), with a progress bar, periodic checkpoints and a log of strength
 * against a fixed yardstick (the level-1 heuristic, duplicate dice).
 * Not part of the game: build with `make -C native/tools`, run `native/tools/train --help`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "toolutil.h"
#include "wtsio.h"

static mg_play plays[MG_MAX_PLAYS];
static ev_weights net;   /* the nets being trained */
static int loss_xent;    /* --loss xent: cross-entropy instead of squared error */

/* Best play by 0-ply net; p_mover gets the mover's probabilities after it. */
static int choose_net(const ev_weights *w, int n, float p_mover[NN_OUT]) {
    int best = 0;
    float best_eq = -1e9f, p[NN_OUT], q[NN_OUT];
    for (int i = 0; i < n; i++) {
        mg_board sw;
        mg_swap(&plays[i].after, &sw);
        ev_evaluate_w(w, &sw, p);
        ev_invert(p, q);
        float eq = ev_equity(q);
        if (eq > best_eq) { best_eq = eq; best = i; if (p_mover) memcpy(p_mover, q, sizeof q); }
    }
    return best;
}

static int choose_heur(int n) {
    int best = 0;
    float best_s = -1e9f;
    for (int i = 0; i < n; i++) {
        float s = ev_heuristic(&plays[i].after);
        if (s > best_s) { best_s = s; best = i; }
    }
    return best;
}

/* One training game; returns the number of moves. */
static int train_game(uint64_t *rng, float alpha_contact, float alpha_race) {
    mg_board pos;
    mg_start(&pos);
    int d1, d2, moves = 0;
    do { d1 = roll_die(rng); d2 = roll_die(rng); } while (d1 == d2);
    for (;;) {
        int cls = ev_class(&pos);
        float in[EV_N_IN];
        nn_trace tr;
        nn_net *nnet = NULL;   /* the net that learns from this position, if any */
        float alpha = cls == EV_CONTACT ? alpha_contact : alpha_race;
        if ((cls == EV_CONTACT || cls == EV_RACE) && alpha > 0.0f) {
            nn_net *nets[3] = { &net.contact, &net.race, &net.crashed };
            nnet = nets[ev_net_index(&net, &pos, cls)];   /* the net that judges it in play */
            ev_encode(&pos, in);
            nn_forward(nnet, in, &tr);
        }
        int n = mg_generate(&pos, d1, d2, plays);
        float target[NN_OUT];
        int best = choose_net(&net, n, target);
        if (nnet) {
            ev_mask(&pos, cls, target);
            nn_train_step_loss(nnet, in, &tr, target, alpha, loss_xent);
        }
        moves++;
        mg_board next;
        mg_swap(&plays[best].after, &next);
        pos = next;
        if (mg_result(&pos) != 0 || moves > 2000) return moves;
        d1 = roll_die(rng); d2 = roll_die(rng);
    }
}

/* Yardstick: the net (0-ply) against the heuristic with the same dice played from both
 * sides; returns points per game for the net, and its gammon rate in *gammons. */
static double yardstick(int pairs, uint64_t seed, double *win_rate) {
    double points = 0.0, wins = 0;
    for (int g = 0; g < pairs; g++) {
        for (int net_first = 0; net_first < 2; net_first++) {
            uint64_t rng = seed + (uint64_t)g * 7919u;
            mg_board pos;
            mg_start(&pos);
            int d1, d2, side = 0;   /* side 0 starts; net plays side 0 when net_first */
            do { d1 = roll_die(&rng); d2 = roll_die(&rng); } while (d1 == d2);
            for (int moves = 0; moves < 2000; moves++) {
                int n = mg_generate(&pos, d1, d2, plays);
                int net_moves = (side == 0) == (net_first == 1);
                int best = net_moves ? choose_net(&net, n, NULL) : choose_heur(n);
                mg_board next;
                mg_swap(&plays[best].after, &next);
                pos = next;
                int r = mg_result(&pos);
                if (r != 0) {   /* r < 0: the side that just moved won |r| points */
                    double pts = (double)(-r);
                    int mover_is_net = net_moves;
                    points += mover_is_net ? pts : -pts;
                    wins += mover_is_net ? 1 : 0;
                    break;
                }
                side ^= 1;
                d1 = roll_die(&rng); d2 = roll_die(&rng);
            }
        }
    }
    if (win_rate) *win_rate = wins / (2.0 * pairs);
    return points / (2.0 * pairs);
}

/* Reads a weights file whose nets have fewer inputs a side than EV_PER_SIDE (an earlier
 * encoding whose inputs are the first ones of each side's block) into `net`, giving the new
 * inputs zero weights, so the widened nets play exactly as the old ones until trained. */
static int widen_weights(const char *path) {
    static ev_weights old;
    if (wts_load_inputs(&old, path, 0) != 0) return -1;
    int old_in = old.contact.n_in, per_old = old_in / 2;
    if (old_in % 2 || per_old > EV_PER_SIDE) return -1;
    nn_net *from[3] = { &old.contact, &old.race, &old.crashed };
    nn_net *to[3] = { &net.contact, &net.race, &net.crashed };
    for (int n = 0; n < 3; n++) {
        const nn_net *o = from[n];
        nn_net *m = to[n];
        int nh = o->n_hid;
        memset(m, 0, sizeof *m);
        if (nh == 0) continue;   /* no crashed net */
        m->n_in = EV_N_IN;
        m->n_hid = nh;
        for (int i = 0; i < old_in; i++) {   /* old input i: side i / per_old, place i % per_old */
            int row = (i / per_old) * EV_PER_SIDE + i % per_old;
            memcpy(m->w_in + (size_t)row * nh, o->w_in + (size_t)i * nh, sizeof(float) * nh);
        }
        memcpy(m->b_hid, o->b_hid, sizeof(float) * nh);
        memcpy(m->w_out, o->w_out, sizeof(float) * NN_OUT * nh);
        memcpy(m->b_out, o->b_out, sizeof(float) * NN_OUT);
    }
    net.games_trained = old.games_trained;
    return 0;
}

/* Gives a net more hidden units: the new ones get small random input weights and zero
 * output weights, so the grown net plays exactly as before until trained. */
static void grow_hidden(nn_net *m, int nh_new, uint64_t seed) {
    static nn_net old, fresh;   /* about 520 KB each: not on the stack */
    old = *m;
    int nh = old.n_hid;
    nn_init_random(&fresh, old.n_in, nh_new, seed);
    m->n_hid = nh_new;
    for (int i = 0; i < old.n_in; i++)
        for (int h = 0; h < nh_new; h++)
            m->w_in[i * nh_new + h] = h < nh ? old.w_in[i * nh + h]
                                             : 0.25f * fresh.w_in[i * nh_new + h];
    for (int h = 0; h < nh_new; h++) m->b_hid[h] = h < nh ? old.b_hid[h] : 0.0f;
    for (int k = 0; k < NN_OUT; k++)
        for (int h = 0; h < nh_new; h++)
            m->w_out[k * nh_new + h] = h < nh ? old.w_out[k * nh + h] : 0.0f;
}

static void usage(void) {
    fprintf(stderr,
        "train: self-play TD(0) training of the evaluator nets\n"
        "  --games N        games to play (default 1000000)\n"
        "  --minutes M      stop after M minutes of wall time (default: no limit)\n"
        "  --stop-at N      stop after game N with a checkpoint, the schedule still that of\n"
        "                   --games (a later --continue goes on exactly)\n"
        "  --seed S         dice and initial-weights seed (default 1)\n"
        "  --out FILE       weights file written at each checkpoint (default native/evaluator.wts)\n"
        "  --resume FILE    start from these weights instead of random ones\n"
        "  --continue FILE  go on with a checkpoint of this same run (same --games, --seed,\n"
        "                   --alpha, --alpha-end): the games after its count are played\n"
        "                   exactly as the uninterrupted run would have played them\n"
        "  --first G        with --continue: the run's next game is its game G (a run that\n"
        "                   began with --resume from a file that already held games)\n"
        "  --grow-contact H give the loaded contact net H hidden units (the new ones at zero\n"
        "                   output weights, so it plays as before until trained)\n"
        "  --widen FILE     start from weights of an encoding with fewer inputs a side (the\n"
        "                   same inputs first): the new inputs start with zero weights\n"
        "  --hidden H       hidden units of each net (default %d)\n"
        "  --alpha A        initial learning rate (default 0.1)\n"
        "  --alpha-end A    learning rate reached at the last game (default 0.02)\n"
        "  --check N        yardstick every N games (default 20000)\n"
        "  --pairs P        duplicate pairs per yardstick (default 250)\n"
        "  --log FILE       append the yardstick log here (default: stdout only)\n"
        "  --only NET       train only this net (contact or race); the other still plays\n"
        "  --loss L         mse (squared error, the default) or xent (cross-entropy)\n"
        "  (--widen or --grow-contact with --games 0 only writes the reshaped file to --out)\n", EV_N_HID);
}

int main(int argc, char **argv) {
    long games = 1000000, check = 20000, stop_at = 0, first = 0;
    double minutes = 0, alpha0 = 0.1, alpha_end = 0.02;
    uint64_t seed = 1;
    int hidden = EV_N_HID, pairs = 250;
    const char *out = "native/evaluator.wts", *resume = NULL, *logpath = NULL, *widen = NULL;
    int cont = 0, only = 0, grow_contact = 0;   /* only: 0 both nets learn, else EV_CONTACT or EV_RACE alone */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(); return 0; }
        if (!v) { usage(); return 2; }
        if (!strcmp(a, "--games")) games = atol(v);
        else if (!strcmp(a, "--minutes")) minutes = atof(v);
        else if (!strcmp(a, "--stop-at")) stop_at = atol(v);
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--resume")) resume = v;
        else if (!strcmp(a, "--continue")) { resume = v; cont = 1; }
        else if (!strcmp(a, "--first")) first = atol(v);
        else if (!strcmp(a, "--grow-contact")) grow_contact = atoi(v);
        else if (!strcmp(a, "--widen")) widen = v;
        else if (!strcmp(a, "--hidden")) hidden = atoi(v);
        else if (!strcmp(a, "--alpha")) alpha0 = atof(v);
        else if (!strcmp(a, "--alpha-end")) alpha_end = atof(v);
        else if (!strcmp(a, "--check")) check = atol(v);
        else if (!strcmp(a, "--pairs")) pairs = atoi(v);
        else if (!strcmp(a, "--log")) logpath = v;
        else if (!strcmp(a, "--loss")) {
            if ((loss_xent = parse_loss(v)) < 0) {
                fprintf(stderr, "train: --loss takes mse or xent, not %s\n", v);
                return 2;
            }
        }
        else if (!strcmp(a, "--only")) {
            if (!strcmp(v, "contact")) only = EV_CONTACT;
            else if (!strcmp(v, "race")) only = EV_RACE;
            else { fprintf(stderr, "train: --only takes contact or race, not %s\n", v); return 2; }
        }
        else { usage(); return 2; }
        i++;
    }
    if (hidden < 1 || hidden > NN_MAX_HID) { fprintf(stderr, "hidden must be 1..%d\n", NN_MAX_HID); return 2; }
    bo_init();
    if (widen) {
        if (widen_weights(widen) != 0) { fprintf(stderr, "train: cannot widen %s\n", widen); return 1; }
    } else if (resume) {
        if (wts_load(&net, resume) != 0) { fprintf(stderr, "train: cannot load %s\n", resume); return 1; }
    } else {
        nn_init_random(&net.contact, EV_N_IN, hidden, seed * 2 + 1);
        nn_init_random(&net.race, EV_N_IN, hidden, seed * 2 + 2);
        net.games_trained = 0;
    }
    if (grow_contact) {
        if (grow_contact <= net.contact.n_hid || grow_contact > NN_MAX_HID) {
            fprintf(stderr, "train: --grow-contact must be more than the contact net's %d hidden "
                    "units and at most %d\n", net.contact.n_hid, NN_MAX_HID);
            return 2;
        }
        grow_hidden(&net.contact, grow_contact, seed * 2 + 1);
    }
    if ((widen || grow_contact) && games == 0) {   /* reshape only: the same play */
        if (wts_save(&net, out) != 0) { fprintf(stderr, "train: cannot write %s\n", out); return 1; }
        return 0;
    }
    FILE *log = logpath ? fopen(logpath, "a") : NULL;
    double t0 = now_s(), last_bar = 0;
    long g, g_first = cont ? (first > 0 ? first : (long)net.games_trained + 1) : 1;
    printf("# train seed=%llu games=%ld hidden=%d alpha=%.3f->%.3f start=%u\n",
           (unsigned long long)seed, games, hidden, alpha0, alpha_end, net.games_trained);
    printf("# games  minutes  yardstick_ppg  yardstick_win_rate\n");
    if (log) fprintf(log, "# train seed=%llu hidden=%d alpha=%.3f->%.3f\n",
                     (unsigned long long)seed, hidden, alpha0, alpha_end);
    for (g = g_first; g <= games; g++) {
        double frac = (double)(g - 1) / (double)games;
        if (minutes > 0) {
            double tf = (now_s() - t0) / (minutes * 60.0);
            if (tf > frac) frac = tf;
        }
        /* geometric decay from alpha0 to alpha_end over the run */
        float alpha = (float)(alpha0 * pow(alpha_end / alpha0, frac));
        uint64_t game_rng = seed * 0x2545F4914F6CDD1DULL + (uint64_t)g * 0x9E3779B97F4A7C15ULL;
        train_game(&game_rng, only == EV_RACE ? 0.0f : alpha, only == EV_CONTACT ? 0.0f : alpha);
        net.games_trained++;
        double t = now_s();
        if (t - last_bar > 1.0 || g == games) {
            last_bar = t;
            double rate = (g - g_first + 1) / (t - t0);
            int width = 30, filled = (int)(width * (minutes > 0 && frac > (double)g / games ? frac : (double)g / games));
            char bar[64];
            for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '.';
            bar[width] = 0;
            fprintf(stderr, "\r[%s] %ld games  %.0f games/s  alpha %.4f  %.1f min ", bar, g, rate,
                    alpha, (t - t0) / 60.0);
            fflush(stderr);
        }
        int stop = (minutes > 0 && (t - t0) > minutes * 60.0) || g == stop_at;
        if (g % check == 0 || g == games || stop) {
            double wr, ppg = yardstick(pairs, 424242, &wr);
            if (wts_save(&net, out) != 0) fprintf(stderr, "\ntrain: cannot write %s\n", out);
            printf("%8u %8.1f %+.3f %.3f\n", net.games_trained, (now_s() - t0) / 60.0, ppg, wr);
            fflush(stdout);
            if (log) { fprintf(log, "%u %.1f %+.3f %.3f\n", net.games_trained, (now_s() - t0) / 60.0, ppg, wr); fflush(log); }
        }
        if (stop) break;
    }
    fprintf(stderr, "\n");
    if (log) fclose(log);
    return 0;
}
