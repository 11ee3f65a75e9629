/* nn.c: forward pass and gradient step of the evaluator's network (see nn.h). Plain C,
 * single precision, sparse over the inputs. Not the encoding and not the search. */
#include "nn.h"
#include <math.h>
#include <string.h>

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

float nn_sigmoid(float x) {
    if (!sig_ready) sig_init();
    if (!(x > -SIG_RANGE)) return sig_table[0];   /* also catches NaN */
    if (x >= SIG_RANGE) return sig_table[SIG_STEPS];
    float pos = (x + SIG_RANGE) * (SIG_STEPS / (2.0f * SIG_RANGE));
    int i = (int)pos;
    float f = pos - (float)i;
    return sig_table[i] + f * (sig_table[i + 1] - sig_table[i]);
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

/* On x86-64 with GCC or clang the forward pass is also compiled for AVX2 and picked at run
 * time (glibc ifunc): the hidden sums are element-wise, so both versions give the same bits. */
#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target_clones("avx2", "default")))
#endif
void nn_forward(const nn_net *net, const float *in, nn_trace *tr) {
    const int nh = net->n_hid;
    float acc[NN_MAX_HID];
    memcpy(acc, net->b_hid, sizeof(float) * nh);
    int nz = 0;
    for (int i = 0; i < net->n_in; i++) {
        float x = in[i];
        if (x == 0.0f) continue;
        tr->nz[nz++] = (int16_t)i;
        const float *row = net->w_in + (size_t)i * nh;
        if (x == 1.0f) {
            for (int h = 0; h < nh; h++) acc[h] += row[h];
        } else {
            for (int h = 0; h < nh; h++) acc[h] += x * row[h];
        }
    }
    tr->n_nz = nz;
    for (int h = 0; h < nh; h++) tr->hid[h] = nn_sigmoid(acc[h]);
    for (int k = 0; k < NN_OUT; k++) {
        const float *w = net->w_out + k * nh;
        float s = net->b_out[k];
        for (int h = 0; h < nh; h++) s += w[h] * tr->hid[h];
        tr->out[k] = nn_sigmoid(s);
    }
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
