/* eval.c: input encoding (Tesauro-style point units plus pips, primes, home points, men
 * back, hit chances and pips lost, blots, escapes, the blockade in front, anchors, the way
 * home, the pips to break contact, and after gnubg's published contact inputs double shots,
 * staying out, the forward anchor, containment, spread and mobility, for each side),
 * position classes and the 0-ply evaluation that picks the contact net, the race net or the
 * exact bear-off database, with the chances a position cannot have set to zero. Not the
 * search. */
#include "eval.h"
#include "bits.h"
#include <string.h>

_Static_assert(EV_PER_SIDE == 124, "the inputs of a side, as every weights file has them");

ev_weights ev_w;

static int men_on_board(const int8_t *row) {
    int n = 0;
    for (int i = 0; i < 25; i++) n += row[i];
    return n;
}

static int rearmost(const int8_t *row) {   /* highest occupied index, -1 when none */
    for (int i = 24; i >= 0; i--) if (row[i] > 0) return i;
    return -1;
}

int ev_class(const mg_board *b) {
    if (mg_result(b) != 0) return EV_OVER;
    int back0 = rearmost(b->b[0]), back1 = rearmost(b->b[1]);
    /* row-1 man at its index j stands on row-0 index 23-j; contact while they can meet */
    if (back0 > 23 - back1) return EV_CONTACT;
    if (back0 <= 5 && back1 <= 5 && men_on_board(b->b[0]) < 15 && men_on_board(b->b[1]) < 15)
        return EV_BEAROFF;
    return EV_RACE;
}

static int side_crashed(const int8_t *row) {
    int tot = men_on_board(row);
    if (tot <= 6) return 1;
    if (row[0] > 1) return tot <= 6 + row[0] || (row[1] > 1 && 1 + tot - (row[0] + row[1]) <= 6);
    return tot <= 6 + (row[1] - 1);
}

static int a_side_crashed(const mg_board *b) {
    return side_crashed(b->b[0]) || side_crashed(b->b[1]);
}

int ev_crashed(const mg_board *b) { return ev_class(b) == EV_CONTACT && a_side_crashed(b); }

int ev_net_index(const ev_weights *w, const mg_board *b, int cls) {
    if (cls == EV_RACE) return EV_NET_RACE;
    return w->crashed.n_hid > 0 && a_side_crashed(b) ? EV_NET_CRASHED : EV_NET_CONTACT;
}

/* A row's points as bit masks (bit j: index j), built without branches: blots (one man),
 * held points (two or more) and every occupied point. */
typedef struct { uint32_t blot, held, occ; } side_bits;

static inline side_bits bits_of(const int8_t *row) {
    side_bits m = {0, 0, 0};
    for (int j = 0; j < 24; j++) {
        int n = row[j];
        m.blot |= (uint32_t)(n == 1) << j;
        m.held |= (uint32_t)(n >= 2) << j;
        m.occ |= (uint32_t)(n > 0) << j;
    }
    return m;
}

/* Bits 0..23 reversed (bit j -> bit 23 - j): a row's mask in the other row's indices. */
static inline uint32_t rev24(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return bg_bswap32(x) >> 8;
}

/* Rolls out of 36 on which the attacker can hit a blot of the victim; the sum over the 36
 * rolls of the pips the most advanced blot each roll reaches would lose goes to *pips_lost,
 * the rolls with two blots within reach to *double_rolls (either may be NULL).
 * Bit p+1 stands for victim index p (p = -1 is the attacker's bar), so shifting a set of
 * attacker positions left by d moves every one of them d pips. v: the victim's bits, a: the
 * attacker's, a_bar: men on the attacker's bar (they must enter first: only they can hit). */
