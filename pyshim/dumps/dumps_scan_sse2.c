/* dumps_scan.h on x86-64: SSE2 (every x86-64 CPU), 16 bytes a step, and AVX2,
 * 32 bytes a step, for strings long enough to fill its registers when the CPU
 * has it (checked once when the extension loads). Strings at least one
 * register long end with one overlapping load instead of a byte loop: the
 * checks are idempotent, so seeing some bytes twice changes nothing. */
#include "dumps_scan.h"
#if DUMPS_SCAN_SSE2

#include <emmintrin.h>
#include <immintrin.h>
#include <string.h>

static int have_avx2;

__attribute__((constructor)) static void scan_select(void)
{
    __builtin_cpu_init();
    have_avx2 = __builtin_cpu_supports("avx2");
}

static int byte_needs_escape(uint8_t b) { return b < 0x20 || b == '"' || b == '\\'; }

static int bytes_hit(__m128i x)
{
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1F);
    /* x <= 0x1F unsigned  <=>  saturating x - 0x1F == 0 */
    __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(x, ctl), _mm_setzero_si128()),
                               _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
    return _mm_movemask_epi8(hit);
}

__attribute__((target("avx2"))) static int bytes_hit_avx2(__m256i x)
{
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'), ctl = _mm256_set1_epi8(0x1F);
    __m256i hit = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_subs_epu8(x, ctl), _mm256_setzero_si256()),
                                  _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, backslash)));
    return _mm256_movemask_epi8(hit);
}

/* n >= 32 */
__attribute__((target("avx2"))) static int scan_bytes_avx2(const uint8_t *s, size_t n)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        if (bytes_hit_avx2(_mm256_loadu_si256((const __m256i *)(s + i))))
            return DUMPS_SCAN_ESCAPE;
    if (i < n && bytes_hit_avx2(_mm256_loadu_si256((const __m256i *)(s + n - 32))))
        return DUMPS_SCAN_ESCAPE;
    return 0;
}

int dumps_scan_bytes(const uint8_t *s, size_t n)
{
    if (n >= 32 && have_avx2)
        return scan_bytes_avx2(s, n);
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        if (bytes_hit(_mm_loadu_si128((const __m128i *)(s + i))))
            return DUMPS_SCAN_ESCAPE;
    if (i == n)
        return 0;
    if (i != 0)
        return bytes_hit(_mm_loadu_si128((const __m128i *)(s + n - 16))) ? DUMPS_SCAN_ESCAPE : 0;
    if (DUMPS_SCAN_SHORT_LOAD_OK(s)) {
        /* Most dict keys: one load for the whole string (dumps_scan.h says when
         * it reads past the end). */
        int mask = (1 << n) - 1;
        return (bytes_hit(dumps_scan_load_short(s, n)) & mask) ? DUMPS_SCAN_ESCAPE : 0;
    }
    for (; i < n; i++)
        if (byte_needs_escape(s[i]))
            return DUMPS_SCAN_ESCAPE;
    return 0;
}

static int ucs2_tail(const uint16_t *s, size_t i, size_t n, int found)
{
    for (; i < n; i++) {
        uint16_t u = s[i];
        if (u < 0x20 || u == '"' || u == '\\')
            found |= DUMPS_SCAN_ESCAPE;
        if ((u & 0xF800) == 0xD800)
            return found | DUMPS_SCAN_SURROGATE;
    }
    return found;
}

/* The escape and surrogate bits of 16 units (n >= 16). */
__attribute__((target("avx2"))) static int ucs2_hits_avx2(__m256i x)
{
    const __m256i quote = _mm256_set1_epi16('"'), backslash = _mm256_set1_epi16('\\'), ctl = _mm256_set1_epi16(0x1F);
    const __m256i sur_mask = _mm256_set1_epi16((short)0xF800), sur = _mm256_set1_epi16((short)0xD800);
    __m256i esc = _mm256_or_si256(_mm256_cmpeq_epi16(_mm256_subs_epu16(x, ctl), _mm256_setzero_si256()),
                                  _mm256_or_si256(_mm256_cmpeq_epi16(x, quote), _mm256_cmpeq_epi16(x, backslash)));
    __m256i su = _mm256_cmpeq_epi16(_mm256_and_si256(x, sur_mask), sur);
    return (_mm256_movemask_epi8(esc) ? DUMPS_SCAN_ESCAPE : 0) | (_mm256_movemask_epi8(su) ? DUMPS_SCAN_SURROGATE : 0);
}

