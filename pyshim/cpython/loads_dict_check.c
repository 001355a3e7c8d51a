/* loads: the once-per-process check that dicts whose table isojson fills
 * directly (loads_dict.h) are the dicts CPython builds: byte for byte against
 * _PyDict_FromItems (BUILD_MAP's builder), in behaviour against dicts made
 * with PyDict_SetItem, and with every reference released once they are
 * gone; also when built through a shape (loads_shapes.h) that predicts all
 * of their keys, or all up to any one position. */
#include "loads_dict.h"
#include "loads/loads_shapes.h"
#include "selfcheck_str.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#if LOADS_DICT_DIRECT

/* CPython 3.14's builder of BUILD_MAP (_PyDict_FromItems in
 * Objects/dictobject.c), the reference the check compares tables with, byte
 * for byte. It is private though exported: looked up at run time, so that an
 * interpreter without it still imports isojson (and the check fails). */
typedef PyObject *(*from_items_fn)(PyObject *const *keys, Py_ssize_t keys_offset, PyObject *const *values,
                                   Py_ssize_t values_offset, Py_ssize_t length);

/* Builds d's members directly from the arrays (new references taken). */
static PyObject *build_direct(PyObject *const *keys, PyObject *const *values, Py_ssize_t n)
{
    PyObject *d = PyDict_New();
    if (d == NULL || n == 0)
        return d;
    isojson_dict_keys *dk = loads_dict_keys_new(n);
    if (dk == NULL) {
        Py_DECREF(d);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (loads_dict_put(dk, Py_NewRef(keys[i]), Py_NewRef(values[i])) < 0) {
            loads_dict_keys_free(dk);
            Py_DECREF(d);
            return NULL;
        }
    loads_dict_take_keys(d, dk);
    return d;
}

static PyObject *build_public(PyObject *const *keys, PyObject *const *values, Py_ssize_t n)
{
    PyObject *d = PyDict_New();
    for (Py_ssize_t i = 0; d != NULL && i < n; i++)
        if (PyDict_SetItem(d, keys[i], values[i]) < 0)
            Py_CLEAR(d);
    return d;
}

/* Builds d's members as loads_build does through shape sh: in a table
 * whose index slots are not set, while keys[i] is the predicted key, stored
 * at its position without a probe and with the entry count set once at the
 * end; from the first that is not, the entries so far get their indexes and
 * the rest goes through loads_dict_put. */
static PyObject *build_shaped(PyObject *const *keys, PyObject *const *values, Py_ssize_t n, loads_shape *sh)
{
    PyObject *d = PyDict_New();
    isojson_dict_keys *dk = d ? loads_dict_keys_new_bare(n) : NULL;
    if (dk == NULL) {
        Py_XDECREF(d);
        return NULL;
    }
    int shaped = sh->n == n;
    if (!shaped)
        loads_dict_clear_indices(dk);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (shaped && sh->keys[i].str != keys[i]) {
            dk->dk_nentries = i;
            loads_dict_index_entries(dk);
            shaped = 0;
        }
        if (shaped)
            loads_dict_store_at(loads_dict_entries(dk), i, Py_NewRef(keys[i]), Py_NewRef(values[i]));
        else if (loads_dict_put(dk, Py_NewRef(keys[i]), Py_NewRef(values[i])) < 0) {
            loads_dict_keys_free(dk);
            Py_DECREF(d);
            return NULL;
        }
    }
    if (shaped) {
        dk->dk_nentries = n;
        loads_dict_take_indices(dk, sh->indices, sh->index_bytes);
    }
    loads_dict_take_keys(d, dk);
    return d;
}

/* Whether d's table is the one CPython built in ref: same header, same
 * indexes, same entries (the same objects), zero past the last. */
static int same_table(PyObject *d, PyObject *ref)
{
    const PyDictObject *a = (const PyDictObject *)d, *b = (const PyDictObject *)ref;
    if (a->ma_used != b->ma_used || a->ma_values != NULL || b->ma_values != NULL)
        return 0;
    if (a->ma_used == 0)
        return 1;
    isojson_dict_keys *x = (isojson_dict_keys *)a->ma_keys, *y = (isojson_dict_keys *)b->ma_keys;
    if (x->dk_refcnt != 1 || y->dk_refcnt != 1 || x->dk_kind != ISOJSON_DICT_KEYS_UNICODE ||
        x->dk_kind != y->dk_kind || x->dk_log2_size != y->dk_log2_size ||
        x->dk_log2_index_bytes != y->dk_log2_index_bytes || x->dk_usable != y->dk_usable ||
        x->dk_nentries != y->dk_nentries || x->dk_version != y->dk_version)
        return 0;
#ifdef Py_GIL_DISABLED
    if (x->dk_mutex != 0 || y->dk_mutex != 0)
        return 0;
#endif
    size_t usable = (size_t)loads_dict_usable((size_t)1 << x->dk_log2_size);
    return memcmp(x->dk_indices, y->dk_indices, (size_t)1 << x->dk_log2_index_bytes) == 0 &&
           memcmp(loads_dict_entries(x), loads_dict_entries(y), sizeof(isojson_dict_entry) * usable) == 0;
}