static int hit_rolls_bits(side_bits v, side_bits a, int a_bar, int *pips_lost,
                          int *double_rolls) {
    uint32_t blots = v.blot << 1, blocked = v.held << 1;
    uint32_t src = a_bar > 0 ? 1u : rev24(a.occ) << 1;
    if (pips_lost) *pips_lost = 0;
    if (double_rolls) *double_rolls = 0;
    if (!blots) return 0;
    const uint32_t board = 0x1FFFFFEu, open = board & ~blocked;
    int count = 0;
    for (int d1 = 1; d1 <= 6; d1++) {
        uint32_t s1 = src << d1;
        for (int d2 = d1; d2 <= 6; d2++) {
            uint32_t hit;   /* the blots this roll can reach */
            if (d1 == d2) {
                uint32_t r = src;
                hit = 0;
                for (int k = 0; k < 4; k++) {
                    r = (r << d1) & open;
                    hit |= r & blots;
                }
            } else {
                uint32_t s2 = src << d2;
                hit = ((s1 | s2) | ((s1 & open) << d2) | ((s2 & open) << d1)) & blots;
            }
            if (hit) {
                int w = (d1 == d2) ? 1 : 2;
                count += w;
                /* the most advanced blot (lowest index p, bit p+1) loses the most: 24 - p */
                if (pips_lost) *pips_lost += w * (25 - bg_ctz32(hit));
                /* two blots within reach: the roll may hit both */
                if (double_rolls && (hit & (hit - 1))) *double_rolls += w;
            }
        }
    }
    return count;
}

/* esc12[mask]: rolls out of 36 with which a lone man gets past the farthest of the 12 points
 * in front of it that are held (bit k-1 of mask: the point k pips ahead), landing only on
 * open points; 36 when none is held. Built once, with the tables below (tables_init). */
static uint8_t esc12[4096];
static int tables_ready;

static void esc12_build(void) {
    for (int mask = 0; mask < 4096; mask++) {
        int far = 0;   /* pips to the farthest held point */
        for (int k = 1; k <= 12; k++) if (mask & (1 << (k - 1))) far = k;
        if (!far) { esc12[mask] = 36; continue; }
        int count = 0;
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = d1; d2 <= 6; d2++) {
                int ok = 0;
                if (d1 == d2) {
                    for (int k = 1, at = d1; k <= 4 && !ok; k++, at += d1) {
                        if (at <= 12 && (mask & (1 << (at - 1)))) break;
                        ok = at > far;
                    }
                } else {
                    for (int o = 0; o < 2 && !ok; o++) {
                        int a = o ? d2 : d1;
                        if (mask & (1 << (a - 1))) continue;
                        if (a > far) { ok = 1; break; }
                        int end = d1 + d2;
                        ok = !(end <= 12 && (mask & (1 << (end - 1)))) && end > far;
                    }
                }
                if (ok) count += d1 == d2 ? 1 : 2;
            }
        esc12[mask] = (uint8_t)count;
    }
}

/* The 12-bit mask of the points a blocker holds (held: its bits_of(...).held) in front of a man of
 * the other row at that row's index `from` (bit k-1: k pips ahead, the blocker's index
 * 24 - from + k - 1; points past the end of the board are open). */
static inline int held_mask(uint32_t held, int from) {
    return (int)((held >> (24 - from)) & 0xFFFu);
}

/* Rolls out of 36 with which the man of row r at index `from` (24 = the bar; a die d enters
 * it at index 24 - d) can get past every point the opponent holds in the 12 points in front
 * of it, moving alone (each landing point open). 36 when none is held. */
/* blocked: bit k+1 for index k held by the opponent (k = -1 is off the board). */
static int escape_rolls_bits(uint32_t blocked, int from, int *held_in_front) {
    /* the held points among the 12 in front (indices from-12 .. from-1, bits from-11 ..
     * from); past the lowest of them = escaped */
    int lo = from - 12 < 0 ? 0 : from - 12;
    uint32_t front = (blocked >> (lo + 1)) & ((1u << (from - lo)) - 1u);
    if (held_in_front) *held_in_front = bg_popcount32(front);
    if (!front) return 36;
    int lowest = lo + bg_ctz32(front);
    int count = 0;
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++) {
            int ok = 0;
            if (d1 == d2) {
                int at = from;
                for (int k = 0; k < 4 && !ok; k++) {
                    at -= d1;
                    if (at < 0 || (blocked & (2u << at))) break;
                    ok = at < lowest;
                }
            } else {
                for (int o = 0; o < 2 && !ok; o++) {
                    int a = o ? d2 : d1, c = o ? d1 : d2, mid = from - a;
                    if (mid < 0 || (blocked & (2u << mid))) continue;
                    if (mid < lowest) { ok = 1; break; }
                    int end = mid - c;
                    ok = end >= 0 && !(blocked & (2u << end)) && end < lowest;
                }
            }
            if (ok) count += d1 == d2 ? 1 : 2;
        }
    return count;
}

