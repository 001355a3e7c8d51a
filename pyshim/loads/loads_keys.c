/* The per-interpreter cache of dict keys. JSON documents repeat the same few
 * keys thousands of times; making each one once and handing out new
 * references saves an allocation and a hash per member. A fixed-size table
 * of short keys, each str already hashed, 2-way set-associative: with one
 * slot per hash, two keys of a document that shared a slot evicted each
 * other at every member (twitter: 358 misses per loads, each a new str, a
 * hash and a free); two ways per set, in one cache line, keep both.
 * Only ASCII keys are cached (their UTF-8 bytes are the str's own data, so a
 * hit is one inline compare, loads_bytes.h). The table lives in module state,
 * so every interpreter has its own and no str crosses interpreters.
 */
#include "loads.h"
#include "loads_bytes.h"
#include "loads_shapes.h"

#include <stdlib.h>
#include <string.h>

#define KEY_SETS 1024           /* power of two; 2 ways each */
#define KEY_MAX LOADS_KEY_CACHE_MAX

typedef struct key_slot {
    uint64_t tag;       /* loads_bytes_hash of the bytes, with the length in the top byte; 0: empty */
    PyObject *str;
} key_slot;

/* way[0] is the newer entry: a miss moves it to way[1] and takes way[0]. */
typedef struct key_set {
    key_slot way[2];
} key_set;

_Static_assert(sizeof ((isojson_state *)0)->small_ints / sizeof(PyObject *) ==
                   LOADS_SMALL_INT_MAX - LOADS_SMALL_INT_MIN + 1,
               "isojson_state.small_ints holds the ints LOADS_SMALL_INT_MIN..LOADS_SMALL_INT_MAX");

int isojson_loads_state_init(isojson_state *st)
{
    /* CPython's small ints, the objects PyLong_FromLong gives for them
     * (immortal: held without a reference count that matters). */
    for (int i = LOADS_SMALL_INT_MIN; i <= LOADS_SMALL_INT_MAX; i++) {
        PyObject *v = PyLong_FromLong(i);
        if (v == NULL)
            return -1;
        st->small_ints[i - LOADS_SMALL_INT_MIN] = v;
    }
    /* Sets aligned to a cache line, so that a lookup touches one line. */
    key_set *t = aligned_alloc(64, KEY_SETS * sizeof(key_set));
    if (t == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(t, 0, KEY_SETS * sizeof(key_set));
    st->key_cache = t;
    return loads_shapes_init(st);
}

void isojson_loads_state_clear(isojson_state *st)
{
    for (size_t i = 0; i < sizeof st->small_ints / sizeof st->small_ints[0]; i++)
        Py_CLEAR(st->small_ints[i]);
    /* The shapes first: they hold key strs. */
    loads_shapes_clear(st);
    key_set *t = st->key_cache;
    if (t == NULL)
        return;
    st->key_cache = NULL;
    for (size_t i = 0; i < KEY_SETS; i++) {
        Py_XDECREF(t[i].way[0].str);
        Py_XDECREF(t[i].way[1].str);
    }
    free(t);
}

/* A miss: a new str for the key, hashed, into way 0 of its set (way 0 moves
 * to way 1, whose str is released). Out of line, so that the hit path saves
 * no registers and calls nothing. */
static LOADS_NOINLINE PyObject *key_miss(key_set *set, uint64_t h, const uint8_t *s, size_t n)
{
    PyObject *u = PyUnicode_New((Py_ssize_t)n, 0x7f);
    if (u == NULL)
        return NULL;
    loads_bytes_copy(ISOJSON_ASCII_DATA(u), s, n);
    /* Hash now: the str caches it, and every dict insertion reuses it. */
    if (PyObject_Hash(u) == -1) {
        Py_DECREF(u);
        return NULL;
    }
    PyObject *old = set->way[1].str;
    set->way[1] = set->way[0];
    set->way[0] = (key_slot){.tag = h, .str = Py_NewRef(u)};
    Py_XDECREF(old);
    return u;
}

#ifdef Py_GIL_DISABLED
/* The free-threaded build: one table per thread (per thread state, so per
 * thread and interpreter), never shared. A shared table would need a lock or
 * atomics on every lookup, and its strs, touched by every thread, would have
 * their reference counts updated atomically from many cores; a str made by
 * this thread has its count in the thread's own (biased) field, so a hit
 * costs what it costs with the GIL. It is kept as loads_caches_ft.c says,
 * found once per call and handed to every loads_key of the call. */
#define KEYS_CAPSULE "isojson._loads_keys"

static void keys_free(void *table)
{
    key_set *t = table;
    for (size_t i = 0; i < KEY_SETS; i++) {
        Py_XDECREF(t[i].way[0].str);
        Py_XDECREF(t[i].way[1].str);
    }
    free(t);
}

static void keys_capsule_destructor(PyObject *cap)
{
    key_set *t = PyCapsule_GetPointer(cap, KEYS_CAPSULE);
    if (t == NULL) {
        PyErr_Clear();
        return;
    }
    loads_caches_forget();
    keys_free(t);
}

static void *keys_make(void)
{
    key_set *t = aligned_alloc(64, KEY_SETS * sizeof(key_set));
    if (t != NULL)
        memset(t, 0, KEY_SETS * sizeof(key_set));
    return t;
}

key_set *loads_keys_of_thread(void)
{
    return loads_thread_table(KEYS_CAPSULE, keys_make, free, keys_capsule_destructor);
}
#endif

PyObject *loads_key(const loads_caches *lc, const uint8_t *s, size_t n, size_t chars, int cls)
{
    key_set *t = lc->keys;
    /* n - 1 wraps for n == 0: one compare for 1 <= n <= KEY_MAX. */
    if (cls != ISOJSON_ASCII || n - 1 >= KEY_MAX || t == NULL)
        return loads_str_from_utf8(s, n, chars, cls);
    /* The length in the top byte: a slot of another length is rejected
     * without touching its str (and a used slot's tag is never 0). */
    uint64_t h = (loads_bytes_hash(s, n) & 0x00ffffffffffffffULL) | (uint64_t)n << 56;
    key_set *set = &t[h & (KEY_SETS - 1)];
    for (int w = 0; w < 2; w++) {
        PyObject *u = set->way[w].str;
        if (set->way[w].tag == h && loads_bytes_eq(ISOJSON_ASCII_DATA(u), s, n)) {
            Py_INCREF(u);
            return u;
        }
    }
    return key_miss(set, h, s, n);
}
