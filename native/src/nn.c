/* nn.c: forward pass and gradient step of the evaluator's network (see nn.h). Plain C,
 * single precision, sparse over the inputs, written so the compiler vectorizes it. Not the
 * encoding and not the search. */
#include "nn.h"
#include "bits.h"
#include <math.h>
#include <string.h>

/* No a*b+c is ever contracted into one fused multiply-add in this file: the sums must come
 * out the same bits with and without FMA hardware, in the game's build (-std=c11, where GCC
 * does not contract) and in the tools' (-std=gnu11 -march=native, where it would). For GCC
 * also two options that change no result: no-trapping-math (FP exception flags are never
 * read here; without it GCC leaves the sigmoid's clamps as branches) and no unroll-and-jam
 * (which turns the hidden sums into a scalar loop over two inputs at a time). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-trapping-math", "no-loop-unroll-and-jam")
#endif

#if defined(__GNUC__) || defined(__clang__)
#define NN_INLINE static inline __attribute__((always_inline))
#else
#define NN_INLINE static inline
#endif
#if defined(__GNUC__) || defined(__clang__)
#define NN_PREFETCH(p) __builtin_prefetch(p)
#else
#define NN_PREFETCH(p) ((void)0)
#endif
#define NN_CTZ64(m) bg_ctz64(m)

/* Table sigmoid over [-SIG_RANGE, SIG_RANGE] with linear interpolation: enough precision
 * for play and training, and several times faster than expf. */
#define SIG_RANGE 16.0f
#define SIG_STEPS 4096
static float sig_table[SIG_STEPS + 2];
static int sig_ready;

static void sig_init(void) {
    for (int i = 0; i <= SIG_STEPS + 1; i++) {
        double x = -SIG_RANGE + 2.0 * SIG_RANGE * i / SIG_STEPS;
        sig_table[i] = (float)(1.0 / (1.0 + exp(-x)));
    }
    sig_ready = 1;
}

/* The table lookup in two halves, so that a loop of either vectorizes (GCC if-converts no
 * loop that both selects and gathers): sig_pos clamps x into the table, x at or below
 * -SIG_RANGE (and NaN) to position 0, x at or above SIG_RANGE to SIG_STEPS; sig_at reads
 * and interpolates there (fraction 0 at either end). */
NN_INLINE float sig_pos(float x) {
    x = x > -SIG_RANGE ? x : -SIG_RANGE;
    x = x < SIG_RANGE ? x : SIG_RANGE;
    return (x + SIG_RANGE) * (SIG_STEPS / (2.0f * SIG_RANGE));
}

NN_INLINE float sig_at(float pos) {
    int i = (int)pos;
    float f = pos - (float)i;
    return sig_table[i] + f * (sig_table[i + 1] - sig_table[i]);
}

float nn_sigmoid(float x) {
    if (!sig_ready) sig_init();
    return sig_at(sig_pos(x));
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void nn_init_random(nn_net *net, int n_in, int n_hid, uint64_t seed) {
    memset(net, 0, sizeof *net);
    net->n_in = n_in;
    net->n_hid = n_hid;
    uint64_t s = seed;
    float scale_in = 0.2f, scale_out = 0.2f;
    for (int i = 0; i < n_in * n_hid; i++)
        net->w_in[i] = scale_in * ((float)(splitmix(&s) >> 40) / (float)(1 << 24) * 2.0f - 1.0f);
    for (int i = 0; i < NN_OUT * n_hid; i++)
        net->w_out[i] = scale_out * ((float)(splitmix(&s) >> 40) / (float)(1 << 24) * 2.0f - 1.0f);
}

/* The forward pass. Every hidden unit's sum is its bias plus x * w for each non-zero input
 * in increasing input order (x * w is exactly w when x is 1, so this is the sum the plain
 * loop made), then the table sigmoid; each output sums its products in 16 lanes (unit h in
 * lane h % 16, in increasing h), then adds the lanes in one fixed tree. Paths differ only in
 * the order in which units are worked on, never in the arithmetic of one unit or one lane,
 * so every path gives the same bits. */

/* Eight 0/1 bytes as the bits of one byte, the first lowest: on a little-endian machine one
 * multiply moves byte k's bit to bit 56 + k (no two partial products meet, so no carries). */
NN_INLINE uint64_t fold8(const uint8_t *flag) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t bytes;
    memcpy(&bytes, flag, 8);
    return (bytes * 0x0102040810204080ULL) >> 56;
#else
    uint64_t bits = 0;
    for (int k = 0; k < 8; k++) bits |= (uint64_t)flag[k] << k;
    return bits;
#endif
}

