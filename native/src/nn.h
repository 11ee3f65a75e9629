/* nn.h: the small feed-forward network behind the evaluator (inputs -> sigmoid hidden ->
 * five sigmoid outputs) with a TD/supervised update step. Not the input encoding (eval.c)
 * and not the weights file format (evalwts.c). */
#ifndef SPECTRUM_NN_H
#define SPECTRUM_NN_H
#include <stdint.h>

#define NN_MAX_IN 256
#define NN_MAX_HID 512   /* the weights file reader refuses nets with more hidden units */
#define NN_OUT 5

typedef struct {
    int n_in, n_hid;
    /* w_in is input-major: w_in[i * n_hid + h], so a sparse input adds one contiguous row */
    float w_in[NN_MAX_IN * NN_MAX_HID];
    float b_hid[NN_MAX_HID];
    float w_out[NN_OUT * NN_MAX_HID];   /* w_out[k * n_hid + h] */
    float b_out[NN_OUT];
} nn_net;

/* Scratch of one forward pass, kept for the backward step. */
typedef struct {
    float hid[NN_MAX_HID];
    float out[NN_OUT];
    int n_nz;
    int16_t nz[NN_MAX_IN];   /* indices of the non-zero inputs */
} nn_trace;

/* The hidden units' sums over the inputs below `upto` alone (biases included): a pass over
 * inputs that agree with these below upto may start from them (nn_forward_from). */
typedef struct {
    int upto;
    float acc[NN_MAX_HID];
} nn_prefix;

void nn_init_random(nn_net *net, int n_in, int n_hid, uint64_t seed);
/* Forward pass; in[] has n_in entries, zero entries are skipped. Takes an AVX2 path where
 * the CPU has one, with the same bits as the generic path. */
void nn_forward(const nn_net *net, const float *in, nn_trace *tr);
/* The prefix of `in` below `upto` for `net`, and the forward pass of inputs that agree with it
 * there, started from it: the same outputs and hidden values, bit for bit, as nn_forward's
 * (the trace's nz lists only the inputs from upto on, so it is not for a training step). */
void nn_prefix_make(const nn_net *net, const float *in, int upto, nn_prefix *pre);
void nn_forward_from(const nn_net *net, const float *in, const nn_prefix *pre, nn_trace *tr);
/* One gradient step moving the outputs of the traced pass toward target[NN_OUT]. */
void nn_train_step(nn_net *net, const float *in, const nn_trace *tr, const float *target,
                   float alpha);
/* As nn_train_step, on squared error (cross_entropy 0) or on cross-entropy (1). */
void nn_train_step_loss(nn_net *net, const float *in, const nn_trace *tr, const float *target,
                        float alpha, int cross_entropy);
float nn_sigmoid(float x);
/* allow 0: nn_forward takes its generic path even where the CPU has AVX2 (a test hook: the
 * paths give the same bits); 1: the AVX2 path where there is one. Returns 1 when the AVX2
 * path is now in use. */
int nn_use_avx2(int allow);
#endif