__attribute__((target("avx2"))) static int scan_ucs2_avx2(const uint16_t *s, size_t n)
{
    int found = 0;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        found |= ucs2_hits_avx2(_mm256_loadu_si256((const __m256i *)(s + i)));
        if (found & DUMPS_SCAN_SURROGATE)
            return found;
    }
    if (i < n)
        found |= ucs2_hits_avx2(_mm256_loadu_si256((const __m256i *)(s + n - 16)));
    return found;
}

static int ucs2_hits(__m128i x)
{
    const __m128i quote = _mm_set1_epi16('"'), backslash = _mm_set1_epi16('\\'), ctl = _mm_set1_epi16(0x1F);
    const __m128i sur_mask = _mm_set1_epi16((short)0xF800), sur = _mm_set1_epi16((short)0xD800);
    __m128i esc = _mm_or_si128(_mm_cmpeq_epi16(_mm_subs_epu16(x, ctl), _mm_setzero_si128()),
                               _mm_or_si128(_mm_cmpeq_epi16(x, quote), _mm_cmpeq_epi16(x, backslash)));
    __m128i su = _mm_cmpeq_epi16(_mm_and_si128(x, sur_mask), sur);
    return (_mm_movemask_epi8(esc) ? DUMPS_SCAN_ESCAPE : 0) | (_mm_movemask_epi8(su) ? DUMPS_SCAN_SURROGATE : 0);
}

int dumps_scan_ucs2(const uint16_t *s, size_t n)
{
    if (n >= 16 && have_avx2)
        return scan_ucs2_avx2(s, n);
    int found = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        found |= ucs2_hits(_mm_loadu_si128((const __m128i *)(s + i)));
        if (found & DUMPS_SCAN_SURROGATE)
            return found;
    }
    if (i == n)
        return found;
    if (i != 0)
        return found | ucs2_hits(_mm_loadu_si128((const __m128i *)(s + n - 8)));
    return ucs2_tail(s, i, n, found);
}

/* The escape and surrogate bits of 4 UCS4 units. The units are code points
 * (at most 0x10FFFF), so signed 32-bit compares order them correctly. */
static int ucs4_hits(__m128i x)
{
    const __m128i quote = _mm_set1_epi32('"'), backslash = _mm_set1_epi32('\\'), ctl = _mm_set1_epi32(0x20);
    const __m128i sur_mask = _mm_set1_epi32((int)0xFFFFF800), sur = _mm_set1_epi32(0xD800);
    __m128i esc = _mm_or_si128(_mm_cmplt_epi32(x, ctl), _mm_or_si128(_mm_cmpeq_epi32(x, quote), _mm_cmpeq_epi32(x, backslash)));
    __m128i su = _mm_cmpeq_epi32(_mm_and_si128(x, sur_mask), sur);
    return (_mm_movemask_epi8(esc) ? DUMPS_SCAN_ESCAPE : 0) | (_mm_movemask_epi8(su) ? DUMPS_SCAN_SURROGATE : 0);
}

/* 4 units a step; a string of at least 4 ends with one overlapping load. */
int dumps_scan_ucs4(const uint32_t *s, size_t n)
{
    int found = 0;
    size_t i = 0;
    if (n >= 4) {
        for (; i + 4 <= n; i += 4) {
            found |= ucs4_hits(_mm_loadu_si128((const __m128i *)(s + i)));
            if (found & DUMPS_SCAN_SURROGATE)
                return found;
        }
        if (i < n)
            found |= ucs4_hits(_mm_loadu_si128((const __m128i *)(s + n - 4)));
        return found;
    }
    for (; i < n; i++) {
        uint32_t u = s[i];
        if (u < 0x20 || u == '"' || u == '\\')
            found |= DUMPS_SCAN_ESCAPE;
        if (u - 0xD800u < 0x800u)
            return found | DUMPS_SCAN_SURROGATE;
    }
    return found;
}
#endif
