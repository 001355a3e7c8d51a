/* Inline byte helpers for the key cache and str creation of loads
 * (loads_keys.c, loads_str.c).
 *
 * WHY inline: the strings are short (keys average ~10 bytes, most values under
 * 64), and a call to libc's memcmp/memcpy through the PLT, with its size
 * dispatch, cost more than the bytes themselves (memcmp alone was 4.6% of
 * loads(twitter)). Every load and store stays inside [0, n) of its buffer:
 * short lengths are covered by two overlapping fixed-size moves (first and
 * last word), never by reading past the end of the caller's bytes.
 */
#ifndef ISOJSON_LOADS_BYTES_H
#define ISOJSON_LOADS_BYTES_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define LOADS_NOINLINE __attribute__((noinline))
#else
#define LOADS_NOINLINE
#endif

static inline uint64_t loads_bytes_load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint32_t loads_bytes_load32(const uint8_t *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* a[0:n) == b[0:n). */
static inline int loads_bytes_eq(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n >= 8) {
        if (n <= 16)   /* most keys: two overlapping words, one branch */
            return ((loads_bytes_load64(a) ^ loads_bytes_load64(b)) | (loads_bytes_load64(a + n - 8) ^ loads_bytes_load64(b + n - 8))) == 0;
        for (size_t i = 0; i + 8 < n; i += 8)
            if (loads_bytes_load64(a + i) != loads_bytes_load64(b + i))
                return 0;
        return loads_bytes_load64(a + n - 8) == loads_bytes_load64(b + n - 8);
    }
    if (n >= 4)
        return loads_bytes_load32(a) == loads_bytes_load32(b) && loads_bytes_load32(a + n - 4) == loads_bytes_load32(b + n - 4);
    if (n == 0)
        return 1;
    /* 1..3 bytes: the first, middle and last cover them all. */
    return a[0] == b[0] && a[n >> 1] == b[n >> 1] && a[n - 1] == b[n - 1];
}

/* dst[0:n) = src[0:n) for buffers that do not overlap. Beyond 64 bytes libc's
 * memcpy wins (its vector loops amortise the call). */
static inline void loads_bytes_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n > 64) {
        memcpy(dst, src, n);
    } else if (n >= 16) {
        /* 16-byte steps, then the last 16 bytes (overlapping what is done). */
        for (size_t i = 0; i + 16 < n; i += 16) {
            uint64_t x = loads_bytes_load64(src + i), y = loads_bytes_load64(src + i + 8);
            memcpy(dst + i, &x, 8);
            memcpy(dst + i + 8, &y, 8);
        }
        uint64_t x = loads_bytes_load64(src + n - 16), y = loads_bytes_load64(src + n - 8);
        memcpy(dst + n - 16, &x, 8);
        memcpy(dst + n - 8, &y, 8);
    } else if (n >= 8) {
        uint64_t x = loads_bytes_load64(src), y = loads_bytes_load64(src + n - 8);
        memcpy(dst, &x, 8);
        memcpy(dst + n - 8, &y, 8);
    } else if (n >= 4) {
        uint32_t x = loads_bytes_load32(src), y = loads_bytes_load32(src + n - 4);
        memcpy(dst, &x, 4);
        memcpy(dst + n - 4, &y, 4);
    } else if (n > 0) {
        uint8_t a = src[0], b = src[n >> 1], c = src[n - 1];
        dst[0] = a;
        dst[n >> 1] = b;
        dst[n - 1] = c;
    }
}

/* Multiplies a by b and folds the 128-bit product into 64 bits: every bit
 * of the result depends on every bit of both inputs (wyhash's "mum"). The
 * low bits pick cache slots, so a plain 64-bit multiply (whose low bits see
 * only the low bits of its inputs) is not enough: digit-string keys of equal
 * length (citm_catalog's ids) piled into a few slots with one. */
static inline uint64_t loads_bytes_mix(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__) && !defined(ISOJSON_NO_INT128)   /* the knob tests the fallback */
    unsigned __int128 m = (unsigned __int128)a * b;
    return (uint64_t)m ^ (uint64_t)(m >> 64);
#else
    uint64_t h = a * 0xff51afd7ed558ccdULL ^ b * 0xc4ceb9fe1a85ec53ULL;
    h = (h ^ (h >> 32)) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
#endif
}

/* A fast hash of s[0:n) for picking a cache slot (not for security: a
 * collision only costs a miss). Up to 16 bytes: two overlapping words and
 * one mix; longer strings fold 16 bytes a step first. */
static inline uint64_t loads_bytes_hash(const uint8_t *s, size_t n)
{
    const uint64_t k1 = 0xa0761d6478bd642fULL, k2 = 0xe7037ed1a0b428dbULL;
    uint64_t a, b, h = 0;
    if (n > 16) {
        size_t i = 0;
        for (; i + 16 < n; i += 16)
            h = loads_bytes_mix(loads_bytes_load64(s + i) ^ k1 ^ h, loads_bytes_load64(s + i + 8) ^ k2);
        a = loads_bytes_load64(s + (n - i > 8 ? i : n - 8));
        b = loads_bytes_load64(s + n - 8);
    } else if (n >= 8) {
        a = loads_bytes_load64(s);
        b = loads_bytes_load64(s + n - 8);
    } else if (n >= 4) {
        a = loads_bytes_load32(s);
        b = loads_bytes_load32(s + n - 4);
    } else {
        /* 1..3 bytes: the first, middle and last cover them all. */
        a = n == 0 ? 0 : (uint64_t)s[0] << 16 | (uint64_t)s[n >> 1] << 8 | s[n - 1];
        b = 0;
    }
    return loads_bytes_mix(a ^ k1 ^ h, b ^ k2 ^ n);
}

#endif
