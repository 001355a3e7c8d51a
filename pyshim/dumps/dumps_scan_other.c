/* dumps_scan.h without SIMD (or under AddressSanitizer): 8 bytes a step in
 * a 64-bit word (SWAR), never reading past the end. */
#include "dumps_scan.h"
#if !DUMPS_SCAN_SSE2

#include <string.h>

#define ONES8 0x0101010101010101ull
#define HIGH8 0x8080808080808080ull

/* A byte of x is zero => its high bit in the result (exact for the lowest
 * zero byte; a nonzero result means some byte is zero). */
static inline uint64_t zero_bytes(uint64_t x) { return (x - ONES8) & ~x & HIGH8; }

int dumps_scan_bytes(const uint8_t *s, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        /* bytes < 0x20: (x & 0xE0) == 0 per byte */
        uint64_t ctl = zero_bytes(x & 0xE0E0E0E0E0E0E0E0ull);
        uint64_t q = zero_bytes(x ^ (ONES8 * '"'));
        uint64_t b = zero_bytes(x ^ (ONES8 * '\\'));
        if (ctl | q | b)
            return DUMPS_SCAN_ESCAPE;
    }
    for (; i < n; i++)
        if (s[i] < 0x20 || s[i] == '"' || s[i] == '\\')
            return DUMPS_SCAN_ESCAPE;
    return 0;
}

int dumps_scan_ucs2(const uint16_t *s, size_t n)
{
    int found = 0;
    for (size_t i = 0; i < n; i++) {
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
