/* Scans of str data while dumps builds the tape: whether a string needs
 * JSON escaping (a control character, '"' or '\\'; when it does not, the tape
 * entry is marked Clean and the writer copies it without looking), and, for
 * 2- and 4-byte data, whether it holds a lone surrogate (which orjson
 * refuses). One pass does both. dumps_scan_sse2.c is the x86-64 version,
 * dumps_scan_other.c the portable one. */
#ifndef ISOJSON_DUMPS_SCAN_H
#define ISOJSON_DUMPS_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>   /* before the pragma: memcpy must not be declared hidden */

#pragma GCC visibility push(hidden)

#if defined(__SSE2__)
#define DUMPS_SCAN_SSE2 1
#else
#define DUMPS_SCAN_SSE2 0
#endif

#define DUMPS_SCAN_ESCAPE 1     /* needs escaping */
#define DUMPS_SCAN_SURROGATE 2  /* holds a surrogate code point */

/* Bytes: ASCII, Latin-1 or UTF-8 (only bytes < 0x20, '"' and '\\' matter). */
int dumps_scan_bytes(const uint8_t *s, size_t n);
int dumps_scan_ucs2(const uint16_t *s, size_t n);
int dumps_scan_ucs4(const uint32_t *s, size_t n);

#if DUMPS_SCAN_SSE2
#include <emmintrin.h>

/* The bytes of x that need escaping, as 0xFF. */
static inline __m128i dumps_scan_hits16(__m128i x)
{
    /* x <= 0x1F unsigned  <=>  saturating x - 0x1F == 0 */
    return _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(x, _mm_set1_epi8(0x1F)), _mm_setzero_si128()),
                        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
}

/* A string shorter than 16 bytes is scanned with one 16-byte load when that
 * load stays in the string's 4 KiB page: the bytes past its end cannot fault,
 * and the caller masks them off. That read is the only one of the scans past a
 * string's end, and AddressSanitizer would rightly report it; an ASan build
 * therefore copies exactly the string's n bytes into a zeroed register-sized
 * buffer instead (any page), so that every other load of the scans stays
 * checked. */
#ifdef __SANITIZE_ADDRESS__
#define DUMPS_SCAN_SHORT_LOAD_OK(s) 1
static inline __attribute__((always_inline)) __m128i dumps_scan_load_short(const uint8_t *s, size_t n)
{
    uint8_t buf[16] = {0};
    memcpy(buf, s, n);
    return _mm_loadu_si128((const __m128i *)buf);
}
#else
#define DUMPS_SCAN_SHORT_LOAD_OK(s) (((uintptr_t)(s) & 4095) <= 4096 - 16)
static inline __attribute__((always_inline)) __m128i dumps_scan_load_short(const uint8_t *s, size_t n)
{
    (void)n;
    return _mm_loadu_si128((const __m128i *)s);
}
#endif

/* dumps_scan_bytes, with the commonest cases inline: at most 16 bytes (most
 * keys and many values) in one SSE2 load, when the 16 bytes from s stay in
 * s's 4 KiB page (the bytes past the end are masked off; the load cannot
 * fault); 17 to 64 bytes (most URLs) in two or four overlapping loads within
 * the string, with no call (the AVX2 scan's call, constants and vzeroupper
 * cost more than its wider loads save at these lengths). */
static inline __attribute__((always_inline)) int dumps_scan_bytes_inline(const uint8_t *s, size_t n)
{
    if (n <= 16) {
        if (DUMPS_SCAN_SHORT_LOAD_OK(s)) {
            __m128i hit = dumps_scan_hits16(dumps_scan_load_short(s, n));
            return ((unsigned)_mm_movemask_epi8(hit) & ((1u << n) - 1)) ? DUMPS_SCAN_ESCAPE : 0;
        }
    } else if (n <= 64) {
        __m128i hit = _mm_or_si128(dumps_scan_hits16(_mm_loadu_si128((const __m128i *)s)),
                                   dumps_scan_hits16(_mm_loadu_si128((const __m128i *)(s + n - 16))));
        if (n > 32)
            hit = _mm_or_si128(hit, _mm_or_si128(dumps_scan_hits16(_mm_loadu_si128((const __m128i *)(s + 16))),
                                                 dumps_scan_hits16(_mm_loadu_si128((const __m128i *)(s + n - 32)))));
        return _mm_movemask_epi8(hit) ? DUMPS_SCAN_ESCAPE : 0;
    }
    return dumps_scan_bytes(s, n);
}

/* The escape and surrogate lanes of 8 UCS2 units, OR-ed into *esc and *sur. */
static inline __attribute__((always_inline)) void dumps_scan_ucs2_acc(__m128i x, __m128i *esc, __m128i *sur)
{
    *esc = _mm_or_si128(*esc, _mm_or_si128(_mm_cmpeq_epi16(_mm_subs_epu16(x, _mm_set1_epi16(0x1F)), _mm_setzero_si128()),
                                           _mm_or_si128(_mm_cmpeq_epi16(x, _mm_set1_epi16('"')),
                                                        _mm_cmpeq_epi16(x, _mm_set1_epi16('\\')))));
    *sur = _mm_or_si128(*sur, _mm_cmpeq_epi16(_mm_and_si128(x, _mm_set1_epi16((short)0xF800)), _mm_set1_epi16((short)0xD800)));
}

/* dumps_scan_ucs2 with the commonest lengths inline, as dumps_scan_bytes_inline:
 * up to 8 units in one load when the 16 bytes from s stay in s's page (the
 * lanes past the end masked off), 8 to 32 units in two or four overlapping
 * loads within the string, with no call (the short strs of text: the AVX2
 * scan's call, constants and vzeroupper cost ~90 instructions a str). */
static inline __attribute__((always_inline)) int dumps_scan_ucs2_inline(const uint16_t *s, size_t n)
{
    __m128i esc = _mm_setzero_si128(), sur = _mm_setzero_si128();
    unsigned keep = 0xFFFF;
    if (n < 8) {
        if (!DUMPS_SCAN_SHORT_LOAD_OK(s))
            return dumps_scan_ucs2(s, n);
        dumps_scan_ucs2_acc(dumps_scan_load_short((const uint8_t *)s, 2 * n), &esc, &sur);
        keep = (1u << (2 * n)) - 1;
    } else if (n <= 32) {
        dumps_scan_ucs2_acc(_mm_loadu_si128((const __m128i *)s), &esc, &sur);
        dumps_scan_ucs2_acc(_mm_loadu_si128((const __m128i *)(s + n - 8)), &esc, &sur);
        if (n > 16) {
            dumps_scan_ucs2_acc(_mm_loadu_si128((const __m128i *)(s + 8)), &esc, &sur);
            dumps_scan_ucs2_acc(_mm_loadu_si128((const __m128i *)(s + n - 16)), &esc, &sur);
        }
    } else {
        return dumps_scan_ucs2(s, n);
    }
    return (((unsigned)_mm_movemask_epi8(esc) & keep) ? DUMPS_SCAN_ESCAPE : 0) |
           (((unsigned)_mm_movemask_epi8(sur) & keep) ? DUMPS_SCAN_SURROGATE : 0);
}
#else
static inline int dumps_scan_bytes_inline(const uint8_t *s, size_t n) { return dumps_scan_bytes(s, n); }
static inline int dumps_scan_ucs2_inline(const uint16_t *s, size_t n) { return dumps_scan_ucs2(s, n); }
#endif

#pragma GCC visibility pop

#endif