/* A man far enough back (index 12 or more) has all 12 points in front of him on the board,
 * so escape_rolls_bits' answer for him depends on 13 bits alone: those 12 points (held or
 * not) and the point 15 pips ahead (held, or off the board: either stops him), where 5-5
 * lands past a farthest point 11 or 12 pips ahead. Every other double that passes the
 * farthest point lands within 12 pips or has already landed on it. esc_far[those bits] is
 * that answer, worked out once by escape_rolls_bits itself; tests/native/test_encoding.py
 * holds the two equal on every such window, with the points the table does not read at
 * random. */
enum { ESC_FAR_FROM = 12 };
static uint8_t esc_far[1 << 13];

static inline int blocked_at(uint32_t blocked, int index) {   /* held, or off the board */
    return index < 0 ? 1 : (int)((blocked >> (index + 1)) & 1u);
}

static inline int esc_far_index(uint32_t blocked, int from) {   /* from >= ESC_FAR_FROM */
    return (int)((blocked >> (from - 11)) & 0xFFFu) | blocked_at(blocked, from - 15) << 12;
}

static void esc_far_init(void) {
    for (int k = 0; k < (1 << 13); k++) {
        const int from = 24;   /* every index the 13 bits name is on the board */
        uint32_t blocked = (uint32_t)(k & 0xFFF) << (from - 11);
        blocked |= (uint32_t)((k >> 12) & 1) << (from - 15 + 1);
        esc_far[k] = (uint8_t)escape_rolls_bits(blocked, from, NULL);
    }
}

/* escape_rolls_bits through the table where it holds (held_in_front: not NULL). */
static inline int escape_rolls(uint32_t blocked, int from, int *held_in_front) {
    if (from < ESC_FAR_FROM) return escape_rolls_bits(blocked, from, held_in_front);
    int k = esc_far_index(blocked, from);
    *held_in_front = bg_popcount32((uint32_t)k & 0xFFFu);
    return esc_far[k];
}

/* unit4[n]: a point's four units with n men on it (n = 0..15), for one copy a point. */
static float unit4[16][EV_UNITS_PER_POINT];

static void unit4_init(void) {
    for (int n = 0; n < 16; n++) {
        unit4[n][0] = (n == 1);
        unit4[n][1] = (n >= 2);
        unit4[n][2] = (n >= 3);
        unit4[n][3] = n > 3 ? (float)(n - 3) * 0.5f : 0.0f;
    }
}

static void tables_init(void) {
    esc12_build();
    esc_far_init();
    unit4_init();
    tables_ready = 1;
}

