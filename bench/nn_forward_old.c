/* nn_forward_old.c: the network's forward pass as it was before the blocked rewrite (native/src/
 * nn.c at commit 09f2522), renamed, with its own sigmoid table; kept only so bench/nnspeed.py
 * can time the old and the new pass in one run. Not part of the game's build. */
#include "nn.h"
#include <math.h>
#include <string.h>

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

float nn_sigmoid_old(float x);
float nn_sigmoid_old(float x) {
    if (!sig_ready) sig_init();
    if (!(x > -SIG_RANGE)) return sig_table[0];   /* also catches NaN */
    if (x >= SIG_RANGE) return sig_table[SIG_STEPS];
    float pos = (x + SIG_RANGE) * (SIG_STEPS / (2.0f * SIG_RANGE));
    int i = (int)pos;
    float f = pos - (float)i;
    return sig_table[i] + f * (sig_table[i + 1] - sig_table[i]);
}

void nn_forward_old(const nn_net *net, const float *in, nn_trace *tr);
#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target_clones("avx2", "default")))
#endif
void nn_forward_old(const nn_net *net, const float *in, nn_trace *tr) {
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
    for (int h = 0; h < nh; h++) tr->hid[h] = nn_sigmoid_old(acc[h]);
    for (int k = 0; k < NN_OUT; k++) {
        const float *w = net->w_out + k * nh;
        float s = net->b_out[k];
        for (int h = 0; h < nh; h++) s += w[h] * tr->hid[h];
        tr->out[k] = nn_sigmoid_old(s);
    }
}
