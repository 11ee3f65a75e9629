/* evalwts.c: the weights file of the evaluator: magic, version, sizes, the nets as
 * little-endian float32 (contact, race, and in version 2 the crashed net), and an FNV-1a
 * checksum over everything before it. Reads and writes memory buffers only; opening files is
 * the caller's business (Python, training tool). */
#include "eval.h"
#include "../bg.h"
#include <string.h>

#define HEADER_BYTES (8 + 4 * 6)   /* version 1; version 2 adds the crashed net's hidden units */

uint32_t ev_fnv1a(const uint8_t *data, long len) {
    uint32_t h = 2166136261u;
    for (long i = 0; i < len; i++) { h ^= data[i]; h *= 16777619u; }
    return h;
}

static long net_floats(int n_in, int n_hid) { return (long)n_in * n_hid + n_hid + NN_OUT * n_hid + NN_OUT; }

long ev_wts_size(int n_in, int n_hid_contact, int n_hid_race, int n_hid_crashed) {
    long floats = net_floats(n_in, n_hid_contact) + net_floats(n_in, n_hid_race);
    if (n_hid_crashed > 0) return HEADER_BYTES + 4 + 4 * (floats + net_floats(n_in, n_hid_crashed)) + 4;
    return HEADER_BYTES + 4 * floats + 4;
}

static void put_u32(uint8_t *p, uint32_t v) { p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24; }
static uint32_t get_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void put_f(uint8_t **p, float f) { uint32_t v; memcpy(&v, &f, 4); put_u32(*p, v); *p += 4; }
static float get_f(const uint8_t **p) { uint32_t v = get_u32(*p); float f; memcpy(&f, &v, 4); *p += 4; return f; }

static void put_net(uint8_t **p, const nn_net *n) {
    for (long i = 0; i < (long)n->n_in * n->n_hid; i++) put_f(p, n->w_in[i]);
    for (int i = 0; i < n->n_hid; i++) put_f(p, n->b_hid[i]);
    for (int i = 0; i < NN_OUT * n->n_hid; i++) put_f(p, n->w_out[i]);
    for (int i = 0; i < NN_OUT; i++) put_f(p, n->b_out[i]);
}

static int get_net(const uint8_t **p, nn_net *n, int n_in, int n_hid) {
    memset(n, 0, sizeof *n);
    n->n_in = n_in;
    n->n_hid = n_hid;
    for (long i = 0; i < (long)n_in * n_hid; i++) n->w_in[i] = get_f(p);
    for (int i = 0; i < n_hid; i++) n->b_hid[i] = get_f(p);
    for (int i = 0; i < NN_OUT * n_hid; i++) n->w_out[i] = get_f(p);
    for (int i = 0; i < NN_OUT; i++) n->b_out[i] = get_f(p);
    /* a finite-weights check: NaN or huge values mean a damaged or diverged file */
    for (long i = 0; i < (long)n_in * n_hid; i++) if (!(n->w_in[i] > -1e6f && n->w_in[i] < 1e6f)) return -1;
    for (int i = 0; i < NN_OUT * n_hid; i++) if (!(n->w_out[i] > -1e6f && n->w_out[i] < 1e6f)) return -1;
    return 0;
}

long ev_wts_serialize(const ev_weights *w, uint8_t *buf, long cap) {
    int hk = w->crashed.n_hid;
    long size = ev_wts_size(w->contact.n_in, w->contact.n_hid, w->race.n_hid, hk);
    if (cap < size) return -size;
    uint8_t *p = buf;
    memcpy(p, EV_WTS_MAGIC, 8); p += 8;
    put_u32(p, hk > 0 ? EV_WTS_VERSION_CRASHED : EV_WTS_VERSION); p += 4;
    put_u32(p, (uint32_t)w->contact.n_in); p += 4;
    put_u32(p, (uint32_t)w->contact.n_hid); p += 4;
    put_u32(p, (uint32_t)w->race.n_in); p += 4;
    put_u32(p, (uint32_t)w->race.n_hid); p += 4;
    put_u32(p, w->games_trained); p += 4;
    if (hk > 0) { put_u32(p, (uint32_t)hk); p += 4; }
    put_net(&p, &w->contact);
    put_net(&p, &w->race);
    if (hk > 0) put_net(&p, &w->crashed);
    put_u32(p, ev_fnv1a(buf, p - buf)); p += 4;
    return p - buf;
}

int ev_wts_parse_inputs(ev_weights *w, const uint8_t *buf, long len, int want_in) {
    if (!buf || len < HEADER_BYTES + 4) return BG_ERR_WTS_SIZE;
    if (memcmp(buf, EV_WTS_MAGIC, 8) != 0) return BG_ERR_WTS_MAGIC;
    uint32_t version = get_u32(buf + 8);
    if (version != EV_WTS_VERSION && version != EV_WTS_VERSION_CRASHED) return BG_ERR_WTS_VERSION;
    int v2 = version == EV_WTS_VERSION_CRASHED;
    uint32_t n_in = get_u32(buf + 12), hc = get_u32(buf + 16), rin = get_u32(buf + 20), hr = get_u32(buf + 24);
    uint32_t hk = v2 ? get_u32(buf + HEADER_BYTES) : 0;
    int in_ok = want_in ? n_in == (uint32_t)want_in : n_in >= 1 && n_in <= NN_MAX_IN;
    if (!in_ok || rin != n_in || hc < 1 || hc > NN_MAX_HID || hr < 1 || hr > NN_MAX_HID ||
        (v2 && (hk < 1 || hk > NN_MAX_HID)))
        return BG_ERR_WTS_VERSION;
    if (len != ev_wts_size((int)n_in, (int)hc, (int)hr, (int)hk)) return BG_ERR_WTS_SIZE;
    if (get_u32(buf + len - 4) != ev_fnv1a(buf, len - 4)) return BG_ERR_WTS_CHECKSUM;
    const uint8_t *p = buf + HEADER_BYTES + (v2 ? 4 : 0);
    w->games_trained = get_u32(buf + 28);
    if (get_net(&p, &w->contact, (int)n_in, (int)hc) || get_net(&p, &w->race, (int)n_in, (int)hr))
        return BG_ERR_WTS_CHECKSUM;
    if (v2) {
        if (get_net(&p, &w->crashed, (int)n_in, (int)hk)) return BG_ERR_WTS_CHECKSUM;
    } else {
        w->crashed.n_hid = 0;   /* none: the contact net judges crashed positions */
        w->crashed.n_in = 0;
    }
    static uint32_t parses;
    w->loaded = 1;
    w->tag = ++parses;
    return 0;
}

int ev_wts_parse(ev_weights *w, const uint8_t *buf, long len) {
    return ev_wts_parse_inputs(w, buf, len, EV_N_IN);
}
