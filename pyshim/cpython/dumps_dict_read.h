/* dumps: dict tables read directly, the members in PyDict_Next's order,
 * through CPython 3.14's private layout (cpython_dict314.h). Used by the dict
 * loop (dumps/dumps_dict.c), the leaf dicts of its cursor
 * (dumps/dumps_cursor.h) and the self-check (dumps_dict_check.c). */
#ifndef ISOJSON_DUMPS_DICT_READ_H
#define ISOJSON_DUMPS_DICT_READ_H

#include <Python.h>
#include <string.h>

#include "cpython_dict314.h"

#pragma GCC visibility push(hidden)

/* PyDict_Next costs about 44 instructions a member on CPython 3.14 (a call,
 * the split-table test, the entry address from the index size, the hash),
 * 25-29% of the whole walk of twitter.json and citm_catalog.json. The common
 * dict, a combined table of str keys (ISOJSON_DICT_KEYS_UNICODE), is read here
 * directly: its entries array is walked as PyDict_Next walks it, skipping
 * the same deleted entries (me_value NULL), with the same position, so the
 * two can take turns on one dict. Combined tables with general entries are
 * read the same way (_PyDict_NewPresized, which orjson.loads and others use
 * for dicts of more than 5 members, makes them even for str keys); split
 * tables (an instance's __dict__) go through PyDict_Next.
 *
 * The keys object is private to CPython (Include/internal/pycore_dict.h), so
 * this is limited to the layout cpython_dict314.h mirrors: CPython 3.14 with the GIL (the
 * free-threaded build locks dicts and has another layout), and checked once
 * per process before it is used (dumps_dict_direct_check, run before the
 * first walk): dicts of every kind the walk reads are iterated both ways and
 * must agree, their index tables must have the width CPython gives their
 * size. Until it has passed, and for good if it fails, every dict goes
 * through PyDict_Next. The check holds for the process: the layout is the
 * interpreter's, the same for all its sub-interpreters. The
 * snapshot of the table is taken again after every member that may have run
 * Python code (a slow value: default=, a nested container), as PyDict_Next
 * rereads it on every call; nothing else can change the dict while the walk
 * holds the GIL. On the free-threaded build the same reading serves the
 * snapshot of a dict taken inside its critical section (dumps/dumps_ft.c),
 * after the same check; nothing reads a table unlocked there. */
#if ISOJSON_DICT_LAYOUT_314
#define DUMPS_DICT_DIRECT 1

/* 1 once dumps_dict_direct_check has passed (dumps_dict_check.c). */
extern int dumps_dict_direct_ok;
#else
#define DUMPS_DICT_DIRECT 0
#endif

/* The iterator lives in registers: its address, and those of the key and
 * value it returns, never escape to a function that is not inlined. */
typedef struct dumps_dict_iter {
    PyObject *dict;
    Py_ssize_t pos;  /* PyDict_Next's position, while entries is NULL */
#if DUMPS_DICT_DIRECT
    /* The me_key field of the first entry (PyDictUnicodeEntry {me_key,
     * me_value}, or PyDictKeyEntry {me_hash, me_key, me_value}), of the next
     * entry to read and past the last one, stride bytes apart; entries NULL:
     * through PyDict_Next. */
    const char *entries, *next, *end;
    size_t stride;
#endif
} dumps_dict_iter;

/* Takes the table's snapshot (again), at the same position; direct is
 * dumps_dict_direct_ok but for the check itself. */
static inline void dumps_dict_iter_snapshot(dumps_dict_iter *it, int direct)
{
#if DUMPS_DICT_DIRECT
    if (it->entries != NULL)
        it->pos = (Py_ssize_t)((size_t)(it->next - it->entries) / it->stride);
    const PyDictObject *mp = (const PyDictObject *)it->dict;
    const isojson_dict_keys *dk = (const isojson_dict_keys *)mp->ma_keys;
    it->entries = NULL;
    if (!direct || mp->ma_values != NULL || dk->dk_kind > ISOJSON_DICT_KEYS_UNICODE)
        return;
    const char *first = dk->dk_indices + ((size_t)1 << dk->dk_log2_index_bytes);
    int unicode = dk->dk_kind == ISOJSON_DICT_KEYS_UNICODE;
    size_t stride = unicode ? 2 * sizeof(PyObject *) : 3 * sizeof(PyObject *);
    it->stride = stride;
    it->entries = unicode ? first : first + sizeof(Py_hash_t);
    it->end = it->entries + (size_t)dk->dk_nentries * stride;
    /* A table that shrank below the position has nothing more to read, as
     * PyDict_Next finds. */
    it->next = it->pos < dk->dk_nentries ? it->entries + (size_t)it->pos * stride : it->end;
#endif
}

static inline void dumps_dict_iter_refresh(dumps_dict_iter *it)
{
#if DUMPS_DICT_DIRECT
    dumps_dict_iter_snapshot(it, __atomic_load_n(&dumps_dict_direct_ok, __ATOMIC_RELAXED));
#endif
}

static inline void dumps_dict_iter_start(dumps_dict_iter *it, PyObject *dict)
{
    it->dict = dict;
    it->pos = 0;
#if DUMPS_DICT_DIRECT
    it->entries = it->next = NULL; /* next: only read with entries set, which gcc -O1 cannot tell */
#endif
    dumps_dict_iter_refresh(it);
}

static inline __attribute__((always_inline)) int dumps_dict_iter_next(dumps_dict_iter *it, PyObject **key,
                                                                      PyObject **value)
{
#if DUMPS_DICT_DIRECT
    if (__builtin_expect(it->entries != NULL, 1)) {
        while (it->next < it->end) {
            const char *e = it->next;
            PyObject *v;
            it->next = e + it->stride;
            memcpy(&v, e + sizeof(PyObject *), sizeof v);
            if (v != NULL) {
                memcpy(key, e, sizeof *key);
                *value = v;
                return 1;
            }
        }
        return 0;
    }
#endif
    Py_ssize_t pos = it->pos;
    PyObject *k, *v;
    int more = PyDict_Next(it->dict, &pos, &k, &v);
    it->pos = pos;
    *key = k;
    *value = v;
    return more;
}

/* Checks once that dicts are read directly as PyDict_Next reads them (see
 * above); call it with the GIL held, before a walk. */
void dumps_dict_direct_check(void);

#pragma GCC visibility pop

#endif
