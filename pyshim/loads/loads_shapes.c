/* loads: the table of dict shapes (loads_shapes.h): per interpreter, or on
 * the free-threaded build per thread state, beside the key cache. */
#include "loads_shapes.h"

#include <stdlib.h>

#if LOADS_DICT_DIRECT

/* One set of the table: two shapes of (first key, member count) pairs
 * whose hashes pick the set, way[0] the newer. With one shape a slot, which
 * of a document's shapes shared a slot depended on where the key strs were
 * allocated: two busy ones evicted each other, each dict of the one then
 * built member by member, its shape remade on credit (github.json: 6,800 to
 * 9,100 of 45,000 dicts without a shape from one process to the next). */
typedef struct shape_set {
    loads_shape *way[2];
} shape_set;

/* Making a shape costs about as much as building a small dict, and only
 * pays if dicts use it: a document of layouts that each appear twice (the
 * second sighting makes a shape nobody uses) was 15% slower to load. So
 * shapes are made on credit: each costs SHAPE_COST, each dict built member
 * by member that could have one earns 1 (up to CREDIT_MAX, the starting
 * balance). However bad the documents, at most one shape is made per
 * SHAPE_COST such dicts; a burst of new layouts (a process's first
 * documents) has the whole balance. Measured against no shapes, for
 * 3000 dicts of 8 new keys (instructions per loads; CPU time, alternating
 * processes, noisy): every layout twice +3.2% (+6..12%), every layout once
 * +1.9% (+3..6%): the bookkeeping of each dict. */
#define SHAPE_COST 32
#define CREDIT_MAX 1024
#define SHAPE_SETS (LOADS_SHAPE_SLOTS / 2)

typedef struct shape_table {
    Py_ssize_t credit;
    shape_set sets[SHAPE_SETS];
} shape_table;

#ifdef Py_GIL_DISABLED
/* The free-threaded build: one table per thread state, as the key cache
 * (loads_keys.c), whose strs the shapes are matched against by identity,
 * kept as it is (loads_caches_ft.c). A shape's plain reference count is
 * then touched by one thread only. */
#define SHAPES_CAPSULE "isojson._loads_shapes"

static void table_free(shape_table *table);

static void shapes_capsule_destructor(PyObject *cap)
{
    shape_table *table = PyCapsule_GetPointer(cap, SHAPES_CAPSULE);
    if (table == NULL) {
        PyErr_Clear();
        return;
    }
    loads_caches_forget();
    table_free(table);
}

static void *table_make(void)
{
    shape_table *table = calloc(1, sizeof(shape_table));
    if (table != NULL)
        table->credit = CREDIT_MAX;
    return table;
}

shape_table *loads_shapes_of_thread(void)
{
    return loads_thread_table(SHAPES_CAPSULE, table_make, free, shapes_capsule_destructor);
}
#endif

static shape_set *set_for(const loads_caches *lc, const PyObject *first, Py_ssize_t n)
{
    shape_set *t = lc->shapes->sets;
    /* Fibonacci hashing: the top bits of the product depend on every bit
     * of the address (whose low 4 are zero) and of n. */
    uint64_t h = ((uint64_t)(uintptr_t)first + (uint64_t)n) * 0x9e3779b97f4a7c15ULL;
    return &t[h >> (64 - 8)];
}
_Static_assert(SHAPE_SETS == 1 << 8, "set_for takes 8 bits");

static inline int shape_is(const loads_shape *sh, const PyObject *first, Py_ssize_t n)
{
    return sh != NULL && sh->keys[0].str == first && sh->n == n;
}

loads_shape *loads_shape_find(const loads_caches *lc, PyObject *first, Py_ssize_t n)
{
    if (lc->shapes == NULL)
        return NULL;
    shape_set *set = set_for(lc, first, n);
    if (shape_is(set->way[0], first, n))
        return set->way[0];
    if (shape_is(set->way[1], first, n))
        return set->way[1];
    return NULL;
}

void loads_shape_free(loads_shape *sh)
{
    for (Py_ssize_t i = 0; i < sh->n; i++)
        Py_DECREF(sh->keys[i].str);
    PyMem_Free(sh);
}