static void encode_side(const mg_board *b, int r, const side_bits *bits, float *x) {
    const int8_t *row = b->b[r];
    const side_bits mine = bits[r], theirs = bits[1 - r];
    if (!tables_ready) tables_init();
    int pips = 0, men = 0;
    for (int i = 0; i < 24; i++) {
        int n = row[i];
        memcpy(x + EV_UNITS_PER_POINT * i, unit4[n], sizeof unit4[n]);
        pips += n * (i + 1);
        men += n;
    }
    int bar = row[24];
    pips += bar * 25;
    men += bar;
    x[EV_IN_BAR] = (float)bar * 0.5f;
    x[EV_IN_OFF] = (float)(15 - men) / 15.0f;
    x[EV_IN_PIPS] = (float)pips / 150.0f;
    int best = 0, home = bg_popcount32(mine.held & 0x3Fu), back = bar;
    for (uint32_t h = mine.held; h; h &= h << 1) best++;   /* the longest run of held points */
    for (int i = 18; i < 24; i++) back += row[i];
    x[EV_IN_PRIME] = (float)best / 6.0f;
    x[EV_IN_HOME_POINTS] = (float)home / 6.0f;
    x[EV_IN_BACK_MEN] = (float)back / 8.0f;
    int pips_lost, doubles;
    int hits = hit_rolls_bits(mine, theirs, b->b[1 - r][24], &pips_lost, &doubles);
    x[EV_IN_HIT_ROLLS] = (float)hits / 36.0f;
    int blots = bg_popcount32(mine.blot);
    x[EV_IN_BLOTS] = (float)blots / 5.0f;
    int rear = bar ? 24 : rearmost(row), held = 0;
    x[EV_IN_ESCAPE] = rear >= 0
        ? (float)escape_rolls(rev24(theirs.held) << 1, rear, &held) / 36.0f : 1.0f;
    x[EV_IN_HELD_IN_FRONT] = (float)held / 6.0f;
    /* the way home, for races and saving gammons: pips and crossings still to make before
     * every man is in the home board, the men still outside, and the exact expected number
     * of rolls to bear off the men already home (the one-sided bear-off database) */
    const uint32_t occupied = mine.occ | (uint32_t)(bar > 0) << 24;   /* the bar as bit 24 */
    int out_pips = 0, out_men = 0, crossings = 0;
    for (uint32_t m = occupied & ~0x3Fu; m; m &= m - 1) {
        int i = bg_ctz32(m);
        out_pips += row[i] * (i - 5);
        out_men += row[i];
        crossings += row[i] * ((i - 6) / 6 + 1);
    }
    if (!bo_ready()) bo_init();
    x[EV_IN_OUT_PIPS] = (float)out_pips / 60.0f;
    x[EV_IN_OUT_MEN] = (float)out_men / 15.0f;
    x[EV_IN_CROSSINGS] = (float)crossings / 20.0f;
    x[EV_IN_BEAROFF_ROLLS] = bo_ready() ? bo_mean(bo_index(row)) / 10.0f : 0.0f;
    /* contact: the pips a hit costs on average over the 36 rolls (the most advanced blot
     * the roll reaches), the rearmost man, the rearmost and the foremost point held, and the
     * pips still to move before the two sides have passed each other */
    x[EV_IN_PIPS_LOST] = (float)pips_lost / (36.0f * 12.0f);
    x[EV_IN_REARMOST] = rear >= 0 ? (float)(rear + 1) / 25.0f : 0.0f;
    int rear_anchor = mine.held ? 31 - bg_clz32(mine.held) : -1;
    int front_anchor = mine.held ? bg_ctz32(mine.held) : -1;
    x[EV_IN_REAR_POINT] = (float)(rear_anchor + 1) / 24.0f;
    x[EV_IN_FRONT_POINT] = (float)(front_anchor + 1) / 24.0f;
    int opp_rear = rearmost(b->b[1 - r]), contact_pips = 0;   /* he stands on our 23 - j */
    if (opp_rear >= 0)
        for (int i = 24; i > 23 - opp_rear; i--) contact_pips += row[i] * (i - (23 - opp_rear));
    x[EV_IN_CONTACT_PIPS] = (float)contact_pips / 100.0f;
    /* after gnubg's published contact inputs: double shots, staying out on the bar, the
     * forward anchor, how well this side contains the other's men, the spread of its men,
     * anchors for a back game, and how freely its outside men come home */
    const int8_t *opp = b->b[1 - r];
    uint32_t mine_held = mine.held, opp_held = theirs.held;
    x[EV_IN_DOUBLE_SHOTS] = (float)doubles / 36.0f;
    int opp_home = bg_popcount32(opp_held & 0x3Fu);
    x[EV_IN_STAY_OUT] = bar ? (float)(opp_home * opp_home) / 36.0f : 0.0f;
    uint32_t back_held = (mine_held >> 18) & 0x3Fu;   /* held points in the other's board */
    int fwd = back_held ? 6 - bg_ctz32(back_held) : 0;
    x[EV_IN_FORWARD_ANCHOR] = (float)fwd / 6.0f;
    int contain = 36, acontain = 36;
    for (int n = 15; n <= 23; n++) {
        int e = esc12[held_mask(mine_held, n)];
        if (e < contain) contain = e;
        if (n <= opp_rear && e < acontain) acontain = e;
    }
    if (opp[24] > 0) {   /* the other side's men on the bar face the same wall from 24 */
        int e = esc12[held_mask(mine_held, 24)];
        if (e < acontain) acontain = e;
    }
    x[EV_IN_CONTAIN] = (float)(36 - contain) / 36.0f;
    x[EV_IN_CONTAIN2] = x[EV_IN_CONTAIN] * x[EV_IN_CONTAIN];
    x[EV_IN_CONTAIN_MEN] = (float)(36 - acontain) / 36.0f;
    int mean = men ? pips / men : 0, far_men = 0, moment = 0;   /* the men's mean pip */
    for (uint32_t m = occupied >> mean << mean; m; m &= m - 1) {
        int i = bg_ctz32(m);
        far_men += row[i];
        moment += row[i] * (i + 1 - mean) * (i + 1 - mean);
    }
    x[EV_IN_SPREAD] = far_men ? (float)moment / far_men / 400.0f : 0.0f;
    int anchors = bg_popcount32(back_held);
    x[EV_IN_BACK_ANCHORS] = (float)anchors / 2.0f;
    int mobility = 0;
    for (uint32_t m = occupied & ~0x3Fu; m; m &= m - 1) {
        int i = bg_ctz32(m);
        mobility += (i - 5) * row[i] * esc12[held_mask(opp_held, i)];
    }
    x[EV_IN_MOBILITY] = (float)mobility / 3600.0f;
}

