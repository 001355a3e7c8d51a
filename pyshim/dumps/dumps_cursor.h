/* dumps: the cursor of the list and dict loops (dumps_list.c, dumps_dict.c),
 * the only files that include this. */
#ifndef ISOJSON_DUMPS_CURSOR_H
#define ISOJSON_DUMPS_CURSOR_H

#include "dumps.h"
#include "dumps_keycache.h"
#include "dumps_scan.h"
#include "dumps_ft.h"
#include "cpython/dumps_dict_read.h"

#pragma GCC visibility push(hidden)

/* ---- the container loops' cursor ----
 *
 * The list and dict loops (dumps_list.c, dumps_dict.c) keep the tape's
 * write position and the end of the borrowed list in locals, so in registers,
 * and write the commonest members (ASCII str, float, small int, None, bool,
 * cached keys) without a call: one room check per member instead of a
 * reserve, a length update and a borrowed-list check through memory per
 * value. Anything else runs with the cursor stored back into the context
 * (dumps_cursor_store) and reloaded afterwards, because it appends through
 * the context and may reallocate the tape or the borrowed list. The walk
 * keeps both arrays allocated (dumps_buffers_take), so the pointers are never
 * computed from NULL. (Tuples, which nest to 1024 levels, keep the plain
 * loop and its small stack frame.) */
typedef struct dumps_cursor {
    uint64_t *w, *wend;     /* next tape word, end of the tape's capacity */
    PyObject **b, **bend;   /* next borrowed slot, end of its capacity */
} dumps_cursor;

static inline __attribute__((always_inline)) void dumps_cursor_load(const dumps_ctx *c, dumps_cursor *k)
{
    k->w = c->tape.words + c->tape.len;
    k->wend = c->tape.words + c->tape.cap;
    k->b = c->borrowed.items + c->borrowed.len;
    k->bend = c->borrowed.items + c->borrowed.cap;
}

static inline __attribute__((always_inline)) void dumps_cursor_store(dumps_ctx *c, const dumps_cursor *k)
{
    c->tape.len = (size_t)(k->w - c->tape.words);
    c->borrowed.len = (size_t)(k->b - c->borrowed.items);
}

/* Room for n more tape words at the cursor. The cursor's address never
 * escapes to a function that is not inlined, so that it stays in registers. */
static inline __attribute__((always_inline)) int dumps_cursor_room(dumps_ctx *c, dumps_cursor *k, size_t n)
{
    if (__builtin_expect((size_t)(k->wend - k->w) >= n, 1))
        return 0;
    dumps_cursor_store(c, k);
    int rc = dumps_grow_words(c, c->tape.len + n);
    dumps_cursor_load(c, k);
    return rc;
}

#define DUMPS_ASCII_STRING_HEADER                                                                           \
    (dumps_kind(ISOJSON_STRING) | (uint64_t)ISOJSON_EXTERNAL << ISOJSON_STORAGE_SHIFT |                     \
     (uint64_t)ISOJSON_ASCII << ISOJSON_CLASS_SHIFT | (uint64_t)ISOJSON_UTF8 << ISOJSON_WIDTH_SHIFT)

/* The exact str o at the cursor when it is ASCII of at most
 * DUMPS_CURSOR_TEXT_MAX bytes and `borrowed` has room (dumps_cursor_scalar's
 * case for str, and a dict key's first occurrence): 1 when written. */
static inline __attribute__((always_inline)) int dumps_cursor_ascii(dumps_cursor *k, PyObject *o)
{
    uint64_t *w = k->w;
    if (!PyUnicode_IS_ASCII(o) || k->b == k->bend)
        return 0;
    size_t n = (size_t)PyUnicode_GET_LENGTH(o);
    const uint8_t *data = PyUnicode_DATA(o);
    int found;
    if (__builtin_expect(n <= 64, 1)) {
        found = dumps_scan_bytes_inline(data, n);
    } else {
        /* Long text goes through dumps_str, which counts it. */
        if (n > DUMPS_CURSOR_TEXT_MAX)
            return 0;
        found = dumps_scan_bytes(data, n);
    }
    uint64_t clean = found == 0 ? ISOJSON_CLEAN_BIT : 0;
    w[0] = DUMPS_ASCII_STRING_HEADER | clean | ((uint64_t)n & ISOJSON_LEN_MASK);
    w[1] = (uint64_t)(uintptr_t)data;
    w[2] = n;
    k->w = w + 3;
    *k->b++ = o;
    return 1;
}

