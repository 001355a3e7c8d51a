/* The slow paths of the int table of loads (loads_ints.h): warming up, a
 * miss, switching off, emptying. */
#include "loads_ints.h"

void loads_int_cache_end(loads_int_cache *c)
{
    for (unsigned i = 0; i < c->nfilled; i++)
        Py_CLEAR(c->slots[c->filled[i]].obj);
    c->nfilled = 0;
    c->mode = LOADS_INTS_UNCACHED;
}

PyObject *loads_int_slow(loads_int_cache *c, int64_t x)
{
    PyObject *v = PyLong_FromLongLong((long long)x);
    if (v == NULL)
        return NULL;
    if (c->mode == LOADS_INTS_WARMING) {
        if (++c->seen == LOADS_INTS_BEFORE_CACHE) {
            c->lookups = c->hits = 0;
            c->mode = LOADS_INTS_CACHED;
        }
        return v;
    }
    /* A miss. */
    if (++c->lookups % LOADS_INTS_CHECK_EVERY == 0 && c->hits < c->lookups / 4) {
        loads_int_cache_end(c);   /* mostly distinct values: off for this call */
        return v;
    }
    unsigned k = loads_int_slot(x);
    if (c->slots[k].obj == NULL)
        c->filled[c->nfilled++] = (uint8_t)k;
    Py_XSETREF(c->slots[k].obj, Py_NewRef(v));
    c->slots[k].value = x;
    return v;
}
