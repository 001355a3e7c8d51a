/* dumps: the walk's dispatch by exact type, inline, for the loops that take
 * any value (dumps_dispatch.c's dumps_value, the tuple loop of dumps_list.c,
 * the sorted dicts of dumps_sort.c). The list and dict loops write through
 * their cursor instead (dumps_cursor.h). */
#ifndef ISOJSON_DUMPS_DISPATCH_H
#define ISOJSON_DUMPS_DISPATCH_H

#include "dumps.h"
#include "dumps_scan.h"

#pragma GCC visibility push(hidden)

/* An exact str: ASCII text (most strings) inline, the rest in dumps_str. */
static inline __attribute__((always_inline)) int dumps_str_inline(dumps_ctx *c, PyObject *o)
{
    if (!PyUnicode_IS_ASCII(o))
        return dumps_str(c, o);
    size_t n = (size_t)PyUnicode_GET_LENGTH(o);
    const uint8_t *data = PyUnicode_DATA(o);
    int clean = dumps_scan_bytes_inline(data, n) == 0;
    if (dumps_ref_clean(c, ISOJSON_STRING, ISOJSON_ASCII, ISOJSON_UTF8, data, n, n, clean) < 0)
        return -1;
    c->text += n;
    return dumps_keep_borrowed(c, o);
}

/* The walk's dispatch by exact type, inlined into the container loops (and
 * the body of dumps_value): the commonest exact types by pointer comparison,
 * everything else through dumps_value_slow. */
static inline __attribute__((always_inline)) int dumps_value_inline(dumps_ctx *c, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyUnicode_Type)
        return dumps_str_inline(c, o);
    if (t == &PyLong_Type) {
        if (PyUnstable_Long_IsCompact((PyLongObject *)o))
            return dumps_number(c, ISOJSON_INT, (uint64_t)(int64_t)PyUnstable_Long_CompactValue((PyLongObject *)o));
        return dumps_int(c, o);
    }
    if (t == &PyFloat_Type) {
        double d = PyFloat_AS_DOUBLE(o);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return dumps_number(c, ISOJSON_FLOAT, bits);
    }
    if (o == Py_None)
        return dumps_scalar(c, ISOJSON_NULL);
    if (o == Py_True)
        return dumps_scalar(c, ISOJSON_TRUE);
    if (o == Py_False)
        return dumps_scalar(c, ISOJSON_FALSE);
    if (t == &PyDict_Type)
        return dumps_dict(c, o);
    if (t == &PyList_Type)
        return dumps_list(c, o);
    return dumps_value_slow(c, o);
}

#pragma GCC visibility pop

#endif