/* Writes o at the cursor when it is one of the commonest exact types and
 * needs no call: returns 1 when written, 0 when o takes the slow path (other
 * types, non-ASCII or subclassed str, big ints, a full borrowed list). The
 * caller has made room for 3 words (the most a scalar takes). Nothing here
 * can run Python code. The entries are those of dumps_str, dumps_int,
 * dumps_float and dumps_scalar. */
static inline __attribute__((always_inline)) int dumps_cursor_scalar(dumps_cursor *k, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    uint64_t *w = k->w;
    if (t == &PyUnicode_Type)
        return dumps_cursor_ascii(k, o);
    if (t == &PyFloat_Type) {
        double d = PyFloat_AS_DOUBLE(o);
        w[0] = dumps_kind(ISOJSON_FLOAT);
        memcpy(&w[1], &d, sizeof d);
        k->w = w + 2;
        return 1;
    }
    if (t == &PyLong_Type) {
        if (!PyUnstable_Long_IsCompact((PyLongObject *)o))
            return 0;
        w[0] = dumps_kind(ISOJSON_INT);
        w[1] = (uint64_t)(int64_t)PyUnstable_Long_CompactValue((PyLongObject *)o);
        k->w = w + 2;
        return 1;
    }
    /* bool by its type (it has no subclasses): one compare for both, and
     * one fewer for what is no scalar at all (containers). */
    enum isojson_kind kind;
    if (t == &PyBool_Type)
        kind = o == Py_True ? ISOJSON_TRUE : ISOJSON_FALSE;
    else if (o == Py_None)
        kind = ISOJSON_NULL;
    else
        return 0;
    w[0] = dumps_kind(kind);
    k->w = w + 1;
    return 1;
}


/* ---- leaves: short containers written in place ----
 *
 * Most containers are short and hold only scalars (canada.json's coordinate
 * pairs, citm_catalog.json's prices and id lists, twitter.json's indices and
 * metadata). A member that is such a leaf is written at the cursor without a
 * call, a path entry or a depth update: nothing in it can run Python code,
 * and nothing in it goes through the context. It is speculative: at the
 * first member that dumps_cursor_scalar does not take (or a key not yet
 * cached) the cursor goes back to where the leaf started, dropping what it
 * recorded in `borrowed`, and the leaf takes dumps_cursor_slow. The key
 * cache is never filled here: its slots must point at keys that `borrowed`
 * keeps. Returns 1 when written, 0 for the slow path. */

/* The longest list, tuple or dict written as a leaf. */
#define DUMPS_LEAF_MAX 16

#ifdef Py_GIL_DISABLED
/* The free-threaded build: a scalar read inside its container's critical
 * section (dumps_cursor_scalar), a str kept alive until the write by a
 * reference (dumps_ft_keep; the caller made room for one per member):
 * the tape points into its text. Nothing else needs one: a number or a
 * constant is copied into the tape here, under the lock. */
static inline __attribute__((always_inline)) int dumps_cursor_scalar_ft(dumps_ctx *c, dumps_cursor *k, PyObject *o)
{
    if (!dumps_cursor_scalar(k, o))
        return 0;
    if (Py_TYPE(o) == &PyUnicode_Type)
        dumps_ft_keep(c, o);
    return 1;
}

/* The end of a leaf written inside its critical section (free-threaded
 * build): with n members, its header; n < 0 (a member that is no scalar),
 * the cursor back where the leaf began, for the slow path. */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_close_ft(const dumps_ctx *c, dumps_cursor *k,
                                                                            uint64_t *start, PyObject **borrowed,
                                                                            enum isojson_kind kind, Py_ssize_t n)
{
    if (n < 0) {
        k->w = start;
        k->b = borrowed;
        return 0;
    }
    start[0] = dumps_kind(kind) | (uint64_t)n;
    start[1] = (uint64_t)(k->w - c->tape.words);
    return 1;
}

