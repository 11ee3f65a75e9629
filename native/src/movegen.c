/* movegen.c: the legal-play generator of the rules engine (the inlay's rules 2-8), the game
 * result and pip counts, implementing movegen.h. Not the public cffi face (that is rules.c)
 * and not the evaluator: it says which plays are legal, never which one is good.
 *
 * Orientation: row 0 (the mover) moves from high index to low; its index i is its point
 * i+1; the opponent's index 23-i is the same physical point. A man borne off leaves the row. */
#include <string.h>
#include "movegen.h"

/* ---- search state ---------------------------------------------------------------- */

typedef struct {
    mg_board cur;          /* the board as the steps so far left it */
    mg_step path[MG_MAX_STEPS];   /* the steps so far */
    int8_t dice[MG_MAX_STEPS];    /* the order in which the dice are played this pass */
    int ndice;             /* 2, or 4 for doubles */
    int doubles;
    int second_order;      /* 1 in the pass that plays the second die first (not doubles) */
    int max_depth;         /* most dice any play found so far uses */
    int count;             /* plays stored in out[] */
    mg_play *out;
    uint32_t stamp;        /* generation mark for the dedup table */
} gen_ctx;

/* Open-addressed dedup table keyed by a hash of the resulting board; each slot packs a
 * generation mark (high 20 bits) and the play's index (low 12 bits) into one word, so the
 * table fits the L1 cache. Entries of another generation are empty, so no per-call
 * clearing is needed. */
#define DEDUP_SLOTS 8192   /* power of two, >= 2 * MG_MAX_PLAYS */
#define DEDUP_INDEX_BITS 12
#define DEDUP_MAX_STAMP ((1u << (32 - DEDUP_INDEX_BITS)) - 1u)
_Static_assert(MG_MAX_PLAYS <= (1 << DEDUP_INDEX_BITS) && DEDUP_SLOTS >= 2 * MG_MAX_PLAYS,
               "dedup slots hold every play index");
static _Thread_local uint32_t dedup[DEDUP_SLOTS];
static _Thread_local uint32_t dedup_generation;