loads_shape *loads_shape_from_table(const isojson_dict_keys *dk, Py_ssize_t n)
{
    if (n < 2 || n > LOADS_SHAPE_MAX || loads_dict_count(dk) != n || !loads_dict_is_unicode(dk))
        return NULL;
    const isojson_dict_entry *e = loads_dict_entries((isojson_dict_keys *)dk);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(e[i].key) || !PyUnicode_IS_COMPACT_ASCII(e[i].key) ||
            isojson_str_hash(e[i].key) == -1)
            return NULL;
    size_t index_bytes = loads_dict_index_bytes(dk);
    size_t head = sizeof(loads_shape) + sizeof(loads_shape_key) * (size_t)n;
    loads_shape *sh = PyMem_Malloc(head + index_bytes);
    if (sh == NULL)
        return NULL;
    sh->refcnt = 1;
    sh->n = n;
    sh->score = 1;
    sh->index_bytes = (uint32_t)index_bytes;
    sh->indices = (char *)sh + head;
    memcpy(sh->indices, loads_dict_indices(dk), index_bytes);
    for (Py_ssize_t i = 0; i < n; i++)
        sh->keys[i] = (loads_shape_key){.str = Py_NewRef(e[i].key), .len = (size_t)PyUnicode_GET_LENGTH(e[i].key)};
    return sh;
}

loads_shape *loads_shape_offer(const loads_caches *lc, const isojson_dict_keys *dk, Py_ssize_t n)
{
    shape_table *table = lc->shapes;
    if (table == NULL || loads_dict_count(dk) != n)
        return NULL;
    PyObject *first = loads_dict_entries((isojson_dict_keys *)dk)[0].key;
    /* A first key the key cache does not keep comes back as another str:
     * its shape would never be found. */
    if (!PyUnicode_IS_COMPACT_ASCII(first) || PyUnicode_GET_LENGTH(first) > LOADS_KEY_CACHE_MAX)
        return NULL;
    if (table->credit < CREDIT_MAX)
        table->credit++;
    /* Held only by the key cache and this dict: no other live dict (nor
     * shape) starts with this key, a one-off as far as we can tell. A
     * document of ever new keys stops here, without touching the table;
     * the second live dict with this first key makes the shape. */
    if (Py_REFCNT(first) <= 2)
        return NULL;
    shape_set *set = set_for(lc, first, n);
    /* The pair's own way if it has one (replaced in place), else the older
     * way's shape leaves and the newer moves there. */
    int own = shape_is(set->way[0], first, n) ? 0 : shape_is(set->way[1], first, n) ? 1 : -1;
    if (own >= 0 && set->way[own]->score > 0)
        return set->way[own];   /* still matches as often as not */
    if (table->credit < SHAPE_COST)
        return NULL;
    loads_shape *sh = loads_shape_from_table(dk, n);
    if (sh == NULL)
        return NULL;
    table->credit -= SHAPE_COST;
    loads_shape *old;
    if (own >= 0) {
        old = set->way[own];
        set->way[own] = sh;
    } else {
        old = set->way[1];
        set->way[1] = set->way[0];
        set->way[0] = sh;
    }
    if (old != NULL)
        loads_shape_release(old);
    return sh;
}

static void table_free(shape_table *table)
{
    for (size_t i = 0; i < SHAPE_SETS; i++)
        for (int w = 0; w < 2; w++)
            if (table->sets[i].way[w] != NULL)
                loads_shape_release(table->sets[i].way[w]);
    free(table);
}

#ifdef Py_GIL_DISABLED
/* No table in module state: each thread state has its own. */
int loads_shapes_init(isojson_state *st)
{
    st->shape_cache = NULL;
    return 0;
}

void loads_shapes_clear(isojson_state *st) { (void)st; }
#else
int loads_shapes_init(isojson_state *st)
{
    shape_table *table = calloc(1, sizeof(shape_table));
    if (table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    table->credit = CREDIT_MAX;
    st->shape_cache = table;
    return 0;
}

void loads_shapes_clear(isojson_state *st)
{
    shape_table *table = st->shape_cache;
    if (table == NULL)
        return;
    st->shape_cache = NULL;
    table_free(table);
}
#endif

#else

int loads_shapes_init(isojson_state *st)
{
    (void)st;
    return 0;
}

void loads_shapes_clear(isojson_state *st) { (void)st; }

#ifdef Py_GIL_DISABLED
struct shape_table *loads_shapes_of_thread(void) { return NULL; }
#endif

#endif