/* The free-threaded build: an exact list as a leaf, read and written inside
 * its critical section, instead of a snapshot of a reference to every item
 * (dumps_ft_list) released after the write: one list at one instant, and
 * only its strs referenced. Nothing is allocated while it is locked (the
 * room is made first, for the most a leaf holds), and nothing in it runs
 * Python code. The references taken before a member that is not a scalar
 * undoes the leaf stay in the owned list (released after the write). */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_list_ft(dumps_ctx *c, dumps_cursor *k, PyObject *o,
                                                                           int depth)
{
    if (PyList_GET_SIZE(o) > DUMPS_LEAF_MAX || depth >= DUMPS_MAX_DEPTH)
        return 0;
    if (dumps_ft_owned_room(c, DUMPS_LEAF_MAX) < 0) {
        PyErr_Clear(); /* the slow path meets the same shortage and says so */
        return 0;
    }
    uint64_t *start = k->w;
    PyObject **borrowed = k->b;
    Py_ssize_t n = -1;
    Py_BEGIN_CRITICAL_SECTION(o);
    Py_ssize_t m = PyList_GET_SIZE(o);
    if (m <= DUMPS_LEAF_MAX && (size_t)(k->wend - start) >= 2 + 3 * (size_t)m) {
        PyObject *const *items = ((PyListObject *)o)->ob_item;
        k->w = start + 2;
        n = m;
        for (Py_ssize_t i = 0; i < m; i++)
            if (!dumps_cursor_scalar_ft(c, k, items[i])) {
                n = -1;
                break;
            }
    }
    Py_END_CRITICAL_SECTION();
    return dumps_cursor_leaf_close_ft(c, k, start, borrowed, ISOJSON_ARRAY, n);
}
#endif

#ifdef Py_GIL_DISABLED
/* The end of a leaf that the locked walk wrote at the cursor from start,
 * with o locked. A leaf that put no str into the tape (`borrowed` as at
 * borrowed: numbers and constants, copied into the tape, and cached keys,
 * which the dict of their first occurrence keeps) needs o no more and is
 * unlocked now; one that did keeps o held until the write, which keeps the
 * strs alive. 0; or -1 when it cannot be held (MemoryError, cleared: the
 * slow path meets the same shortage), with the cursor back at start and o
 * still locked, for the caller to unlock. */
static inline __attribute__((always_inline)) int dumps_ft_leaf_done(dumps_ctx *c, dumps_cursor *k, PyObject *o,
                                                                    uint64_t *start, PyObject **borrowed)
{
    if (k->b == borrowed) {
        PyMutex_Unlock(&o->ob_mutex);
        return 0;
    }
    if (dumps_ft_lock_room(c) < 0) {
        PyErr_Clear();
        k->w = start;
        k->b = borrowed;
        return -1;
    }
    dumps_ft_held(c, o);
    return 0;
}
#endif

/* An exact list or tuple as a leaf, at depth (the depth of its container;
 * too deep, it takes the slow path, where dumps_enter raises the error).
 * direct, a constant of the caller's loop: 1 in the walks that read
 * containers directly (the GIL build's, the locked walk), 0 in the snapshot
 * walk (free-threaded build), which reads a list inside its critical
 * section; so that each loop compiles only its own walk's code.
 * With nest (a list's member, in the walks that read directly), its
 * members may also be empty exact lists and dicts: [[]] and [{}] without a
 * dumps_list call. Only
 * those: members that are leaves of scalars themselves ([[1, 2], [3]])
 * were tried too, inline (nested/small-containers -7.7%, but the code in
 * the list loop cost corpus/canada +0.9% and list/int64 +0.6%) and out of
 * line (-4.9%, canada +1.9%). */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_at(const dumps_ctx *c, dumps_cursor *k, PyObject *o,
                                                                      int depth, int nest, int direct)
{
    PyTypeObject *t = Py_TYPE(o);
    PyObject *const *items;
    Py_ssize_t n;
#ifdef Py_GIL_DISABLED
    int locked = 0; /* 1: o is a list that the locked walk locked here */
#endif
    if (t == &PyList_Type) {
#ifdef Py_GIL_DISABLED
        if (!direct)
            return dumps_cursor_leaf_list_ft((dumps_ctx *)c, k, o, depth);
        /* The locked walk: the list locked before it is read; a list it
         * cannot lock takes the slow path, where dumps_list ends the walk. */
        if (PyList_GET_SIZE(o) > DUMPS_LEAF_MAX || !dumps_ft_trylock(o))
            return 0;
        locked = 1;
#endif
        items = ((PyListObject *)o)->ob_item;
        n = PyList_GET_SIZE(o);
    } else if (t == &PyTuple_Type) {
        items = ((PyTupleObject *)o)->ob_item;
        n = PyTuple_GET_SIZE(o);
    } else {
        return 0;
    }
    uint64_t *start = k->w;
    PyObject **borrowed = k->b;
    if (n > DUMPS_LEAF_MAX || depth >= DUMPS_MAX_DEPTH || (size_t)(k->wend - start) < 2 + 3 * (size_t)n)
        goto undo;
    k->w = start + 2;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = items[i];
        if (dumps_cursor_scalar(k, v))
            continue;
        /* An empty list or dict (Py_SIZE of an empty list, ma_used of an
         * empty dict: 0), entered at depth + 1; the room counted 3 words
         * for it. In the locked walk, the size of a list or dict read once
         * without its lock is that container at one instant; it is not
         * held, as nothing in it is read. */
        PyTypeObject *vt = Py_TYPE(v);
        if (nest && depth + 1 < DUMPS_MAX_DEPTH &&
            ((vt == &PyList_Type && PyList_GET_SIZE(v) == 0) || (vt == &PyDict_Type && PyDict_GET_SIZE(v) == 0))) {
            uint64_t *w = k->w;
            w[0] = dumps_kind(vt == &PyList_Type ? ISOJSON_ARRAY : ISOJSON_OBJECT);
            k->w = w + 2;
            w[1] = (uint64_t)(k->w - c->tape.words);
            continue;
        }
        k->w = start;
        k->b = borrowed;
        goto undo;
    }
    start[0] = dumps_kind(ISOJSON_ARRAY) | (uint64_t)n;
    start[1] = (uint64_t)(k->w - c->tape.words);
