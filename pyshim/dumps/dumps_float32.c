/* float32 (and float16, widened to float32) → text exactly as orjson writes
 * numpy float32 values: the shortest digits that read back as the same
 * float32, laid out like Ryu's format32 but with orjson's exponent sign:
 *
 *   1.0  15.0  12345678.0  1.5  0.000001  1e-7  1.5e+13  3.4028235e+38
 *
 * fixed notation when the decimal exponent kk (10^(kk-1) <= |v| < 10^kk) is
 * within -5..13, scientific otherwise; NaN and infinities are null. The
 * digits come from Ryu (dumps_ryu32.c). */
#include "dumps_float32.h"

#include <math.h>
#include <string.h>

static const char DIGIT_PAIRS[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                      "8081828384858687888990919293949596979899";

/* Writes exactly count decimal digits of v (leading zeros included) ending
 * at end, two at a time from a table: no digit buffer to reverse. */
static void put_fixed(char *end, uint32_t v, int count)
{
    while (count >= 2) {
        end -= 2;
        memcpy(end, DIGIT_PAIRS + 2 * (v % 100), 2);
        v /= 100;
        count -= 2;
    }
    if (count)
        *--end = (char)('0' + v % 10);
}

static int decimal_len(uint32_t v)
{
    static const uint32_t pow10[] = {10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};
    int n = 1;
    while (n < 10 && v >= pow10[n - 1])
        n++;
    return n;
}

static const uint32_t POW10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

/* The digits of an integer-valued f below 2^24, the float32 range where
 * every integer is exact and neighbours are at most 1 apart: any shorter
 * decimal is another integer, outside f's rounding interval (half an ulp
 * <= 0.5), so f's own digits are what Ryu returns (Ryu's own small-integer
 * shortcut). 0 when f is not such an integer. */
static int small_integer(float f, uint32_t *mantissa)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    int e = (int)(bits >> 23 & 0xFF) - 127;
    if (e < 0 || e > 23)
        return 0;
    uint32_t m = (1u << 23) | (bits & ((1u << 23) - 1));
    if (m & ((1u << (23 - e)) - 1))
        return 0;
    *mantissa = m >> (23 - e);
    return 1;
}

size_t dumps_format_f32(float f, char *out)
{
    char *p = out;
    if (isnan(f) || isinf(f)) {
        memcpy(out, "null", 4);
        return 4;
    }
    if (signbit(f)) {
        *p++ = '-';
        f = -f;
    }
    if (f == 0.0f) {
        memcpy(p, "0.0", 3);
        return (size_t)(p - out) + 3;
    }
    uint32_t mantissa;
    int32_t exponent = 0;
    if (!small_integer(f, &mantissa))
        dumps_ryu32(f, &mantissa, &exponent);
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        exponent++;
    }
    int len = decimal_len(mantissa);
    int k = exponent;  /* f = digits * 10^k */
    int kk = len + k;  /* 10^(kk-1) <= f < 10^kk */
    if (k >= 0 && kk <= 13) {
        put_fixed(p + len, mantissa, len);
        p += len;
        for (int i = len; i < kk; i++)
            *p++ = '0';
        *p++ = '.';
        *p++ = '0';
    } else if (kk > 0 && kk <= 13) {
        uint32_t scale = POW10[len - kk];
        put_fixed(p + kk, mantissa / scale, kk);
        p += kk;
        *p++ = '.';
        put_fixed(p + (len - kk), mantissa % scale, len - kk);
        p += len - kk;
    } else if (kk > -6 && kk <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = kk; i < 0; i++)
            *p++ = '0';
        put_fixed(p + len, mantissa, len);
        p += len;
    } else {
        uint32_t scale = POW10[len - 1];
        *p++ = (char)('0' + mantissa / scale);
        if (len > 1) {
            *p++ = '.';
            put_fixed(p + (len - 1), mantissa % scale, len - 1);
            p += len - 1;
        }
        *p++ = 'e';
        int x = kk - 1;
        if (x < 0) {
            *p++ = '-';
            x = -x;
        } else {
            *p++ = '+';
        }
        if (x >= 10)
            *p++ = (char)('0' + x / 10);
        *p++ = (char)('0' + x % 10);
    }
    return (size_t)(p - out);
}

float dumps_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = h >> 10 & 0x1F, man = h & 0x3FF, bits;
    if (exp == 0x1F) {
        bits = sign | 0x7F800000u | man << 13; /* infinity or NaN */
    } else if (exp != 0) {
        bits = sign | (exp + 112) << 23 | man << 13;
    } else if (man == 0) {
        bits = sign;
    } else {
        /* subnormal: normalize */
        int shift = 0;
        while (!(man & 0x400)) {
            man <<= 1;
            shift++;
        }
        man &= 0x3FF;
        bits = sign | (uint32_t)(113 - shift) << 23 | man << 13;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
