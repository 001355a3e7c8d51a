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
 * that a small document pays nothing for it, and off again for the rest of
 * the call when fewer than a quarter of its lookups hit (a document of
 * distinct ids would pay a store and a reference per int for nothing).
 */
#ifndef ISOJSON_LOADS_INTS_H
#define ISOJSON_LOADS_INTS_H

#include "isojson.h"

#include <string.h>

#define INT_CACHE_BITS 8
#define INTS_BEFORE_CACHE 16
/* Every CHECK_EVERY lookups, the table stays on only if at least a quarter
 * of them were hits: github.json's ints are nearly all distinct ids, and
 * there a table of misses costs a store and a reference each. */
#define CHECK_EVERY 64

enum { INTS_WARMING, INTS_CACHED, INTS_UNCACHED };

typedef struct isojson_int_cache {
    int mode;          /* INTS_WARMING until INTS_BEFORE_CACHE ints, then on or off */
    unsigned seen;     /* ints made while warming */
    unsigned lookups, hits;
    struct {
        int64_t value;
        PyObject *obj;   /* a reference, or NULL */
    } slots[1u << INT_CACHE_BITS];
} isojson_int_cache;

static inline void isojson_int_cache_init(isojson_int_cache *c)
{
    c->mode = INTS_WARMING;
    c->seen = 0;
}

/* Drops the table's references (at the end of a call, also a failed one,
 * and when it switches off). */
static inline void isojson_int_cache_clear(isojson_int_cache *c)
{
    if (c->mode == INTS_CACHED)
        for (size_t k = 0; k < sizeof c->slots / sizeof c->slots[0]; k++)
            Py_XDECREF(c->slots[k].obj);
    c->mode = INTS_UNCACHED;
}

/* A new reference to the int x; NULL with an exception on failure. */
static inline PyObject *isojson_int(isojson_int_cache *c, int64_t x)
{
    if ((uint64_t)x + 5 <= 256 + 5 || c->mode == INTS_UNCACHED)   /* -5..256: CPython's own, immortal */
        return PyLong_FromLongLong((long long)x);
    if (c->mode == INTS_WARMING) {
        if (++c->seen == INTS_BEFORE_CACHE) {
            memset(c->slots, 0, sizeof c->slots);
            c->lookups = c->hits = 0;
            c->mode = INTS_CACHED;
        }
        return PyLong_FromLongLong((long long)x);
    }
    unsigned k = (unsigned)(((uint64_t)x * 0x9E3779B97F4A7C15u) >> (64 - INT_CACHE_BITS));
    c->lookups++;
    if (c->slots[k].obj != NULL && c->slots[k].value == x) {
        c->hits++;
        return Py_NewRef(c->slots[k].obj);
    }
    if (c->lookups % CHECK_EVERY == 0 && c->hits < c->lookups / 4) {
        isojson_int_cache_clear(c);   /* mostly distinct values: off for this call */
        c->mode = INTS_UNCACHED;
        return PyLong_FromLongLong((long long)x);
    }
    PyObject *v = PyLong_FromLongLong((long long)x);
    if (v != NULL) {
        Py_XSETREF(c->slots[k].obj, Py_NewRef(v));
        c->slots[k].value = x;
    }
    return v;
}

#endif