#ifdef Py_GIL_DISABLED
    if (locked && dumps_ft_leaf_done((dumps_ctx *)c, k, o, start, borrowed) < 0)
        goto undo;
#endif
    return 1;
undo:
#ifdef Py_GIL_DISABLED
    if (locked)
        PyMutex_Unlock(&o->ob_mutex);
#endif
    return 0;
}

/* A member of the container being walked (depth c->depth). */
static inline __attribute__((always_inline)) int dumps_cursor_leaf(const dumps_ctx *c, dumps_cursor *k, PyObject *o,
                                                                   int direct)
{
    return dumps_cursor_leaf_at(c, k, o, c->depth, 0, direct);
}

/* A dict key through the key cache at the cursor: 1 when the key was cached
 * and its entry copied, 0 when the caller must take dumps_key's slow path.
 * Needs room for 3 words. */
static inline __attribute__((always_inline)) int dumps_cursor_cached_key(const dumps_ctx *c, dumps_cursor *k,
                                                                         PyObject *key)
{
    const dumps_keyslot *set = &c->keys->slots[dumps_keyset_of(key)];
    const dumps_keyslot *hit;
    if (set[0].key == key)
        hit = &set[0];
    else if (set[1].key == key)
        hit = &set[1];
    else
        return 0;
    uint64_t *w = k->w;
    w[0] = hit->words[0];
    w[1] = hit->words[1];
    w[2] = hit->words[2];
    k->w = w + 3;
    return 1;
}

/* A key of the dict being walked (dumps_dict's loop, not a leaf: what it
 * records in `borrowed` stays) at the cursor, which has room for 3 words:
 * from the key cache, or, at its first occurrence, an ASCII str written as
 * dumps_cursor_scalar writes a value and then cached. One message of a web
 * service meets every key once, so this is its commonest case: without a
 * call to dumps_key and dumps_str, and the cursor's store and reload around
 * it, a first key costs about half. 0: the caller takes dumps_key (not a
 * str, non-ASCII, long, or `borrowed` full). */
static inline __attribute__((always_inline)) int dumps_cursor_key(dumps_ctx *c, dumps_cursor *k, PyObject *key)
{
    size_t at_set = dumps_keyset_of(key);
    const dumps_keyslot *set = &c->keys->slots[at_set];
    const dumps_keyslot *hit;
    uint64_t *w = k->w;
    if (set[0].key == key) {
        hit = &set[0];
    } else if (set[1].key == key) {
        hit = &set[1];
    } else {
        if (Py_TYPE(key) != &PyUnicode_Type || !dumps_cursor_ascii(k, key))
            return 0;
        /* The root dict's keys occur once a call (only another dict can
         * repeat one): not cached, which saves a message's every key the
         * cache's bookkeeping. */
        if (c->depth > 1)
            dumps_keycache_put(c->keys, at_set, key, w);
        return 1;
    }
    w[0] = hit->words[0];
    w[1] = hit->words[1];
    w[2] = hit->words[2];
    k->w = w + 3;
    return 1;
}

