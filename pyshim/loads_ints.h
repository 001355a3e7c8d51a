/* Repeated integers share one int object within a loads() call.
 *
 * Records repeat their ids: citm_catalog.json has 14,392 ints beyond
 * CPython's small-int range but only 802 distinct values. Each new int is a
 * pymalloc allocation now and a deallocation when the document is freed
 * (CPython 3.14's int free list holds 100, and a document frees thousands
 * at once); a hit here is a compare and an incref. Measured on citm: loads
 * about 5% faster. Ints are immutable, so sharing one is invisible except
 * to `is` and sys.getrefcount, as with CPython's own small ints.
 *
 * The table is direct-mapped by a multiplicative hash of the value, lives
 * on isojson_build's stack and holds a reference to each int in it, dropped
 * at the end of the call (a repeated dict key can drop a value the table
 * still points at). It is switched on only after INTS_BEFORE_CACHE ints, so
 * that a small document pays nothing for it.
 */
#ifndef ISOJSON_LOADS_INTS_H
#define ISOJSON_LOADS_INTS_H

#include "isojson.h"

#include <string.h>

#define INT_CACHE_BITS 8
#define INTS_BEFORE_CACHE 16

typedef struct isojson_int_cache {
    unsigned seen;   /* ints made so far, up to INTS_BEFORE_CACHE (then on) */
    struct {
        int64_t value;
        PyObject *obj;   /* a reference, or NULL */
    } slots[1u << INT_CACHE_BITS];
} isojson_int_cache;

/* A new reference to the int x; NULL with an exception on failure. */
static inline PyObject *isojson_int(isojson_int_cache *c, int64_t x)
{
    if ((uint64_t)x + 5 <= 256 + 5)   /* -5..256: CPython's own, immortal */
        return PyLong_FromLongLong((long long)x);
    if (c->seen < INTS_BEFORE_CACHE) {
        if (++c->seen == INTS_BEFORE_CACHE)
            memset(c->slots, 0, sizeof c->slots);
        return PyLong_FromLongLong((long long)x);
    }
    unsigned k = (unsigned)(((uint64_t)x * 0x9E3779B97F4A7C15u) >> (64 - INT_CACHE_BITS));
    if (c->slots[k].obj != NULL && c->slots[k].value == x)
        return Py_NewRef(c->slots[k].obj);
    PyObject *v = PyLong_FromLongLong((long long)x);
    if (v != NULL) {
        Py_XSETREF(c->slots[k].obj, Py_NewRef(v));
        c->slots[k].value = x;
    }
    return v;
}

/* Drops the table's references (at the end of a call, also a failed one). */
static inline void isojson_int_cache_clear(isojson_int_cache *c)
{
    if (c->seen == INTS_BEFORE_CACHE)
        for (size_t k = 0; k < sizeof c->slots / sizeof c->slots[0]; k++)
            Py_XDECREF(c->slots[k].obj);
    c->seen = 0;
}

#endif
