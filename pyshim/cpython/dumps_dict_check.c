/* dumps: the once-per-process check that dict tables read directly
 * (dumps_dict_read.h) give what PyDict_Next gives, member for member, and
 * look as CPython 3.14 makes them; until it has passed, and for good if it
 * fails, dumps reads every dict through PyDict_Next. */
#include "dumps_dict_read.h"
#include "selfcheck_str.h"

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
        PyObject *k = selfcheck_numbered("k", i), *v = PyLong_FromLong(i);
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
