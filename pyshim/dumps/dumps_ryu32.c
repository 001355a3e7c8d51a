/* The shortest round-trip decimal digits of a float32: Ryu (Ulf Adams, PLDI
 * 2018), the algorithm orjson's float32 output comes from, in its 32-bit
 * form. The two tables of 64-bit powers of five are computed once with
 * 128-bit arithmetic instead of being spelled out. */
#include "dumps_float32.h"

#include <pthread.h>
#include <string.h>

#define POW5_INV_BITCOUNT 59
#define POW5_BITCOUNT 61
#define POW5_INV_COUNT 31
#define POW5_COUNT 47

static uint64_t pow5_inv_split[POW5_INV_COUNT];
static uint64_t pow5_split[POW5_COUNT];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* ceil(log2(5^e)) for 0 <= e <= 3528 (Ryu's pow5bits). */
static int32_t pow5bits(int32_t e) { return (int32_t)(((uint32_t)e * 1217359) >> 19) + 1; }
static uint32_t log10_pow2(int32_t e) { return ((uint32_t)e * 78913) >> 18; }
static uint32_t log10_pow5(int32_t e) { return ((uint32_t)e * 732923) >> 20; }

static void tables_init(void)
{
    unsigned __int128 p5 = 1;
    for (int i = 0; i < POW5_COUNT; i++) {
        /* 5^i with its top POW5_BITCOUNT bits kept */
        int shift = pow5bits(i) - POW5_BITCOUNT;
        pow5_split[i] = (uint64_t)(shift >= 0 ? p5 >> shift : p5 << -shift);
        p5 *= 5;
    }
    p5 = 1;
    for (int q = 0; q < POW5_INV_COUNT; q++) {
        /* floor(2^(pow5bits(q) - 1 + POW5_INV_BITCOUNT) / 5^q) + 1; the
         * numerator reaches 2^128, so (2^128 - 1) stands in for it there
         * (no power of five divides a power of two). */
        int bits = pow5bits(q) - 1 + POW5_INV_BITCOUNT;
        unsigned __int128 num = bits >= 128 ? ~(unsigned __int128)0 : (unsigned __int128)1 << bits;
        pow5_inv_split[q] = (uint64_t)(num / p5) + 1;
        p5 *= 5;
    }
}

static uint32_t mul_shift32(uint32_t m, uint64_t factor, int32_t shift)
{
    uint64_t lo = (uint64_t)m * (uint32_t)factor;
    uint64_t hi = (uint64_t)m * (uint32_t)(factor >> 32);
    uint64_t sum = (lo >> 32) + hi;
    return (uint32_t)(sum >> (shift - 32));
}

static uint32_t pow5_factor(uint32_t v)
{
    uint32_t count = 0;
    while (v != 0 && v % 5 == 0) {
        v /= 5;
        count++;
    }
    return count;
}

static int multiple_of_pow5(uint32_t v, uint32_t p) { return pow5_factor(v) >= p; }
static int multiple_of_pow2(uint32_t v, uint32_t p) { return (v & ((1u << p) - 1)) == 0; }

int dumps_ryu32(float f, uint32_t *digits, int32_t *exponent)
{
    pthread_once(&tables_once, tables_init);
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint32_t ieee_m = bits & ((1u << 23) - 1), ieee_e = bits >> 23 & 0xFF;
    int32_t e2;
    uint32_t m2;
    if (ieee_e == 0) {
        e2 = 1 - 127 - 23 - 2;
        m2 = ieee_m;
    } else {
        e2 = (int32_t)ieee_e - 127 - 23 - 2;
        m2 = (1u << 23) | ieee_m;
    }
    int even = (m2 & 1) == 0, accept_bounds = even;
    uint32_t mv = 4 * m2, mp = 4 * m2 + 2;
    uint32_t mm_shift = ieee_m != 0 || ieee_e <= 1;
    uint32_t mm = 4 * m2 - 1 - mm_shift;

    uint32_t vr, vp, vm;
    int32_t e10;
    int vm_trailing_zeros = 0, vr_trailing_zeros = 0;
    uint8_t last_removed = 0;
    if (e2 >= 0) {
        uint32_t q = log10_pow2(e2);
        e10 = (int32_t)q;
        int32_t k = POW5_INV_BITCOUNT + pow5bits((int32_t)q) - 1;
        int32_t i = -e2 + (int32_t)q + k;
        vr = mul_shift32(mv, pow5_inv_split[q], i);
        vp = mul_shift32(mp, pow5_inv_split[q], i);
        vm = mul_shift32(mm, pow5_inv_split[q], i);
        if (q != 0 && (vp - 1) / 10 <= vm / 10) {
            int32_t l = POW5_INV_BITCOUNT + pow5bits((int32_t)(q - 1)) - 1;
            last_removed = (uint8_t)(mul_shift32(mv, pow5_inv_split[q - 1], -e2 + (int32_t)q - 1 + l) % 10);
        }
        if (q <= 9) {
            if (mv % 5 == 0)
                vr_trailing_zeros = multiple_of_pow5(mv, q);
            else if (accept_bounds)
                vm_trailing_zeros = multiple_of_pow5(mm, q);
            else
                vp -= (uint32_t)multiple_of_pow5(mp, q);
        }
    } else {
        uint32_t q = log10_pow5(-e2);
        e10 = (int32_t)q + e2;
        int32_t i = -e2 - (int32_t)q;
        int32_t k = pow5bits(i) - POW5_BITCOUNT;
        int32_t j = (int32_t)q - k;
        vr = mul_shift32(mv, pow5_split[i], j);
        vp = mul_shift32(mp, pow5_split[i], j);
        vm = mul_shift32(mm, pow5_split[i], j);
        if (q != 0 && (vp - 1) / 10 <= vm / 10) {
            j = (int32_t)q - 1 - (pow5bits(i + 1) - POW5_BITCOUNT);
            last_removed = (uint8_t)(mul_shift32(mv, pow5_split[i + 1], j) % 10);
        }
        if (q <= 1) {
            vr_trailing_zeros = 1;
            if (accept_bounds)
                vm_trailing_zeros = mm_shift == 1;
            else
                --vp;
        } else if (q < 31) {
            vr_trailing_zeros = multiple_of_pow2(mv, q - 1);
        }
    }

    int32_t removed = 0;
    uint32_t output;
    if (vm_trailing_zeros || vr_trailing_zeros) {
        while (vp / 10 > vm / 10) {
            vm_trailing_zeros &= vm % 10 == 0;
            vr_trailing_zeros &= last_removed == 0;
            last_removed = (uint8_t)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        if (vm_trailing_zeros) {
            while (vm % 10 == 0) {
                vr_trailing_zeros &= last_removed == 0;
                last_removed = (uint8_t)(vr % 10);
                vr /= 10;
                vp /= 10;
                vm /= 10;
                removed++;
            }
        }
        if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0)
            last_removed = 4; /* round half to even */
        output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
    } else {
        while (vp / 10 > vm / 10) {
            last_removed = (uint8_t)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        output = vr + (vr == vm || last_removed >= 5);
    }
    *digits = output;
    *exponent = e10 + removed;
    return 0;
}
