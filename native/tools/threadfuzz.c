/* threadfuzz.c: several threads rank, evaluate and judge the cube on the same positions at
 * once, side by side with different search settings (bg_search: the defaults, and a narrow
 * 3-ply search with rollouts and no cache), each answer compared with the one a single
 * thread gave first at the same settings; then a rollout's own
 * threads (rollout.c) polled while they run, stopped midway and freed, their answer compared
 * with one thread's, in money play and at a match score. Each case also asks the match cube of a
 * small bear-off, at six scores ten cases each (bearoff_match.c builds a score's tables on a first
 * ask and keeps four). For the ThreadSanitizer build (tsan_check.sh), which reports any data
 * race between them. Positions come from seeded random play. Not a benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../bg.h"
#include "movegen.h"
#include "threads.h"
#include "toolutil.h"

#define MAX_CASES 400
#define THREADS 3
#define KEEP 8          /* ranked plays compared per case */
#define ALIKE_TRIALS 3  /* a rollout's trials on one thread and on THREADS, compared: one a
                           thread (each trial weighs 21 rolls a half-move, slow under TSan) */
typedef struct {
    int8_t board[BG_BOARD_LEN];
    int die1, die2, level, ply, n, legal, work;
    bg_play best[KEEP];
    float probs[BG_N_PROBS], cube[BG_CUBE_OUT_LEN];
    int cube_bits;
    int8_t bearoff[BG_BOARD_LEN];   /* a small two-sided bear-off, and its match cube at one
                                       of more scores than bearoff_match.c keeps tables for */
    bg_match terms;
    float match_cube[BG_CUBE_OUT_LEN];
    int match_bits;
    float judged[BG_N_PROBS], judged_equity;   /* the board as a play's result, at ply */
    int judged_n;
} answer;

/* The two settings threads search with side by side: the defaults, and level 5 narrowed to
 * the least work budget, one roll deeper on its closest candidates and rolling them out,
 * with the cache off, a cube decision's and a judgement's root rolls shared with a helper
 * thread (so the helpers' searches run beside the others'). Thread k judges every case, from case k on, with settings[k % 2], so
 * threads rank the same positions at once with different settings. */
static bg_search settings[2];
static answer expect[2][MAX_CASES];
static int n_cases;

/* One case judged by the calling thread with settings s: ranking (level 3..5), evaluation
 * (ply 0..2), the board judged as a play's result (ply 2..0: the first case's shares its rolls
 * at settings[1]), cube. */
static void judge(answer *a, const bg_search *s) {
    bg_ranking ranking = {a->best, KEEP, 0, 0};
    memset(a->best, 0, sizeof a->best);
    a->n = bg_rank_plays(a->board, a->die1, a->die2, a->level, NULL, s, &ranking);
    a->legal = ranking.legal;
    a->work = ranking.work;
    if (bg_evaluate(a->board, a->ply, s, a->probs) != 0) a->probs[0] = -1.0f;
    a->judged_n = bg_judge_plays(a->board, 1, (a->ply + 2) % 3, NULL, s, a->judged,
                                 &a->judged_equity);
    a->cube_bits = bg_cube_decision(a->board, a->level == 5 ? 4 : a->level, NULL, s, a->cube);
    a->match_bits = bg_cube_decision(a->bearoff, a->level, &a->terms, s, a->match_cube);
}

static int same(const answer *x, const answer *y) {
    return x->n == y->n && x->legal == y->legal && x->work == y->work &&
           x->cube_bits == y->cube_bits && memcmp(x->best, y->best, sizeof x->best) == 0 &&
           x->match_bits == y->match_bits &&
           memcmp(x->match_cube, y->match_cube, sizeof x->match_cube) == 0 &&
           memcmp(x->probs, y->probs, sizeof x->probs) == 0 && x->judged_n == y->judged_n &&
           memcmp(x->judged, y->judged, sizeof x->judged) == 0 &&
           memcmp(&x->judged_equity, &y->judged_equity, sizeof x->judged_equity) == 0 &&
           memcmp(x->cube, y->cube, sizeof x->cube) == 0;
}

static int mismatches;
static bg_mutex count_lock;   /* bg_mutex_init'ed in main, before the threads */

static void *worker(void *arg) {
    const int k = (int)(long)arg, s = k % 2;
    answer *mine = malloc(sizeof *mine);
    for (int j = 0; j < n_cases; j++) {   /* every thread every case, from its own start */
        const int i = (j + k) % n_cases;
        *mine = expect[s][i];
        judge(mine, &settings[s]);
        if (!same(mine, &expect[s][i])) {
            bg_mutex_lock(&count_lock);
            mismatches++;
            bg_mutex_unlock(&count_lock);
        }
    }
    free(mine);
    return NULL;
}

/* A short rollout of two plays from the start on `threads` threads, polled until it ends, in
 * money play (match 0) or a 5-point match at 2-away/4-away: its figures into mean/se
 * (2 * BG_ROLLOUT_FIGURES each); returns the trials done. */
