/* bits.h: the bit counts native/src uses (lowest set bit, highest set bit, set bits, byte
 * swap): GCC's and clang's builtins where they exist, plain C elsewhere (MSVC), with the same
 * answers. BG_PORTABLE_BITS takes the plain C on GCC too (the self-test's check of that path).
 * Not the network's own bit helpers (nn.c) and not a general library. */
#ifndef BG_BITS_H
#define BG_BITS_H

#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(BG_PORTABLE_BITS)
static inline int bg_ctz32(uint32_t m) { return __builtin_ctz(m); }        /* m != 0 */
static inline int bg_ctz64(uint64_t m) { return __builtin_ctzll(m); }      /* m != 0 */
static inline int bg_clz32(uint32_t m) { return __builtin_clz(m); }        /* m != 0 */
static inline int bg_popcount32(uint32_t m) { return __builtin_popcount(m); }
static inline uint32_t bg_bswap32(uint32_t x) { return __builtin_bswap32(x); }
#else
static inline int bg_ctz64(uint64_t m) {
    int n = 0;
    while (!(m & 1u)) { m >>= 1; n++; }
    return n;
}
static inline int bg_ctz32(uint32_t m) { return bg_ctz64(m); }
static inline int bg_clz32(uint32_t m) {
    int n = 0;
    while (!(m & 0x80000000u)) { m <<= 1; n++; }
    return n;
}
static inline int bg_popcount32(uint32_t m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}
static inline uint32_t bg_bswap32(uint32_t x) {
    return (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24);
}
#endif

#endif
