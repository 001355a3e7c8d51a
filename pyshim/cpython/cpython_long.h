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
#else
static inline int isojson_long_two_digits(PyObject *o, int64_t *v) { return -1; }
#endif

#endif