static int rollout_on(int threads, int trials, int stop_early, int match, double *mean,
                      double *se) {
    int8_t start[BG_BOARD_LEN], boards[2 * BG_BOARD_LEN];
    bg_play two[2];
    bg_ranking ranking = {two, 2, 0, 0};
    bg_start(start);
    if (bg_rank_plays(start, 3, 1, 3, NULL, NULL, &ranking) != 2) return -1;
    memcpy(boards, two[0].board, BG_BOARD_LEN);
    memcpy(boards + BG_BOARD_LEN, two[1].board, BG_BOARD_LEN);
    int done = 0;
    const bg_match terms = {1, 0, match ? 5 : 0, 2, 4, 0};
    const bg_rollout_plan plan = {.kind = BG_ROLLOUT_PLAYS, .trials = trials, .level = 3,
                                  .truncate = 3, .threads = threads, .seed = 99};
    bg_rollout *ro = NULL;
    if (bg_rollout_start(boards, 2, &plan, &terms, NULL, &ro)) return -1;
    while (bg_rollout_busy(ro)) {       /* polled as the game polls it, a pause between
                                           (spinning took most of the sanitizer run's time) */
        done = bg_rollout_poll(ro, mean, se);
        if (stop_early && done > 0) bg_rollout_stop(ro);
        bg_thread_yield();
    }
    done = bg_rollout_poll(ro, mean, se);
    bg_rollout_free(ro);
    return done;
}

/* The rollout on 3 threads gives one thread's bits; a stopped one ends and frees cleanly. */
static int rollout_mismatches(int match) {
    double m1[2 * BG_ROLLOUT_FIGURES], s1[2 * BG_ROLLOUT_FIGURES];
    double m3[2 * BG_ROLLOUT_FIGURES], s3[2 * BG_ROLLOUT_FIGURES];
    const int one = rollout_on(1, ALIKE_TRIALS, 0, match, m1, s1);
    const int three = rollout_on(THREADS, ALIKE_TRIALS, 0, match, m3, s3);
    int bad = one != ALIKE_TRIALS || three != ALIKE_TRIALS || memcmp(m1, m3, sizeof m1)
              || memcmp(s1, s3, sizeof s1);
    const int stopped = rollout_on(THREADS, 400, 1, match, m3, s3);
    bad += stopped < 1 || stopped >= 400;
    printf("threadfuzz: %s rollouts on 1 and %d threads %s; one stopped after %d of 400 "
           "trials\n", match ? "match" : "money", THREADS, bad ? "differ" : "alike", stopped);
    return bad;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: threadfuzz WEIGHTS [CASES]\n"); return 2; }
    n_cases = argc > 2 ? atoi(argv[2]) : 60;
    if (n_cases < 1 || n_cases > MAX_CASES) n_cases = MAX_CASES;
    static uint8_t wts[4 << 20];
    const int len = (int)read_file(argv[1], wts, sizeof wts);
    if (len < 0) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
    if (bg_load_weights(wts, len) != 0) { fprintf(stderr, "weights refused\n"); return 2; }
    bg_search_defaults(&settings[0]);
    settings[1] = (bg_search){.plies = 3, .work_budget = BG_BUDGET_MIN, .deep_budget = 200000,
                              .roll_trials = 6, .roll_horizon = 2, .cache = 0,
                              .threads = 2};
    if (bg_check_search(&settings[1]) != 0) { fprintf(stderr, "settings refused\n"); return 2; }
    /* positions along seeded random games, the side on roll to play */
    static mg_play plays[MG_MAX_PLAYS];
    uint64_t seed = 777;
    int unlike = 0;
    mg_board pos;
    mg_start(&pos);
    for (int i = 0; i < n_cases; i++) {
        answer *a = &expect[0][i];
        memcpy(a->board, &pos, BG_BOARD_LEN);
        a->die1 = roll_die(&seed);
        a->die2 = roll_die(&seed);
        a->level = 5 - i % 3;                      /* level 5 first: its settings part */
        a->ply = i % 3;
        /* a score for ten cases running, so the threads (a case apart) mostly share one */
        static const int scores[6][2] = {{3, 3}, {2, 4}, {4, 3}, {5, 2}, {6, 7}, {2, 3}};
        memset(a->bearoff, 0, sizeof a->bearoff);
        for (int side = 0; side < 2; side++)       /* 2 to 5 men a side on its home points */
            for (int m = 0; m < 2 + (i + side) % 4; m++)
                a->bearoff[25 * side + rng_next(&seed) % 6]++;
        a->terms = (bg_match){1, 0, 7, scores[i / 10 % 6][0], scores[i / 10 % 6][1], 0};
        expect[1][i] = *a;
        judge(a, &settings[0]);                    /* the single thread's answers */
        judge(&expect[1][i], &settings[1]);
        if (a->level == 5 && !same(a, &expect[1][i])) unlike++;
        const int n = mg_generate(&pos, a->die1, a->die2, plays);
        const mg_board *next = &plays[rng_next(&seed) % (uint64_t)n].after;
        if (mg_result(next) != 0) mg_start(&pos);
        else mg_swap(next, &pos);                  /* the other side on roll */
    }
    bg_thread t[THREADS];
    bg_mutex_init(&count_lock);
    for (long k = 0; k < THREADS; k++) bg_thread_start(&t[k], worker, (void *)k);
    for (int k = 0; k < THREADS; k++) bg_thread_join(&t[k]);
    printf("threadfuzz: %d cases in %d threads at 2 settings side by side, %d answers unlike "
           "one thread's; %d of the level 5 cases judged apart by the settings\n", n_cases,
           THREADS, mismatches, unlike);
    if (unlike == 0) mismatches++;   /* the settings must reach the search to be tested */
    mismatches += rollout_mismatches(0) + rollout_mismatches(1);
    return mismatches != 0;
}