#if DUMPS_DICT_DIRECT
/* An exact dict as a leaf: cached keys, members that are scalars or leaf
 * arrays, its table read directly. The caller has made room for 2 words. In
 * the free-threaded build's locked walk the dict is locked first and held
 * if it is written here (the leaf arrays in it hold their own). */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_dict_direct(const dumps_ctx *c, dumps_cursor *k,
                                                                               PyObject *o)
{
    if (Py_TYPE(o) != &PyDict_Type || (c->opts & (ISOJSON_OPT_SORT_KEYS | ISOJSON_OPT_NON_STR_KEYS)))
        return 0;
    if (PyDict_GET_SIZE(o) > DUMPS_LEAF_MAX || c->depth >= DUMPS_MAX_DEPTH)
        return 0;
#ifdef Py_GIL_DISABLED
    dumps_ctx *cc = (dumps_ctx *)c;
    if (!dumps_ft_trylock(o))
        return 0;
    size_t locks_at = c->locks.len;
#endif
    Py_ssize_t n = PyDict_GET_SIZE(o);
    uint64_t *start = k->w;
    PyObject **borrowed = k->b;
    dumps_dict_iter it;
    dumps_dict_iter_start(&it, o);
    if (n > DUMPS_LEAF_MAX || it.entries == NULL)
        goto unlock;
    k->w = start + 2;
    Py_ssize_t count = 0;
    PyObject *key, *value;
    while (dumps_dict_iter_next(&it, &key, &value)) {
        /* Room for a key and a scalar (a leaf array checks its own). */
        if (count == n || (size_t)(k->wend - k->w) < 6 || !dumps_cursor_cached_key(c, k, key) ||
            (!dumps_cursor_scalar(k, value) && !dumps_cursor_leaf_at(c, k, value, c->depth + 1, 0, 1)))
            goto undo;
        count++;
    }
    start[0] = dumps_kind(ISOJSON_OBJECT) | (uint64_t)count;
    start[1] = (uint64_t)(k->w - c->tape.words);
#ifdef Py_GIL_DISABLED
    if (dumps_ft_leaf_done(cc, k, o, start, borrowed) < 0)
        goto unlock;
#endif
    return 1;
undo:
    k->w = start;
    k->b = borrowed;
unlock:
#ifdef Py_GIL_DISABLED
    dumps_ft_unlock_to(cc, locks_at);
    PyMutex_Unlock(&o->ob_mutex);
#endif
    return 0;
}
#endif