/* 1 when a and b have the same members in the same order (the same key and
 * value objects), 0 when not. */
static int same_members(PyObject *a, PyObject *b)
{
    if (PyDict_GET_SIZE(a) != PyDict_GET_SIZE(b))
        return 0;
    Py_ssize_t i = 0, j = 0;
    PyObject *ka, *va, *kb, *vb;
    for (;;) {
        int more_a = PyDict_Next(a, &i, &ka, &va), more_b = PyDict_Next(b, &j, &kb, &vb);
        if (more_a != more_b)
            return 0;
        if (!more_a)
            return 1;
        if (ka != kb || va != vb)
            return 0;
    }
}

/* 1 when the two strs of obj's repr and of ref's are equal; -1 on error. */
static int same_repr(PyObject *a, PyObject *b)
{
    PyObject *ra = PyObject_Repr(a), *rb = ra ? PyObject_Repr(b) : NULL;
    int rc = rb ? PyUnicode_Compare(ra, rb) == 0 : -1;
    Py_XDECREF(ra);
    Py_XDECREF(rb);
    if (rc == 0 && PyErr_Occurred())
        rc = -1;
    return rc;
}

/* The value for key in d (borrowed, NULL when absent); *err set on error. */
static PyObject *lookup(PyObject *d, PyObject *key, int *err)
{
    PyObject *v;
    int r = PyDict_GetItemRef(d, key, &v);
    if (r < 0)
        *err = 1;
    Py_XDECREF(v);  /* d keeps it alive */
    return v;
}

/* A str equal to s but another object (lookups must compare text). */
static PyObject *twin(PyObject *s)
{
    return PyUnicode_FromKindAndData(PyUnicode_KIND(s), PyUnicode_DATA(s), PyUnicode_GET_LENGTH(s));
}

/* Whether the direct dict d and the public one p (same members) behave
 * alike through the public API: 1 yes, 0 no, -1 on error. Both are mutated
 * the same way. */
static int behaves_alike(PyObject *d, PyObject *p, PyObject *const *keys, Py_ssize_t n)
{
    int err = 0, ok = 1;
    ok = ok && same_members(d, p);
    ok = ok && PyObject_GC_IsTracked(d) == PyObject_GC_IsTracked(p);
    int eq = ok ? PyObject_RichCompareBool(d, p, Py_EQ) : 0;
    ok = ok && eq == 1;
    int r = ok && n <= 24 ? same_repr(d, p) : 1;
    ok = ok && r == 1;
    for (Py_ssize_t i = 0; ok && i < n; i += n <= 24 ? 1 : 5) {
        PyObject *t = twin(keys[i]);
        if (t == NULL)
            return -1;
        ok = lookup(d, keys[i], &err) == lookup(p, keys[i], &err) && lookup(d, t, &err) == lookup(p, t, &err) &&
             lookup(d, t, &err) != NULL;
        Py_DECREF(t);
    }
    if (ok) {
        PyObject *missing = PyUnicode_FromString("\x01missing");
        if (missing == NULL)
            return -1;
        ok = lookup(d, missing, &err) == NULL;
        Py_DECREF(missing);
    }
    /* copy() and update() of a direct dict. */
    if (ok) {
        PyObject *c = PyDict_Copy(d), *u = c ? PyDict_New() : NULL;
        if (u == NULL || PyDict_Update(u, d) < 0) {
            Py_XDECREF(c);
            Py_XDECREF(u);
            return -1;
        }
        ok = same_members(c, p) && same_members(u, p);
        Py_DECREF(c);
        Py_DECREF(u);
    }
    /* A deletion, then enough insertions to resize the table. */
    if (ok && n > 0) {
        if (PyDict_DelItem(d, keys[0]) < 0 || PyDict_DelItem(p, keys[0]) < 0)
            return -1;
        ok = same_members(d, p) && lookup(d, keys[0], &err) == NULL;
        /* One more than the table has room for. */
        Py_ssize_t more = ((isojson_dict_keys *)((PyDictObject *)d)->ma_keys)->dk_usable + 1;
        for (Py_ssize_t i = 0; ok && i < more; i++) {
            PyObject *k = selfcheck_numbered("more", i);
            if (k == NULL || PyDict_SetItem(d, k, k) < 0 || PyDict_SetItem(p, k, k) < 0) {
                Py_XDECREF(k);
                return -1;
            }
            Py_DECREF(k);
        }
        ok = ok && same_members(d, p);
        for (Py_ssize_t i = 1; ok && i < n; i++)
            ok = lookup(d, keys[i], &err) == lookup(p, keys[i], &err);
        if (ok && PyDict_SetItem(d, keys[0], Py_None) == 0 && PyDict_SetItem(p, keys[0], Py_None) == 0)
            ok = same_members(d, p);
    }
    if (err || PyErr_Occurred())
        return -1;
    return ok;
}