/* The non-zero inputs from `start` on in increasing order into tr->nz, with each one's value
 * and row of weights: a byte flag per input (vectorized), 8 flags folded into 8 bits by one
 * multiply, and the set bits taken lowest first, so there is no branch per input (one would
 * be mispredicted at about every other non-zero). Each row's first 64 weights are asked for
 * from the cache as soon as the row is known. Returns how many. */
NN_INLINE int nonzero_inputs(const nn_net *net, const float *in, int start, nn_trace *tr,
                             const float **rows, float *xs) {
    const int n_in = net->n_in, nh = net->n_hid;
    uint8_t flag[NN_MAX_IN + 64];
    for (int i = 0; i < n_in; i++) flag[i] = in[i] != 0.0f;
    for (int i = n_in; i < n_in + 64; i++) flag[i] = 0;
    int nz = 0;
    for (int base = start & ~63; base < n_in; base += 64) {
        uint64_t mask = 0;
        for (int g = 0; g < 8; g++) mask |= fold8(flag + base + 8 * g) << (8 * g);
        if (base < start) mask &= ~0ULL << (start - base);   /* those below start: a prefix */
        while (mask) {
            const int i = base + NN_CTZ64(mask);
            const float *row = net->w_in + (size_t)i * nh;
            mask &= mask - 1;
            for (int c = 0; c < 64 && c < nh; c += 16) NN_PREFETCH(row + c);
            tr->nz[nz] = (int16_t)i;
            rows[nz] = row;
            xs[nz] = in[i];
            nz++;
        }
    }
    tr->n_nz = nz;
    return nz;
}

/* Units h0 .. h0 + len - 1: their sums, kept in registers while the non-zero inputs go by
 * (len a compile-time constant after inlining), into pos[] as sigmoid table positions.
 * Every index is a loop counter plus a pointer, never a sum of two ints, so the loops
 * vectorize under -fwrapv as well (Python's own flags for the extension build). */
#define NN_BLOCK_MAX 64
NN_INLINE void hidden_block(const float *const *rows, const float *xs, int n_nz, int h0,
                            const float *bias, float *pos, int len) {
    float acc[NN_BLOCK_MAX];
    for (int h = 0; h < len; h++) acc[h] = bias[h];
    for (int j = 0; j < n_nz; j++) {
        const float *row = rows[j] + h0;
        const float x = xs[j];
        for (int h = 0; h < len; h++) acc[h] += x * row[h];
    }
    for (int h = 0; h < len; h++) pos[h] = sig_pos(acc[h]);
}

/* The pass over the inputs from `start` on, each unit's sum starting from init[] (the biases,
 * or a prefix's sums over the inputs below start). */
NN_INLINE void forward_body(const nn_net *net, const float *in, int start, const float *init,
                            nn_trace *tr, const int block) {
    const int nh = net->n_hid;
    const float *rows[NN_MAX_IN];
    float xs[NN_MAX_IN];
    const int nz = nonzero_inputs(net, in, start, tr, rows, xs);
    float *hid = tr->hid;
    int h0 = 0;
    for (; h0 + block <= nh; h0 += block)
        hidden_block(rows, xs, nz, h0, init + h0, hid + h0, block);
    /* the rest in smaller blocks, each still a compile-time constant */
    if (block > 32 && h0 + 32 <= nh) {
        hidden_block(rows, xs, nz, h0, init + h0, hid + h0, 32);
        h0 += 32;
    }
    if (h0 + 16 <= nh) {
        hidden_block(rows, xs, nz, h0, init + h0, hid + h0, 16);
        h0 += 16;
    }
    if (h0 + 8 <= nh) {
        hidden_block(rows, xs, nz, h0, init + h0, hid + h0, 8);
        h0 += 8;
    }
    if (h0 < nh) hidden_block(rows, xs, nz, h0, init + h0, hid + h0, nh - h0);
    for (int h = 0; h < nh; h++) hid[h] = sig_at(hid[h]);
    const int n16 = nh / 16;
    for (int k = 0; k < NN_OUT; k++) {
        const float *w = net->w_out + k * nh, *v = hid;
        float lane[16];
        for (int l = 0; l < 16; l++) lane[l] = 0.0f;
        for (int c = 0; c < n16; c++, w += 16, v += 16)
            for (int l = 0; l < 16; l++) lane[l] += w[l] * v[l];
        for (int l = 0; l < nh - 16 * n16; l++) lane[l] += w[l] * v[l];
        for (int l = 0; l < 8; l++) lane[l] += lane[l + 8];
        const float sum = ((lane[0] + lane[4]) + (lane[2] + lane[6])) +
                          ((lane[1] + lane[5]) + (lane[3] + lane[7]));
        tr->out[k] = sig_at(sig_pos(net->b_out[k] + sum));
    }
}

