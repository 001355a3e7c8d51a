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
 * The table is direct-mapped by a multiplicative hash of the value and lives
 * in the thread's scratch memory (loads.h), empty between calls: it holds a
 * reference to each int in it only during a call (a repeated dict key can
 * drop a value the table still points at), and the slots it filled are
 * listed, so that emptying it costs one step per filled slot. It is switched
 * on only after LOADS_INTS_BEFORE_CACHE ints, so that a small document pays
 * nothing for it, and off for the rest of the call when fewer than a quarter
 * of LOADS_INTS_CHECK_EVERY lookups hit (github.json's ints are nearly all distinct
 * ids: there a table of misses would cost a store and a reference each).
 */
#ifndef ISOJSON_LOADS_INTS_H
#define ISOJSON_LOADS_INTS_H

#include "isojson.h"

#define LOADS_INT_CACHE_BITS 8
#define LOADS_INT_CACHE_SLOTS (1u << LOADS_INT_CACHE_BITS)
#define LOADS_INTS_BEFORE_CACHE 16
#define LOADS_INTS_CHECK_EVERY 64

enum { LOADS_INTS_WARMING, LOADS_INTS_CACHED, LOADS_INTS_UNCACHED };

/* CPython's cached small ints, -5..256: loads_int returns them from the
 * interpreter's table (isojson_state.small_ints, filled at module exec)
 * instead of calling PyLong_FromLongLong, which finds the same objects
 * after a call and its own range test (13 instructions an int). */
#define LOADS_SMALL_INT_MIN (-5)
#define LOADS_SMALL_INT_MAX 256

typedef struct loads_int_cache {
    PyObject *const *small;   /* the interpreter's small ints, by value - LOADS_SMALL_INT_MIN */
    int mode;          /* LOADS_INTS_WARMING until LOADS_INTS_BEFORE_CACHE ints, then on or off */
    unsigned seen;     /* ints made while warming */
    unsigned lookups, hits;
    unsigned nfilled;  /* slots holding an int: filled[0:nfilled) */
    uint8_t filled[LOADS_INT_CACHE_SLOTS];
    struct {
        int64_t value;
        PyObject *obj;   /* a reference during a call, else NULL */
    } slots[LOADS_INT_CACHE_SLOTS];
} loads_int_cache;

/* The slot of x: the top bits of a multiplicative (Fibonacci) hash. */
static inline unsigned loads_int_slot(int64_t x)
{
    return (unsigned)(((uint64_t)x * 0x9E3779B97F4A7C15u) >> (64 - LOADS_INT_CACHE_BITS));
}

/* At the start of a call (the table is empty), in the interpreter of st. */
static inline void loads_int_cache_start(loads_int_cache *c, const isojson_state *st)
{
    c->small = st->small_ints;
    c->mode = LOADS_INTS_WARMING;
    c->seen = 0;
}

/* Empties the table and switches it off: at the end of every call, also a
 * failed one. */
void loads_int_cache_end(loads_int_cache *c);

/* The int x beyond the small ints, through the table (loads_ints.c). */
PyObject *loads_int_slow(loads_int_cache *c, int64_t x);

/* A new reference to the int x; NULL with an exception on failure. */
static inline PyObject *loads_int(loads_int_cache *c, int64_t x)
{
    if ((uint64_t)x - LOADS_SMALL_INT_MIN <= LOADS_SMALL_INT_MAX - LOADS_SMALL_INT_MIN)   /* immortal */
        return Py_NewRef(c->small[x - LOADS_SMALL_INT_MIN]);
    if (c->mode == LOADS_INTS_UNCACHED)
        return PyLong_FromLongLong((long long)x);
    if (c->mode == LOADS_INTS_CACHED) {
        unsigned k = loads_int_slot(x);
        if (c->slots[k].obj != NULL && c->slots[k].value == x) {
            c->lookups++;
            c->hits++;
            return Py_NewRef(c->slots[k].obj);
        }
    }
    return loads_int_slow(c, x);
}

#endif