/* The dicts of a case built through shapes, against ref (CPython's) byte
 * for byte: 1 alike, 0 not, -1 error. The shapes are made from direct
 * builds of "predicted" keys: the case's own keys (when distinct: the
 * shape matches all), the same with a repeated key replaced by a fresh one
 * (the shape fails at the first repeat), and for each position j, the keys
 * with the j-th replaced (the shape fails at j). */
static int check_shapes(PyObject *const *keys, PyObject *const *values, Py_ssize_t n, Py_ssize_t dup, int every,
                        PyObject *ref)
{
    if (n < 2 || n > LOADS_SHAPE_MAX)
        return 1;
    PyObject **predicted = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    if (predicted == NULL)
        return -1;
    int rc = 1;
    for (Py_ssize_t j = -1; rc == 1 && j < (every ? n : 0); j++) {
        for (Py_ssize_t i = 0; rc == 1 && i < n; i++) {
            int fresh = i == j || (dup > 0 && i >= dup && i % 3 == 0);
            predicted[i] = fresh ? selfcheck_numbered("fresh ", i) : Py_NewRef(keys[i]);
            if (predicted[i] == NULL)
                rc = -1;
        }
        PyObject *p = rc == 1 ? build_direct(predicted, values, n) : NULL;
        loads_shape *sh = p ? loads_shape_from_table((isojson_dict_keys *)((PyDictObject *)p)->ma_keys, n) : NULL;
        Py_XDECREF(p);
        if (sh != NULL) {   /* NULL: not a shape (non-ASCII keys, no memory) */
            PyObject *d = build_shaped(keys, values, n, sh);
            rc = d == NULL ? -1 : same_table(d, ref);
            Py_XDECREF(d);
            loads_shape_release(sh);
        } else if (rc == 1 && PyErr_Occurred()) {
            rc = -1;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            Py_CLEAR(predicted[i]);
    }
    PyMem_Free(predicted);
    return rc;
}

/* The member keys of a case: i-th key of `variety` (0 ASCII "k<i>" hashed,
 * 1 the same text not hashed yet, 2 non-ASCII of 2 and 4 bytes a character,
 * 3 long ASCII), every key repeated `dup` positions later when dup > 0. */
static PyObject *case_key(Py_ssize_t i, int variety)
{
    PyObject *k;
    switch (variety) {
    case 0:
    case 1:
        k = selfcheck_numbered("k", i);
        break;
    case 2: {
        char text[32];
        snprintf(text, sizeof text, i % 2 ? "\xc3\xa9t\xc3\xa9%zd" : "\xf0\x9f\x98\x80%zd", i);
        k = PyUnicode_FromString(text);
        break;
    }
    default:
        k = selfcheck_numbered("a fairly long key that a key cache would not keep, number ", i);
    }
    if (k != NULL && variety != 1 && PyObject_Hash(k) == -1)
        Py_CLEAR(k);
    return k;
}

/* One case: n members (values alternate int, None and an empty list, which
 * the GC tracks). 1 alike, 0 not, -1 error. */
static int check_case(from_items_fn from_items, Py_ssize_t n, int variety, Py_ssize_t dup, int do_break,
                      int behaviour)
{
    PyObject **keys = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    PyObject **values = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    Py_ssize_t *counts = PyMem_Calloc(2 * (size_t)n + 1, sizeof(Py_ssize_t));
    PyObject *d = NULL, *p = NULL, *ref = NULL;
    int rc = -1;
    if (keys == NULL || values == NULL || counts == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        /* A repeat is an equal str, a distinct object for odd i. */
        if (dup > 0 && i >= dup && i % 3 == 0)
            keys[i] = i % 2 ? twin(keys[i - dup]) : Py_NewRef(keys[i - dup]);
        else
            keys[i] = case_key(i, variety);
        values[i] = i % 3 == 0 ? PyLong_FromSsize_t(i * 1000003) : i % 3 == 1 ? Py_NewRef(Py_None) : PyList_New(0);
        if (keys[i] == NULL || values[i] == NULL)
            goto done;
    }
    /* The references the arrays hold, to be found again once the dicts
     * are gone (a repeated key's value and key are released). */
    for (Py_ssize_t i = 0; i < n; i++) {
        counts[2 * i] = Py_REFCNT(keys[i]);
        counts[2 * i + 1] = Py_REFCNT(values[i]);
    }
    /* The direct build first, so that it meets the keys of variety 1
     * before anything has hashed them. */
    d = build_direct(keys, values, n);
    p = d ? build_public(keys, values, n) : NULL;
    ref = p ? from_items(keys, 1, values, 1, n) : NULL;
    if (ref == NULL)
        goto done;
    if (do_break && n >= 2) {
        /* The test hook: a table CPython would not build. */
        isojson_dict_entry *e = loads_dict_entries((isojson_dict_keys *)((PyDictObject *)d)->ma_keys);
        PyObject *v = e[0].value;
        e[0].value = e[1].value;
        e[1].value = v;
    }
    rc = same_table(d, ref);
    if (rc == 1 && behaviour)
        rc = behaves_alike(d, p, keys, n);
    /* Shapes (ASCII keys only): every mismatch position once, for hashed
     * ASCII keys without repeats. */
    if (rc == 1 && variety != 2)
        rc = check_shapes(keys, values, n, dup, variety == 0 && dup == 0, ref);
    Py_CLEAR(d);
    Py_CLEAR(p);
    Py_CLEAR(ref);
    for (Py_ssize_t i = 0; rc == 1 && i < n; i++)
        if (Py_REFCNT(keys[i]) != counts[2 * i] || Py_REFCNT(values[i]) != counts[2 * i + 1])
            rc = 0;
done:
    Py_XDECREF(d);
    Py_XDECREF(p);
    Py_XDECREF(ref);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_XDECREF(keys ? keys[i] : NULL);
        Py_XDECREF(values ? values[i] : NULL);
    }
    PyMem_Free(keys);
    PyMem_Free(values);
    PyMem_Free(counts);
    return rc;
}