void ev_tables_init(void) {
    if (!tables_ready) tables_init();
    (void)nn_sigmoid(0.0f);   /* the sigmoid table */
}

void ev_encode(const mg_board *b, float *in) {
    const side_bits bits[2] = {bits_of(b->b[0]), bits_of(b->b[1])};
    encode_side(b, 0, bits, in);
    encode_side(b, 1, bits, in + EV_PER_SIDE);
}

void ev_terminal(int result, float p[NN_OUT]) {
    memset(p, 0, sizeof(float) * NN_OUT);
    if (result > 0) {
        p[EV_WIN] = 1.0f;
        if (result >= 2) p[EV_WIN_G] = 1.0f;
        if (result >= 3) p[EV_WIN_BG] = 1.0f;
    } else if (result < 0) {
        if (result <= -2) p[EV_LOSE_G] = 1.0f;
        if (result <= -3) p[EV_LOSE_BG] = 1.0f;
    }
}

void ev_sanitize(float p[NN_OUT]) {
    for (int k = 0; k < NN_OUT; k++) {
        if (!(p[k] >= 0.0f)) p[k] = 0.0f;
        if (p[k] > 1.0f) p[k] = 1.0f;
    }
    if (p[EV_WIN_G] > p[EV_WIN]) p[EV_WIN_G] = p[EV_WIN];
    if (p[EV_WIN_BG] > p[EV_WIN_G]) p[EV_WIN_BG] = p[EV_WIN_G];
    if (p[EV_LOSE_G] > 1.0f - p[EV_WIN]) p[EV_LOSE_G] = 1.0f - p[EV_WIN];
    if (p[EV_LOSE_BG] > p[EV_LOSE_G]) p[EV_LOSE_BG] = p[EV_LOSE_G];
}

void ev_invert(const float in[NN_OUT], float out[NN_OUT]) {
    float t[NN_OUT];
    t[EV_WIN] = 1.0f - in[EV_WIN];
    t[EV_WIN_G] = in[EV_LOSE_G];
    t[EV_WIN_BG] = in[EV_LOSE_BG];
    t[EV_LOSE_G] = in[EV_WIN_G];
    t[EV_LOSE_BG] = in[EV_WIN_BG];
    memcpy(out, t, sizeof t);
}

float ev_equity(const float p[NN_OUT]) {
    return 2.0f * p[EV_WIN] - 1.0f + p[EV_WIN_G] - p[EV_LOSE_G] + p[EV_WIN_BG] - p[EV_LOSE_BG];
}

/* A side that has borne off a man can lose no gammon; in a race, only a side with a man still
 * in the other's home board can lose a backgammon. Those outputs are zero, exactly. */
