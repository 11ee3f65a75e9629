/* pyface.c: the python face section of bg.h: gnubg position IDs (base64 of an 80-bit key:
 * the side not on roll, then the side on roll, each as 25 runs of 1-bits, points 1..24 then
 * the bar, each run ended by a 0, bits taken from the low end of each byte) read and written
 * in C, so the Python face needs no object per candidate. Not the rules and not the search. */
#include <string.h>
#include "bg.h"
#include "movegen.h"
#include "bits.h"

#define KEY_BYTES 10

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* The 80-bit key as two words (bits 0..63, 64..79) shifted down by 1..16 places. */
static inline void key_shift_down(uint64_t *lo, uint64_t *hi, int k) {
    *lo = (*lo >> k) | (*hi << (64 - k));
    *hi >>= k;
}

int bg_board_from_id(const char *id, int8_t *out_board) {
    if (!id || !out_board) return -BG_ERR_BAD_ID;
    uint8_t key[12];
    for (int g = 0; g < 4; g++) {   /* 4 characters -> 3 bytes; the 15th and 16th are 'A' */
        uint32_t v = 0;
        for (int k = 0; k < 4; k++) {
            int i = 4 * g + k, c = i < BG_ID_LEN ? b64_value(id[i]) : 0;
            if (c < 0) return -BG_ERR_BAD_ID;
            v = v << 6 | (uint32_t)c;
        }
        key[3 * g] = (uint8_t)(v >> 16);
        key[3 * g + 1] = (uint8_t)(v >> 8);
        key[3 * g + 2] = (uint8_t)v;
    }
    uint64_t lo = 0, hi = (uint64_t)key[8] | (uint64_t)key[9] << 8;   /* bits past 80 unused */
    for (int i = 7; i >= 0; i--) lo = lo << 8 | key[i];
    int8_t board[BG_BOARD_LEN];
    int used = 0, all_men = 0;
    uint32_t points[2] = {0, 0};   /* points held, both in the mover's indices (bit i: index i) */
    for (int side = 0; side < 2; side++) {
        int8_t *row = board + (side == 0 ? 25 : 0);   /* the side on roll is the key's second */
        int men = 0;
        for (int place = 0; place < 25; place++) {
            if (~lo == 0) return -BG_ERR_BAD_ID;
            int ones = bg_ctz64(~lo);
            men += ones;
            used += ones + 1;
            if (men > 15 || used > 8 * KEY_BYTES) return -BG_ERR_BAD_ID;
            row[place] = (int8_t)ones;
            if (ones && place < 24) points[side] |= 1u << (side == 0 ? 23 - place : place);
            key_shift_down(&lo, &hi, ones + 1);
        }
        all_men += men;
    }
    if (lo || hi) return -BG_ERR_BAD_ID;   /* set bits beyond the two sides */
    /* what bg_validate would refuse besides too many men: a point both sides hold, no men */
    if ((points[0] & points[1]) || all_men == 0) return -BG_ERR_BAD_ID;
    memcpy(out_board, board, BG_BOARD_LEN);
    return 0;
}

/* One side's part of the key, at most 25 + 15 bits: place k's men as 1-bits from bit
 * (k + the men of the places below it), each run ended by a 0. *len gets the length. The
 * runs' ends only add, so the ORs of the places do not wait on each other. */
static inline uint64_t row_bits(const int8_t *row, int *len) {
    uint64_t v = 0;
    int at = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 25
#endif
    for (int place = 0; place < 25; place++) {
        const int n = row[place] & 15;   /* 0..15 on any board bg_validate accepts */
        v |= ((1ull << n) - 1) << at;
        at += n + 1;
    }
    *len = at;
    return v;
}

/* Three key bytes from bit `at` of the key (lo, hi), the first the most significant, as
 * base64 takes them. */
static inline uint32_t key_group(uint64_t lo, uint64_t hi, int at) {
    const uint64_t bits = at == 0 ? lo : at < 64 ? (lo >> at) | (hi << (64 - at)) : hi >> (at - 64);
    return bg_bswap32((uint32_t)bits) >> 8;
}

/* The ID of the board whose opponent's part of the key is `opp` (length opp_len). */
static void id_of_parts(const int8_t *board, uint64_t opp, int opp_len, char *out) {
    int my_len;
    uint64_t me = row_bits(board, &my_len);
    /* key = the opponent's part, then the mover's from bit opp_len (25..40) */
    const uint64_t lo = opp | me << opp_len, hi = me >> (64 - opp_len);
    for (int g = 0; g < 4; g++) {   /* 3 bytes -> 4 characters; the key's 80 bits fill 14 */
        const uint32_t v = key_group(lo, hi, 24 * g);
        out[4 * g] = B64[v >> 18];
        out[4 * g + 1] = B64[v >> 12 & 63];
        if (g == 3) break;
        out[4 * g + 2] = B64[v >> 6 & 63];
        out[4 * g + 3] = B64[v & 63];
    }
}

static void id_of_board(const int8_t *board, char *out) {
    int opp_len;
    uint64_t opp = row_bits(board + 25, &opp_len);
    id_of_parts(board, opp, opp_len, out);
}

int bg_ids_of_boards(const int8_t *boards, int n, char *out_text) {
    if (!boards || !out_text || n < 0) return -BG_ERR_BAD_ARG;
    for (int i = 0; i < n; i++) {
        id_of_board(boards + (size_t)i * BG_BOARD_LEN, out_text + (size_t)i * (BG_ID_LEN + 1));
        out_text[(size_t)i * (BG_ID_LEN + 1) + BG_ID_LEN] = ' ';
    }
    return n;
}

static _Thread_local mg_play result_buf[MG_MAX_PLAYS];

int bg_legal_result_ids(const char *id, int die1, int die2, char *out_text, int max_ids) {
    int8_t board[BG_BOARD_LEN];
    int rc = bg_board_from_id(id, board);
    if (rc) return rc;
    if (die1 < 1 || die1 > 6 || die2 < 1 || die2 > 6) return -BG_BAD_DICE;
    if (!out_text) return -BG_ERR_BAD_ARG;
    int n = mg_generate((const mg_board *)board, die1, die2, result_buf);
    if (n > max_ids) return -BG_NO_ROOM;
    int opp_len;   /* the opponent's part of the key is the same after every play without a hit */
    uint64_t opp = row_bits(board + 25, &opp_len);
    for (int i = 0; i < n; i++) {
        const int8_t *after = (const int8_t *)&result_buf[i].after;
        char *out = out_text + (size_t)i * (BG_ID_LEN + 1);
        if (memcmp(after + 25, board + 25, 25) == 0) id_of_parts(after, opp, opp_len, out);
        else id_of_board(after, out);
        out[BG_ID_LEN] = ' ';
    }
    return n;
}

static _Thread_local char result_text[MG_MAX_PLAYS * (BG_ID_LEN + 1) + 1];

int bg_legal_result_text(const char *id, int die1, int die2, const char **out_text) {
    if (!out_text) return -BG_ERR_BAD_ARG;
    *out_text = NULL;
    const int n = bg_legal_result_ids(id, die1, die2, result_text, MG_MAX_PLAYS);
    if (n < 0) return n;
    result_text[(size_t)n * (BG_ID_LEN + 1)] = '\0';
    *out_text = result_text;
    return n;
}