#if DUMPS_DICT_DIRECT && defined(Py_GIL_DISABLED)
/* The snapshot walk's leaf dict. The caller has made room for 2 words. */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_dict_ft(const dumps_ctx *c, dumps_cursor *k,
                                                                           PyObject *o)
{
    /* The free-threaded build: the dict is read and written inside its
     * critical section (as a leaf list is, dumps_cursor_leaf_list_ft), its
     * table read directly as dumps_ft_dict reads it there. Its keys must be
     * in the key cache, which keeps them alive (their first occurrence is
     * referenced in the owned list); its values scalars (strs referenced),
     * tuples of scalars, or empty lists: a list's length read once, without
     * its lock, is that list at one instant, and a non-empty one would need
     * its own lock, which could suspend the dict's while this reads it. */
    dumps_ctx *cc = (dumps_ctx *)c;
    if (Py_TYPE(o) != &PyDict_Type || (c->opts & (ISOJSON_OPT_SORT_KEYS | ISOJSON_OPT_NON_STR_KEYS)))
        return 0;
    if (PyDict_GET_SIZE(o) > DUMPS_LEAF_MAX || c->depth >= DUMPS_MAX_DEPTH)
        return 0;
    if (dumps_ft_owned_room(cc, DUMPS_LEAF_MAX) < 0) {
        PyErr_Clear(); /* the slow path meets the same shortage and says so */
        return 0;
    }
    uint64_t *start = k->w;
    PyObject **borrowed = k->b;
    Py_ssize_t count = -1;
    Py_BEGIN_CRITICAL_SECTION(o);
    Py_ssize_t n = PyDict_GET_SIZE(o);
    dumps_dict_iter it;
    dumps_dict_iter_start(&it, o);
    if (n <= DUMPS_LEAF_MAX && it.entries != NULL) {
        k->w = start + 2;
        count = 0;
        PyObject *key, *value;
        while (dumps_dict_iter_next(&it, &key, &value)) {
            /* Room for a key and a scalar (a leaf tuple checks its own). */
            if (count == n || (size_t)(k->wend - k->w) < 6 || !dumps_cursor_cached_key(c, k, key)) {
                count = -1;
                break;
            }
            if (dumps_cursor_scalar_ft(cc, k, value)) {
                count++;
                continue;
            }
            /* A tuple's strs live as long as the tuple: it is kept. */
            if (Py_TYPE(value) == &PyTuple_Type) {
                dumps_ft_keep(cc, value);
                if (dumps_cursor_leaf_at(c, k, value, c->depth + 1, 0, 0)) {
                    count++;
                    continue;
                }
            }
            if (Py_TYPE(value) == &PyList_Type && PyList_GET_SIZE(value) == 0 && c->depth + 1 < DUMPS_MAX_DEPTH) {
                uint64_t *w = k->w;
                w[0] = dumps_kind(ISOJSON_ARRAY);
                k->w = w + 2;
                w[1] = (uint64_t)(k->w - c->tape.words);
                count++;
                continue;
            }
            count = -1;
            break;
        }
    }
    Py_END_CRITICAL_SECTION();
    return dumps_cursor_leaf_close_ft(c, k, start, borrowed, ISOJSON_OBJECT, count);
}
#endif

/* An exact dict as a leaf (dumps_cursor_leaf_dict_direct, or
 * dumps_cursor_leaf_dict_ft in the snapshot walk): 1 when written. */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_dict(const dumps_ctx *c, dumps_cursor *k,
                                                                        PyObject *o, int direct)
{
#if !DUMPS_DICT_DIRECT
    (void)c, (void)k, (void)o, (void)direct;
    return 0;
#elif defined(Py_GIL_DISABLED)
    return direct ? dumps_cursor_leaf_dict_direct(c, k, o) : dumps_cursor_leaf_dict_ft(c, k, o);
#else
    (void)direct;
    return dumps_cursor_leaf_dict_direct(c, k, o);
#endif
}

/* A member that is neither a scalar nor a leaf, through the context. The
 * cursor is stored before and reloaded after. The types handled here run no
 * Python code, except in what they contain, which comes back here; anything
 * else may (default=, a lazy module's import, a subclass's method...), and
 * counts in c->keys->foreign, so that the dict loop knows when to read its
 * table again. Tuples count too: their loop (dumps_tuple) does not come back
 * here. */
static inline __attribute__((always_inline)) int dumps_cursor_slow(dumps_ctx *c, dumps_cursor *k, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    int rc;
    dumps_cursor_store(c, k);
    if (t == &PyDict_Type) {
        rc = dumps_dict(c, o);
    } else if (t == &PyList_Type) {
        rc = dumps_list(c, o);
    } else if (t == &PyUnicode_Type) {
        rc = dumps_str(c, o);
    } else if (t == &PyLong_Type) {
        rc = dumps_int(c, o);
    } else {
        /* Not a str, int, float, bool, None, dict or list (the callers
         * tried dumps_cursor_scalar first): dumps_value's exact types would
         * only be compared again. */
        c->keys->foreign++;
        rc = dumps_value_slow(c, o);
    }
    dumps_cursor_load(c, k);
    return rc;
}


/* One member of a list at the cursor, which has room for 3 words: a scalar,
 * a leaf array or dict, or through the context. 0, or -1 on error. (The dict
 * loop tries no leaf dicts: measured, the code they add to its loop costs
 * more than they save on the corpus.) */
static inline __attribute__((always_inline)) int dumps_cursor_member(dumps_ctx *c, dumps_cursor *k, PyObject *o,
                                                                    int direct)
{
    if (dumps_cursor_scalar(k, o))
        return 0;
    if (dumps_cursor_leaf_at(c, k, o, c->depth, 1, direct) || dumps_cursor_leaf_dict(c, k, o, direct))
        return 0;
    return dumps_cursor_slow(c, k, o);
}

#pragma GCC visibility pop

#endif