void ev_mask(const mg_board *b, int cls, float p[NN_OUT]) {
    for (int r = 0; r < 2; r++) {
        const int8_t *row = b->b[r];
        int gammon = men_on_board(row) == 15;
        int backgammon = gammon && (cls != EV_RACE || rearmost(row) >= 18);
        float *g = r == 0 ? &p[EV_LOSE_G] : &p[EV_WIN_G];
        float *bg = r == 0 ? &p[EV_LOSE_BG] : &p[EV_WIN_BG];
        if (!gammon) *g = 0.0f;
        if (!backgammon) *bg = 0.0f;
    }
}

/* The game's evaluations (ev_evaluate) share the hidden units' sums over the inputs that the
 * side on roll's own men decide alone, those before EV_IN_HIT_ROLLS (its 24 points, bar, men
 * off, pips, prime, home points and back men), while that side stands still: every play of a
 * roll, and of all 21 rolls of a half-move, leaves the side then on roll as it was, or as one
 * of a few hits left it. SHARED_SLOTS prefixes a thread and net (contact, race, crashed),
 * each known by the weights' tag and the side's row (points and bar), the oldest replaced;
 * the answer is the same bits as without them (nn_prefix_make). A prefix is made for a row
 * met twice in a row of misses, so unrelated positions (a batch) pay one compare each. */
#define SHARED_SLOTS 4
typedef struct {
    uint32_t tag;               /* the weights' */
    int8_t row[25];             /* the side on roll's points and bar */
} side_key;
typedef struct {
    side_key key;
    nn_prefix pre;
} row_prefix;
typedef struct {
    int used, oldest;
    row_prefix slot[SHARED_SLOTS];
    side_key missed;            /* the last miss's */
} net_prefixes;
static _Thread_local net_prefixes shared_rows[3];

static int same_side(const side_key *key, const ev_weights *w, const mg_board *b) {
    return key->tag == w->tag && memcmp(key->row, b->b[0], sizeof key->row) == 0;
}

static void set_side(side_key *key, const ev_weights *w, const mg_board *b) {
    key->tag = w->tag;
    memcpy(key->row, b->b[0], sizeof key->row);
}

static void forward_sharing(const ev_weights *w, const nn_net *net, int k, const mg_board *b,
                            const float *in, nn_trace *tr) {
    net_prefixes *np = &shared_rows[k];
    for (int i = 0; i < np->used; i++)
        if (same_side(&np->slot[i].key, w, b)) {
            nn_forward_from(net, in, &np->slot[i].pre, tr);
            return;
        }
    if (!same_side(&np->missed, w, b)) {
        set_side(&np->missed, w, b);
        nn_forward(net, in, tr);
        return;
    }
    row_prefix *pp;
    if (np->used < SHARED_SLOTS) pp = &np->slot[np->used++];
    else { pp = &np->slot[np->oldest]; np->oldest = (np->oldest + 1) % SHARED_SLOTS; }
    nn_prefix_make(net, in, EV_IN_HIT_ROLLS, &pp->pre);
    set_side(&pp->key, w, b);
    nn_forward_from(net, in, &pp->pre, tr);
}

/* share: the weights are ev_w's, whose tag changes with every load (shared_rows). */
static void evaluate_with(const ev_weights *w, const mg_board *b, int share, float p[NN_OUT]) {
    int cls = ev_class(b);
    if (cls == EV_OVER) { ev_terminal(mg_result(b), p); return; }
    if (cls == EV_BEAROFF) {
        if (!bo_ready()) bo_init();
        memset(p, 0, sizeof(float) * NN_OUT);
        p[EV_WIN] = bo_win_prob(b);
        return;
    }
    float in[EV_N_IN];
    nn_trace tr;
    ev_encode(b, in);
    const nn_net *nets[3] = { &w->contact, &w->race, &w->crashed };
    const int k = ev_net_index(w, b, cls);
    if (share) forward_sharing(w, nets[k], k, b, in, &tr);
    else nn_forward(nets[k], in, &tr);
    memcpy(p, tr.out, sizeof(float) * NN_OUT);
    ev_mask(b, cls, p);
    ev_sanitize(p);
}

void ev_evaluate_w(const ev_weights *w, const mg_board *b, float p[NN_OUT]) {
    evaluate_with(w, b, 0, p);
}

void ev_evaluate(const mg_board *b, float p[NN_OUT]) { evaluate_with(&ev_w, b, 1, p); }
