/* dumps_scan.h with SSE2 (every x86-64 CPU): 16 bytes a step. */
#if defined(__SSE2__)
#include "dumps_scan.h"

#include <emmintrin.h>
#include <string.h>

static int byte_needs_escape(uint8_t b) { return b < 0x20 || b == '"' || b == '\\'; }

/* Whether 16 bytes from p stay within p's 4 KiB page, so that a load past the
 * end of a short string cannot fault (the extra bytes are masked off). */
static int load16_in_page(const void *p) { return ((uintptr_t)p & 4095) <= 4096 - 16; }

static int bytes_hit(__m128i x)
{
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1F);
    /* x <= 0x1F unsigned  <=>  saturating x - 0x1F == 0 */
    __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(x, ctl), _mm_setzero_si128()),
                               _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
    return _mm_movemask_epi8(hit);
}

int dumps_scan_bytes(const uint8_t *s, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        if (bytes_hit(_mm_loadu_si128((const __m128i *)(s + i))))
            return DUMPS_SCAN_ESCAPE;
    if (i == n)
        return 0;
    if (load16_in_page(s + i)) {
        /* Most dict keys: one load for the whole tail. */
        int mask = (1 << (n - i)) - 1;
        return (bytes_hit(_mm_loadu_si128((const __m128i *)(s + i))) & mask) ? DUMPS_SCAN_ESCAPE : 0;
    }
    for (; i < n; i++)
        if (byte_needs_escape(s[i]))
            return DUMPS_SCAN_ESCAPE;
    return 0;
}

int dumps_scan_ucs2(const uint16_t *s, size_t n)
{
    const __m128i quote = _mm_set1_epi16('"'), backslash = _mm_set1_epi16('\\'), ctl = _mm_set1_epi16(0x1F);
    const __m128i sur_mask = _mm_set1_epi16((short)0xF800), sur = _mm_set1_epi16((short)0xD800);
    int found = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i esc = _mm_or_si128(_mm_cmpeq_epi16(_mm_subs_epu16(x, ctl), _mm_setzero_si128()),
                                   _mm_or_si128(_mm_cmpeq_epi16(x, quote), _mm_cmpeq_epi16(x, backslash)));
        __m128i su = _mm_cmpeq_epi16(_mm_and_si128(x, sur_mask), sur);
        if (_mm_movemask_epi8(esc))
            found |= DUMPS_SCAN_ESCAPE;
        if (_mm_movemask_epi8(su))
            return found | DUMPS_SCAN_SURROGATE;
    }
    for (; i < n; i++) {
        uint16_t u = s[i];
        if (u < 0x20 || u == '"' || u == '\\')
            found |= DUMPS_SCAN_ESCAPE;
        if ((u & 0xF800) == 0xD800)
            return found | DUMPS_SCAN_SURROGATE;
    }
    return found;
}

int dumps_scan_ucs4(const uint32_t *s, size_t n)
{
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t u = s[i];
        if (u < 0x20 || u == '"' || u == '\\')
            found |= DUMPS_SCAN_ESCAPE;
        if (u - 0xD800u < 0x800u)
            return found | DUMPS_SCAN_SURROGATE;
    }
    return found;
}
#endif
