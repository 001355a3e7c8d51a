/* int → Int (int64), Uint (beyond int64, within uint64) or BigInt (decimal
 * digits of an integer beyond 64 bits; orjson raises instead, isojson keeps
 * the value exact so that loads(dumps(x)) == x).
 *
 * OPT_STRICT_INTEGER limits integers to ±(2^53-1), JavaScript's safe range,
 * with orjson's messages (beyond 64 bits it reports the 64-bit range, as
 * orjson does). */
#include "dumps.h"
#include "cpython/cpython_long.h"

#define STRICT_MAX (((int64_t)1 << 53) - 1)

static int strict_error(void) { return dumps_error("Integer exceeds 53-bit range"); }

static int dumps_bigint(dumps_ctx *c, PyObject *o)
{
    /* orjson checks the 64-bit range before the 53-bit one. */
    if (c->opts & ISOJSON_OPT_STRICT_INTEGER)
        return dumps_error("Integer exceeds 64-bit range");
    /* int's own repr, not str(): a subclass may override __str__/__repr__,
     * and orjson serializes subclasses by value. CPython applies
     * sys.get_int_max_str_digits() here and raises its ValueError. */
    PyObject *digits = PyLong_Type.tp_repr(o);
    if (digits == NULL)
        return -1;
    if (dumps_keep_owned(c, digits) < 0)
        return -1;
    size_t n = (size_t)PyUnicode_GET_LENGTH(digits);
    return dumps_ref(c, ISOJSON_BIGINT, ISOJSON_ASCII, ISOJSON_UTF8, PyUnicode_DATA(digits), n, 0);
}

int dumps_int(dumps_ctx *c, PyObject *o)
{
    if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        /* One digit: |v| < 2^30, within every limit. */
        int64_t v = (int64_t)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return dumps_number(c, ISOJSON_INT, (uint64_t)v);
    }
    int64_t two;
    if (!(c->opts & ISOJSON_OPT_STRICT_INTEGER) && isojson_long_two_digits(o, &two) == 0)
        return dumps_number(c, ISOJSON_INT, (uint64_t)two);
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) {
        if (v == -1 && PyErr_Occurred())
            return -1;
        if ((c->opts & ISOJSON_OPT_STRICT_INTEGER) && (v > STRICT_MAX || v < -(STRICT_MAX)))
            return strict_error();
        return dumps_number(c, ISOJSON_INT, (uint64_t)v);
    }
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                return -1;
            PyErr_Clear();
            return dumps_bigint(c, o);
        }
        if (c->opts & ISOJSON_OPT_STRICT_INTEGER)
            return strict_error();
        return dumps_number(c, ISOJSON_UINT, (uint64_t)u);
    }
    return dumps_bigint(c, o);
}