/* The sizes checked: around each growth of the table (8, 16, 32, 64 slots
 * with 1-byte indexes, then 2-byte ones from 256 slots), full and not. */
static const Py_ssize_t check_sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 21, 22, 23, 42, 43, 85, 86, 171, 342};
#define CHECK_SMALL 17  /* the sizes up to 23 */

/* Every size for hashed ASCII keys without repeats, with the behaviour; the
 * sizes up to 23 with repeats (the next key, or every 7th) and each variety
 * of keys; the larger ones again with non-ASCII keys and repeats. Kept to
 * about a millisecond: it runs at the first loads of a process. */
static int check(int do_break)
{
    from_items_fn from_items = (from_items_fn)dlsym(RTLD_DEFAULT, "_PyDict_FromItems");
    if (from_items == NULL)
        return 0;
    for (int variety = 0; variety < 4; variety++) {
        for (int d = 0; d < 3; d++) {
            Py_ssize_t dup = d == 0 ? 0 : d == 1 ? 1 : 7;
            int all = variety == 0 && dup == 0;
            int large = all || (variety == 2 && dup == 1);
            size_t count = large ? sizeof check_sizes / sizeof check_sizes[0] : CHECK_SMALL;
            for (size_t k = 0; k < count; k++) {
                Py_ssize_t n = check_sizes[k];
                int rc = check_case(from_items, n, variety, dup, do_break, all || (variety == 2 && k % 2 == 0));
                if (rc != 1)
                    return rc;
            }
        }
    }
    return 1;
}

/* 0 not checked yet, 1 passed, -1 failed or turned off. Racing checks
 * (own-GIL sub-interpreters on several threads) reach the same result. */
static int checked;

int loads_dict_direct_check(void)
{
    int state = __atomic_load_n(&checked, __ATOMIC_ACQUIRE);
    if (state != 0)
        return state > 0;
    const char *off = getenv("ISOJSON_DICT_DIRECT");
    const char *brk = getenv("ISOJSON_DICT_SELFCHECK_BREAK");
    int rc = off != NULL && strcmp(off, "0") == 0 ? 0 : check(brk != NULL && strcmp(brk, "1") == 0);
    if (rc < 0) {
        /* No memory: stay on PyDict_SetItem, check again next time. */
        PyErr_Clear();
        return 0;
    }
    __atomic_store_n(&checked, rc ? 1 : -1, __ATOMIC_RELEASE);
    return rc;
}

#else

int loads_dict_direct_check(void) { return 0; }

#endif
