/* The slow paths of the int table of loads (loads_ints.h): warming up, a
 * miss, switching off, emptying. */
#include "loads_ints.h"

void isojson_int_cache_end(isojson_int_cache *c)
{
    for (unsigned i = 0; i < c->nfilled; i++)
        Py_CLEAR(c->slots[c->filled[i]].obj);
    c->nfilled = 0;
    c->mode = INTS_UNCACHED;
}

PyObject *isojson_int_slow(isojson_int_cache *c, int64_t x)
{
    PyObject *v = PyLong_FromLongLong((long long)x);
    if (v == NULL)
        return NULL;
    if (c->mode == INTS_WARMING) {
        if (++c->seen == INTS_BEFORE_CACHE) {
            c->lookups = c->hits = 0;
            c->mode = INTS_CACHED;
        }
        return v;
    }
    /* A miss. */
    if (++c->lookups % CHECK_EVERY == 0 && c->hits < c->lookups / 4) {
        isojson_int_cache_end(c);   /* mostly distinct values: off for this call */
        return v;
    }
    unsigned k = isojson_int_slot(x);
    if (c->slots[k].obj == NULL)
        c->filled[c->nfilled++] = (uint8_t)k;
    Py_XSETREF(c->slots[k].obj, Py_NewRef(v));
    c->slots[k].value = x;
    return v;
}
