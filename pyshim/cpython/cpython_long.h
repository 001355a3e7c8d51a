/* The int header fields that dumps reads past the public accessors (the
 * layout of PyLongObject in CPython 3.14's cpython/longintrepr.h, which the
 * compact-int API, PyUnstable_Long_IsCompact, exposes in the same header).
 */
#ifndef ISOJSON_CPYTHON_LONG_H
#define ISOJSON_CPYTHON_LONG_H

#include <Python.h>
#include <stdint.h>

/* Two 30-bit digits, |v| < 2^60 (twitter.json's ids), read from the digits
 * themselves (the digit count above _PyLong_NON_SIZE_BITS in lv_tag, the
 * sign in its low bits, ob_digit least significant first), instead of
 * PyLong_AsLongLongAndOverflow's general loop. Returns 0 and sets *v when o
 * has exactly two digits; -1 otherwise, and always on another layout. */
#if PY_VERSION_HEX >= 0x030E0000 && PY_VERSION_HEX < 0x030F0000 && PyLong_SHIFT == 30
static inline int isojson_long_two_digits(PyObject *o, int64_t *v)
{
    const PyLongObject *l = (const PyLongObject *)o;
    uintptr_t tag = l->long_value.lv_tag;
    if ((tag >> _PyLong_NON_SIZE_BITS) != 2)
        return -1;
    int64_t m = (int64_t)l->long_value.ob_digit[0] | (int64_t)l->long_value.ob_digit[1] << PyLong_SHIFT;
    /* Sign bits: 0 positive, 2 negative (1, zero, has no digits). */
    *v = (tag & _PyLong_SIGN_MASK) == 2 ? -m : m;
    return 0;
}

/* A non-negative int below 2^128 (uuid.UUID's int), at most five digits,
 * as its high and low 64 bits, instead of PyLong_AsNativeBytes (which asks
 * for the bit length, then runs _PyLong_AsByteArray's general loop: about
 * 330 instructions a UUID). Returns 0 and sets *hi and *lo; -1 otherwise (a
 * negative int, 2^128 or more), and always on another layout. */
static inline int isojson_long_u128(PyObject *o, uint64_t *hi, uint64_t *lo)
{
    const PyLongObject *l = (const PyLongObject *)o;
    uintptr_t tag = l->long_value.lv_tag;
    if ((tag & _PyLong_SIGN_MASK) == 2)
        return -1;
    const digit *d = l->long_value.ob_digit;
    uint64_t d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0;
    /* Only the int's own digits are read (zero has none). */
    switch (tag >> _PyLong_NON_SIZE_BITS) {
    case 5:
        /* 5 digits are 150 bits: the top one may hold 128 - 4*30 = 8. */
        if ((d4 = d[4]) >> 8 != 0)
            return -1;
        /* fall through */
    case 4:
        d3 = d[3];
        /* fall through */
    case 3:
        d2 = d[2];
        /* fall through */
    case 2:
        d1 = d[1];
        /* fall through */
    case 1:
        d0 = d[0];
        /* fall through */
    case 0:
        break;
    default:
        return -1;
    }
    *lo = d0 | d1 << 30 | d2 << 60;
    *hi = d2 >> 4 | d3 << 26 | d4 << 56;
    return 0;
}
#else
static inline int isojson_long_two_digits(PyObject *o, int64_t *v) { return -1; }
static inline int isojson_long_u128(PyObject *o, uint64_t *hi, uint64_t *lo) { return -1; }
#endif

#endif