/* On x86-64 with GCC or clang the forward pass is also compiled for AVX2 (64 units a block:
 * eight 8-float registers) and taken where the CPU has it; elsewhere, and when the test hook
 * asks (nn_use_avx2(0)), the generic build (32 units a block: eight 4-float SSE registers). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NN_HAVE_AVX2_PATH 1
__attribute__((target("avx2"))) static void forward_avx2(const nn_net *net, const float *in,
                                                         int start, const float *init,
                                                         nn_trace *tr) {
    forward_body(net, in, start, init, tr, 64);
}
#else
#define NN_HAVE_AVX2_PATH 0
#endif

static void forward_generic(const nn_net *net, const float *in, int start, const float *init,
                            nn_trace *tr) {
    forward_body(net, in, start, init, tr, 32);
}

static int avx2_allowed = 1;

int nn_use_avx2(int allow) {
    avx2_allowed = allow != 0;
#if NN_HAVE_AVX2_PATH
    __builtin_cpu_init();
    return avx2_allowed && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

static void forward_from(const nn_net *net, const float *in, int start, const float *init,
                         nn_trace *tr) {
    if (!sig_ready) sig_init();
#if NN_HAVE_AVX2_PATH
    if (avx2_allowed && __builtin_cpu_supports("avx2")) {
        forward_avx2(net, in, start, init, tr);
        return;
    }
#endif
    forward_generic(net, in, start, init, tr);
}

void nn_forward(const nn_net *net, const float *in, nn_trace *tr) {
    forward_from(net, in, 0, net->b_hid, tr);
}

/* Each unit's sum is its bias plus x * w of each non-zero input in increasing order, one add
 * after another, on every path: so the sums over the inputs below `upto`, made here one
 * add after another in the same order, are the very bits a whole pass has there. */
void nn_prefix_make(const nn_net *net, const float *in, int upto, nn_prefix *pre) {
    const int nh = net->n_hid;
    pre->upto = upto;
    for (int h = 0; h < nh; h++) pre->acc[h] = net->b_hid[h];
    for (int i = 0; i < upto; i++) {
        if (in[i] == 0.0f) continue;
        const float x = in[i], *row = net->w_in + (size_t)i * nh;
        for (int h = 0; h < nh; h++) pre->acc[h] += x * row[h];
    }
}

void nn_forward_from(const nn_net *net, const float *in, const nn_prefix *pre, nn_trace *tr) {
    forward_from(net, in, pre->upto, pre->acc, tr);
}

void nn_train_step(nn_net *net, const float *in, const nn_trace *tr, const float *target,
                   float alpha) {
    nn_train_step_loss(net, in, tr, target, alpha, 0);
}

void nn_train_step_loss(nn_net *net, const float *in, const nn_trace *tr, const float *target,
                        float alpha, int cross_entropy) {
    const int nh = net->n_hid;
    float dout[NN_OUT];
    for (int k = 0; k < NN_OUT; k++) {
        float y = tr->out[k];
        /* squared error carries the sigmoid's slope y(1-y), which all but stops an output
         * that sits near 0 or 1; cross-entropy's gradient is the error itself */
        dout[k] = cross_entropy ? target[k] - y : (target[k] - y) * y * (1.0f - y);
    }
    float dhid[NN_MAX_HID];
    for (int h = 0; h < nh; h++) {
        float s = 0.0f;
        for (int k = 0; k < NN_OUT; k++) s += dout[k] * net->w_out[k * nh + h];
        dhid[h] = s * tr->hid[h] * (1.0f - tr->hid[h]) * alpha;
    }
    for (int k = 0; k < NN_OUT; k++) {
        float g = alpha * dout[k];
        float *w = net->w_out + k * nh;
        for (int h = 0; h < nh; h++) w[h] += g * tr->hid[h];
        net->b_out[k] += g;
    }
    for (int h = 0; h < nh; h++) net->b_hid[h] += dhid[h];
    for (int j = 0; j < tr->n_nz; j++) {
        int i = tr->nz[j];
        float x = in[i];
        float *row = net->w_in + (size_t)i * nh;
        for (int h = 0; h < nh; h++) row[h] += x * dhid[h];
    }
}
