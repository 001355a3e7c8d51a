/* dict (and its subclasses) → Object, members in the dict's order, each key
 * then its value. Under OPT_SORT_KEYS or OPT_NON_STR_KEYS orjson converts
 * every key before any value (dumps_sort.c).
 *
 * Keys must be exact str, as orjson requires ("Dict key must be str"), unless
 * OPT_NON_STR_KEYS turns other keys into strings (dumps_key.c). The count is
 * of members actually written: default= may mutate the dict while it is
 * walked; the walk stays memory-safe as PyDict_Next does (dumps_internal.h).
 * Members go through a cursor (dumps_internal.h): cached keys and the
 * commonest values without a call. */
#include "dumps_internal.h"


int dumps_dict(dumps_ctx *c, PyObject *o)
{
    dumps_cursor k;
    dumps_dict_iter it;
    size_t count = 0;
    PyObject *key, *value;
    if (c->opts & (OPT_SORT_KEYS | OPT_NON_STR_KEYS))
        return dumps_dict_collected(c, o, (c->opts & OPT_SORT_KEYS) != 0);
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    dumps_cursor_load(c, &k);
    if (dumps_cursor_room(c, &k, 2) < 0)
        goto fail;
    size_t at = (size_t)(k.w - c->tape.words);
    k.w[0] = dumps_kind(ISOJSON_OBJECT);
    k.w += 2;
    dumps_dict_iter_start(&it, o);
    while (dumps_dict_iter_next(&it, &key, &value)) {
        /* A key and the widest scalar. */
        if (dumps_cursor_room(c, &k, 6) < 0)
            goto fail;
        if (!dumps_cursor_cached_key(c, &k, key)) {
            /* No Python code runs for a key: the dict is unchanged. */
            dumps_cursor_store(c, &k);
            int rc = dumps_key(c, key);
            dumps_cursor_load(c, &k);
            if (rc < 0)
                goto fail;
        }
        count++;
        if (dumps_cursor_scalar(&k, value) || dumps_cursor_leaf(c, &k, value))
            continue;
        uint64_t foreign = c->keys->foreign;
        if (dumps_cursor_slow(c, &k, value) < 0)
            goto fail;
        /* Python code may have changed the dict. */
        if (c->keys->foreign != foreign)
            dumps_dict_iter_refresh(&it);
    }
    dumps_cursor_store(c, &k);
    dumps_close(c, at, count);
    dumps_leave(c);
    return 0;
fail:
    dumps_cursor_store(c, &k);
    dumps_leave(c);
    return -1;
}

/* ---- the one-time check of the direct reading (dumps_internal.h) ---- */

#if DUMPS_DICT_DIRECT
int dumps_dict_direct_ok;

/* The width of the index table CPython gives a table of 2^log2_size slots
 * (new_keys_object in Objects/dictobject.c), as log2 of its size in bytes. */
static unsigned log2_index_bytes(unsigned log2_size)
{
    return log2_size + (log2_size >= 8) + (log2_size >= 16) + (log2_size >= 32);
}

/* Whether the direct reading of d finds what PyDict_Next finds, member for
 * member, and d's table looks as CPython 3.14 makes it. */
static int reads_as_pydict_next(PyObject *d, int want_kind)
{
    const PyDictObject *mp = (const PyDictObject *)d;
    const isojson_dict_keys *dk = (const isojson_dict_keys *)mp->ma_keys;
    /* The shared empty table (PyDict_New) has 8 index bytes for a size of
     * 1 and no entry to read. */
    if (mp->ma_values != NULL || dk->dk_kind != want_kind || dk->dk_log2_size >= 64 ||
        (dk->dk_nentries != 0 && dk->dk_log2_index_bytes != log2_index_bytes(dk->dk_log2_size)) ||
        dk->dk_nentries < mp->ma_used || (uint64_t)dk->dk_nentries > ((uint64_t)1 << dk->dk_log2_size))
        return 0;
    dumps_dict_iter it;
    it.dict = d;
    it.pos = 0;
    it.entries = NULL;
    dumps_dict_iter_snapshot(&it, 1);
    if (it.entries == NULL)
        return 0;
    Py_ssize_t pos = 0, n = 0;
    PyObject *k1, *v1, *k2 = NULL, *v2 = NULL; /* set when b is 1, which gcc -Og cannot tell */
    for (;;) {
        int a = PyDict_Next(d, &pos, &k1, &v1);
        int b = dumps_dict_iter_next(&it, &k2, &v2);
        if (a != b)
            return 0;
        if (!a)
            return n == PyDict_GET_SIZE(d);
        if (k1 != k2 || v1 != v2)
            return 0;
        n++;
    }
}

/* Fills d with n members "k<i>": i (a str-keys table, the index width
 * growing with n), with every third deleted when holes is set. */
static int fill(PyObject *d, int n, int holes)
{
    for (int i = 0; i < n; i++) {
        PyObject *k = PyUnicode_FromFormat("k%d", i), *v = PyLong_FromLong(i);
        int rc = k != NULL && v != NULL ? PyDict_SetItem(d, k, v) : -1;
        Py_XDECREF(v);
        if (rc == 0 && holes && i % 3 == 1)
            rc = PyDict_DelItem(d, k);
        Py_XDECREF(k);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* The dicts: empty, small, with 1- and 2-byte indexes (10, 300 members),
 * with holes, and general tables (an int key inserted first, then
 * deleted). Returns 1 when they all read alike, 0 when not, -1 on error. */
static int check(void)
{
    static const struct {
        int n, holes, general;
    } cases[] = {{0, 0, 0}, {3, 0, 0}, {10, 1, 0}, {300, 0, 0}, {300, 1, 0}, {10, 0, 1}, {300, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PyObject *d = PyDict_New();
        if (d == NULL)
            return -1;
        int rc = 0;
        if (cases[i].general) {
            PyObject *one = PyLong_FromLong(1);
            rc = one != NULL && PyDict_SetItem(d, one, Py_None) == 0 && PyDict_DelItem(d, one) == 0 ? 0 : -1;
            Py_XDECREF(one);
        }
        if (rc == 0)
            rc = fill(d, cases[i].n, cases[i].holes);
        if (rc == 0)
            rc = reads_as_pydict_next(d, cases[i].general ? ISOJSON_DICT_KEYS_GENERAL : ISOJSON_DICT_KEYS_UNICODE);
        Py_DECREF(d);
        if (rc != 1)
            return rc;
    }
    return 1;
}

/* 0 not checked yet, 1 passed, -1 failed. Racing checks (own-GIL
 * sub-interpreters on several threads) reach the same result. */
static int checked;

void dumps_dict_direct_check(void)
{
    if (__atomic_load_n(&checked, __ATOMIC_ACQUIRE) != 0)
        return;
    int rc = check();
    if (rc < 0) {
        /* No memory: direct reading stays off, and is checked again next
         * time. */
        PyErr_Clear();
        return;
    }
    __atomic_store_n(&dumps_dict_direct_ok, rc, __ATOMIC_RELAXED);
    __atomic_store_n(&checked, rc ? 1 : -1, __ATOMIC_RELEASE);
}
#else
void dumps_dict_direct_check(void) {}
#endif
