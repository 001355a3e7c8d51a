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
    int32_t exponent;
    dumps_ryu32(f, &mantissa, &exponent);
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        exponent++;
    }
    char digits[16];
    int len = 0;
    for (uint32_t m = mantissa; m != 0; m /= 10)
        digits[len++] = (char)('0' + m % 10);
    for (int i = 0; i < len / 2; i++) {
        char t = digits[i];
        digits[i] = digits[len - 1 - i];
        digits[len - 1 - i] = t;
    }
    int k = exponent;  /* f = digits * 10^k */
    int kk = len + k;  /* 10^(kk-1) <= f < 10^kk */
    if (k >= 0 && kk <= 13) {
        memcpy(p, digits, (size_t)len);
        p += len;
        for (int i = len; i < kk; i++)
            *p++ = '0';
        *p++ = '.';
        *p++ = '0';
    } else if (kk > 0 && kk <= 13) {
        memcpy(p, digits, (size_t)kk);
        p += kk;
        *p++ = '.';
        memcpy(p, digits + kk, (size_t)(len - kk));
        p += len - kk;
    } else if (kk > -6 && kk <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = kk; i < 0; i++)
            *p++ = '0';
        memcpy(p, digits, (size_t)len);
        p += len;
    } else {
        *p++ = digits[0];
        if (len > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)(len - 1));
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