static inline uint64_t board_hash(const mg_board *b)
{
    uint64_t w[7] = {0};
    memcpy(w, b, sizeof(mg_board));           /* 50 bytes into 56 */
    /* independent multiplies (they overlap in the pipeline), then one final mix */
    uint64_t h = (w[0] * 0x9E3779B97F4A7C15ull) ^ (w[1] * 0xC2B2AE3D27D4EB4Full) ^
                 (w[2] * 0x165667B19E3779F9ull) ^ (w[3] * 0xD6E8FEB86659FD93ull) ^
                 (w[4] * 0xFF51AFD7ED558CCDull) ^ (w[5] * 0xC4CEB9FE1A85EC53ull) ^
                 (w[6] * 0xBF58476D1CE4E5B9ull);
    h ^= h >> 32;
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

/* Keep the play whose steps are in ctx->path[0..depth-1] and board in ctx->cur. */
static void record_leaf(gen_ctx *ctx, int depth)
{
    if (depth < ctx->max_depth)
        return;
    if (depth > ctx->max_depth) {           /* a longer play exists: drop the shorter ones */
        ctx->max_depth = depth;
        ctx->count = 0;
        ctx->stamp = ++dedup_generation;
        if (ctx->stamp > DEDUP_MAX_STAMP) {  /* wrapped: really clear once */
            memset(dedup, 0, sizeof dedup);
            ctx->stamp = dedup_generation = 1;
        }
    }
    uint64_t h = board_hash(&ctx->cur);
    uint32_t slot = (uint32_t)h & (DEDUP_SLOTS - 1);
    while (dedup[slot] >> DEDUP_INDEX_BITS == ctx->stamp) {
        mg_play *seen = &ctx->out[dedup[slot] & ((1u << DEDUP_INDEX_BITS) - 1u)];
        if (memcmp(&seen->after, &ctx->cur, sizeof(mg_board)) == 0) {
            /* Same position. For a one-die play keep the higher die (rule 4 may need it:
             * e.g. the last man borne off by either die). */
            if (depth == 1 && ctx->path[0].die > seen->steps[0].die)
                seen->steps[0] = ctx->path[0];
            return;
        }
        slot = (slot + 1) & (DEDUP_SLOTS - 1);
    }
    if (ctx->count >= MG_MAX_PLAYS)         /* cannot happen in backgammon; never overflow */
        return;
    mg_play *p = &ctx->out[ctx->count];
    p->after = ctx->cur;
    p->nsteps = (int8_t)depth;
    memcpy(p->steps, ctx->path, sizeof(mg_step) * (size_t)depth);
    dedup[slot] = ctx->stamp << DEDUP_INDEX_BITS | (uint32_t)ctx->count;
    ctx->count++;
}

/* In the pass that plays the second die first, a second step that moves another man (not
 * the one the first step just moved), both steps within the board (no entry, no bearing
 * off), reaches a board the first pass already recorded: there the same two steps were
 * legal the other way round (a step can only take an opposing blot away from the other's
 * landing point, and neither changes which men are home). Called only when the second step
 * itself is legal and lands on the board. */
static inline int independent(const mg_step *first, int from)
{
    return first->from != MG_BAR && first->to != MG_OFF && from != first->to;
}

/* Try every single step with ctx->dice[depth]; recurse; record when no step is possible.
 * For doubles, steps are taken in non-increasing order of their starting index (`start`):
 * every multiset of steps that is legal in some order is legal in that order and gives the
 * same board, so the other orders need not be searched. */
static void search(gen_ctx *ctx, int depth, int start)
{
    if (depth == ctx->ndice) {
        record_leaf(ctx, depth);
        return;
    }
    int8_t *me = ctx->cur.b[0];
    int8_t *op = ctx->cur.b[1];
    const int die = ctx->dice[depth];
    int moved = 0;

    if (me[MG_BAR]) {                       /* rule 7: the bar first; rule 2b: enter */
        int to = MG_BAR - die;
        int8_t *there = &op[23 - to];
        if (*there < 2) {
            int hit = (*there == 1);
            me[MG_BAR]--; me[to]++;
            if (hit) { *there = 0; op[MG_BAR]++; }
            ctx->path[depth] = (mg_step){MG_BAR, (int8_t)to, (int8_t)die, (int8_t)hit};
            search(ctx, depth + 1, MG_BAR);
            if (hit) { *there = 1; op[MG_BAR]--; }
            me[to]--; me[MG_BAR]++;
            moved = 1;
        }
    } else {
        int top = 23;
        while (top >= 0 && !me[top])
            top--;
        const int all_home = top < 6;
        int from = ctx->doubles && start < top ? start : top;
        for (; from >= 0; from--) {
            if (!me[from])
                continue;
            int to = from - die;
            if (to >= 0) {
                int8_t *there = &op[23 - to];
                if (*there >= 2)            /* rule 5 */
                    continue;
                if (depth == 1 && ctx->second_order && independent(&ctx->path[0], from)) {
                    moved = 1;               /* the first pass made this board: no new play */
                    continue;
                }
                int hit = (*there == 1);     /* rule 6 */
                me[from]--; me[to]++;
                if (hit) { *there = 0; op[MG_BAR]++; }
                ctx->path[depth] = (mg_step){(int8_t)from, (int8_t)to, (int8_t)die, (int8_t)hit};
                search(ctx, depth + 1, from);
                if (hit) { *there = 1; op[MG_BAR]--; }
                me[to]--; me[from]++;
                moved = 1;
            } else {
                /* rule 8: all men home; exact, or from the highest point with a larger die */
                if (!all_home || (to < -1 && from != top))
                    continue;
                me[from]--;
                ctx->path[depth] = (mg_step){(int8_t)from, MG_OFF, (int8_t)die, 0};
                search(ctx, depth + 1, from);
                me[from]++;
                moved = 1;
            }
        }
    }
    if (!moved)
        record_leaf(ctx, depth);
}

int mg_generate(const mg_board *pos, int die1, int die2, mg_play *out)
{
    gen_ctx ctx;
    ctx.cur = *pos;
    ctx.out = out;
    ctx.count = 0;
    ctx.max_depth = -1;
    ctx.stamp = 0;
    ctx.doubles = (die1 == die2);
    ctx.second_order = 0;
    if (ctx.doubles) {
        ctx.ndice = 4;
        ctx.dice[0] = ctx.dice[1] = ctx.dice[2] = ctx.dice[3] = (int8_t)die1;
        search(&ctx, 0, MG_BAR);
    } else {
        ctx.ndice = 2;
        ctx.dice[0] = (int8_t)die1; ctx.dice[1] = (int8_t)die2;
        search(&ctx, 0, MG_BAR);
        ctx.dice[0] = (int8_t)die2; ctx.dice[1] = (int8_t)die1;
        ctx.second_order = 1;
        search(&ctx, 0, MG_BAR);
        /* rule 4: when only one die can be played and either could, the higher */
        if (ctx.max_depth == 1) {
            int high = die1 > die2 ? die1 : die2, any_high = 0;
            for (int i = 0; i < ctx.count; i++)
                any_high |= (out[i].steps[0].die == high);
            if (any_high) {
                int kept = 0;
                for (int i = 0; i < ctx.count; i++)
                    if (out[i].steps[0].die == high)
                        out[kept++] = out[i];
                ctx.count = kept;
            }
        }
    }
    if (ctx.max_depth == 0) {               /* no play at all: the turn is forfeited */
        out[0].after = *pos;
        out[0].nsteps = 0;
        ctx.count = 1;
    }
    return ctx.count;
}

void mg_swap(const mg_board *in, mg_board *out)
{
    mg_board tmp;
    memcpy(tmp.b[0], in->b[1], 25);
    memcpy(tmp.b[1], in->b[0], 25);
    *out = tmp;
}

static int men_on_row(const int8_t *row)
{
    int n = 0;
    for (int i = 0; i < 25; i++)
        n += row[i];
    return n;
}

static int win_kind(const int8_t *loser)
{
    if (men_on_row(loser) < 15)
        return 1;                           /* the loser has borne off: single game */
    for (int i = 18; i < 25; i++)           /* loser's 19..24 = the winner's home, and bar */
        if (loser[i])
            return 3;
    return 2;
}

int mg_result(const mg_board *pos)
{
    if (men_on_row(pos->b[0]) == 0)
        return win_kind(pos->b[1]);
    if (men_on_row(pos->b[1]) == 0)
        return -win_kind(pos->b[0]);
    return 0;
}

int mg_pips(const mg_board *pos, int row)
{
    int pips = 0;
    for (int i = 0; i < 25; i++)
        pips += (i + 1) * pos->b[row][i];
    return pips;
}

void mg_start(mg_board *out)
{
    memset(out, 0, sizeof *out);
    for (int r = 0; r < 2; r++) {
        out->b[r][5] = 5;    /* 6-point */
        out->b[r][7] = 3;    /* 8-point */
        out->b[r][12] = 5;   /* 13-point (mid-point) */
        out->b[r][23] = 2;   /* 24-point */
    }
}

/* ---- single steps ------------------------------------------------------------------ */

int mg_step_apply(mg_board *pos, int from, int die, mg_step *out)
{
    if (from < 0 || from > MG_BAR || die < 1 || die > 6)
        return MG_STEP_BAD_INPUT;
    int8_t *me = pos->b[0];
    int8_t *op = pos->b[1];
    if (me[MG_BAR] && from != MG_BAR)
        return MG_STEP_BAR_FIRST;
    if (me[from] <= 0)
        return MG_STEP_NO_MAN;
    int to = from - die;
    int hit = 0;
    if (to >= 0) {
        int8_t *there = &op[23 - to];
        if (*there >= 2)
            return MG_STEP_BLOCKED;
        hit = (*there == 1);
        if (hit) { *there = 0; op[MG_BAR]++; }
        me[from]--; me[to]++;
    } else {
        for (int i = 6; i <= MG_BAR; i++)
            if (me[i])
                return MG_STEP_NOT_ALL_HOME;
        if (to < -1)
            for (int i = from + 1; i < 6; i++)
                if (me[i])
                    return MG_STEP_MAN_HIGHER;
        me[from]--;
        to = MG_OFF;
    }
    if (out)
        *out = (mg_step){(int8_t)from, (int8_t)to, (int8_t)die, (int8_t)hit};
    return MG_STEP_OK;
}

static int most_steps_rec(const mg_board *pos, const int8_t *dice, int ndice)
{
    if (ndice == 0)
        return 0;
    int best = 0;
    /* which die goes next: for distinct dice, either; for equal ones, it does not matter */
    int tries = (ndice == 2 && dice[0] != dice[1]) ? 2 : 1;
    for (int t = 0; t < tries; t++) {
        int8_t rest[4];
        int die = dice[t], nrest = 0;
        for (int i = 0; i < ndice; i++)
            if (i != t)
                rest[nrest++] = dice[i];
        for (int from = MG_BAR; from >= 0; from--) {
            if (!pos->b[0][from])
                continue;
            mg_board next = *pos;
            if (mg_step_apply(&next, from, die, NULL) != MG_STEP_OK)
                continue;
            int got = 1 + most_steps_rec(&next, rest, nrest);
            if (got > best)
                best = got;
            if (best == ndice)
                return best;
        }
    }
    return best;
}

int mg_most_steps(const mg_board *pos, const int8_t *dice, int ndice)
{
    if (ndice < 0 || ndice > 4)
        return 0;
    return most_steps_rec(pos, dice, ndice);
}

void mg_put_steps(const mg_play *p, int8_t *out) {
    memset(out, 0, sizeof p->steps);
    memcpy(out, p->steps, (size_t)p->nsteps * sizeof(mg_step));
}
