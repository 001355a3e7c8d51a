/* loads: dicts built by filling their hash table directly.
 *
 * PyDict_SetItem per member costs a call, type checks, a lookup, then a
 * second probe for the empty slot, a watcher test, and, for a dict made by
 * _PyDict_NewPresized (more than 5 members), a GENERAL table (24-byte
 * entries that store the hash) although every key is a str. Here a dict's
 * table is allocated once at its final size when its Object entry is met,
 * and each member goes straight into it: one probe sequence that finds
 * either the empty slot or the same key (a repeated key keeps its first
 * position and takes the last value, as PyDict_SetItem and orjson do). When
 * the last member is in, the table is handed to the dict, made by PyDict_New
 * when the Object entry was met (so the dict object, its free list and its
 * GC tracking are CPython's own; and the dict is tracked before its members,
 * as with PyDict_SetItem: the collector's scan of the young objects,
 * move_unreachable, sees a container before what it holds, else it moves
 * each member to the unreachable list and back, measured +4% on
 * citm_catalog).
 *
 * The table is the UNICODE kind (16-byte entries {key, value}, the hash
 * cached in each str), exactly as CPython 3.14's _PyDict_FromItems builds it
 * for the same keys (the size of dict_new_presized, the probe order of
 * insertdict), so that lookups by str key take CPython's fastest path.
 *
 * PyDictKeysObject is private to CPython (Include/internal/pycore_dict.h),
 * so this is limited to the layout mirrored below: CPython 3.14, 64-bit,
 * with the GIL or free-threaded (whose keys object has a PyMutex byte where
 * the GIL build has padding) and without Py_REF_DEBUG (which counts keys
 * objects). It is
 * checked once per process (loads_dict_direct_check, loads_dict_check.c):
 * dicts of every shape are built both ways and must be identical, byte for
 * byte against _PyDict_FromItems and in behaviour against PyDict_SetItem,
 * and release every reference they held. Until the check has passed, and for
 * good if it fails, loads_build uses PyDict_SetItem. It costs about a
 * millisecond, at the first loads of the process.
 * The layout mirror is pyshim/cpython/cpython_dict314.h, which dumps reads dicts
 * through too (dumps_dict_read.h).
 */
#ifndef ISOJSON_LOADS_DICT_H
#define ISOJSON_LOADS_DICT_H

#include <Python.h>

#include "cpython_dict314.h"
#include "cpython_str.h"

#include <stdint.h>
#include <string.h>

/* Where the layout mirror holds (cpython_dict314.h), and not with
 * Py_REF_DEBUG, which counts keys objects as it allocates them. Also on the
 * free-threaded build: a dict loads is building is one no other thread can
 * see yet (it is handed out whole, when the call returns), so it needs no
 * lock; its keys object differs only by the PyMutex byte (kept 0, as
 * new_keys_object leaves it), and the same check runs first. */
#if ISOJSON_DICT_LAYOUT_314 && !defined(Py_REF_DEBUG)
#define LOADS_DICT_DIRECT 1
#else
#define LOADS_DICT_DIRECT 0
#endif

/* The largest dict filled directly: the most members of a table with 2-byte
 * indexes (2^15 slots). Larger dicts are rare and their per-member cost is
 * not dominated by the call; they take PyDict_SetItem. */
#define LOADS_DICT_DIRECT_MAX 21845

#if LOADS_DICT_DIRECT

#pragma GCC visibility push(hidden)

#define LOADS_DICT_LOG2_MINSIZE 3
#define LOADS_DICT_PERTURB_SHIFT 5

/* USABLE_FRACTION of dictobject.c: the most entries a table of `size`
 * slots takes. */
static inline Py_ssize_t loads_dict_usable(size_t size) { return (Py_ssize_t)((size << 1) / 3); }

static inline isojson_dict_entry *loads_dict_entries(isojson_dict_keys *dk)
{
    return (isojson_dict_entry *)(dk->dk_indices + ((size_t)1 << dk->dk_log2_index_bytes));
}

/* Equal text of two str made at their final width (as every str of loads
 * is, and as CPython's unicode_eq compares). */
static inline int loads_str_same(PyObject *a, PyObject *b)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    if (n != PyUnicode_GET_LENGTH(b) || PyUnicode_KIND(a) != PyUnicode_KIND(b))
        return 0;
    return memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * PyUnicode_KIND(a)) == 0;
}

/* A fresh table for n members (1 <= n <= LOADS_DICT_DIRECT_MAX); NULL with
 * MemoryError. */
isojson_dict_keys *loads_dict_keys_new(Py_ssize_t n);

/* The same table with its index slots NOT set: for a dict whose keys a
 * shape may predict, whose index table is then copied whole from the shape
 * (loads_shapes.h), so that setting every slot empty first is wasted (a
 * memset call: ~30 instructions a dict). Before any loads_dict_put or
 * loads_dict_take_keys, the owner calls loads_dict_clear_indices (or
 * loads_dict_index_entries, which does). loads_dict_keys_free reads no
 * index. */
isojson_dict_keys *loads_dict_keys_new_bare(Py_ssize_t n);

/* Every index slot empty (DKIX_EMPTY). */
static inline void loads_dict_clear_indices(isojson_dict_keys *dk)
{
    memset(dk->dk_indices, 0xff, (size_t)1 << dk->dk_log2_index_bytes);
}

/* Frees a table that no dict owns yet, with its members. */
void loads_dict_keys_free(isojson_dict_keys *dk);

/* Hands the full table to d, a dict from PyDict_New that is still empty
 * and that nobody else has seen. Inline: once a dict, a call's overhead
 * counted (citm_catalog's 11,000 small dicts). */
static inline void loads_dict_take_keys(PyObject *d, isojson_dict_keys *dk)
{
    Py_ssize_t used = dk->dk_nentries;
    Py_ssize_t usable = dk->dk_usable;
    /* The entries past the last are zero, as new_keys_object leaves them:
     * stored here rather than by a call to memset (~20 instructions a dict
     * even for 0 bytes; none for 5 members, 4 for 6, at most 21 up to 64). */
    isojson_dict_entry *e = loads_dict_entries(dk);
    for (Py_ssize_t k = used; k < usable; k++)
        e[k] = (isojson_dict_entry){NULL, NULL};
    dk->dk_usable = usable - used;
    /* d, from PyDict_New and not yet seen by any Python code (the garbage
     * collector may have walked it: empty), holds the immortal empty keys
     * object, which needs no release, and no values array; nobody can watch
     * it yet. */
    PyDictObject *mp = (PyDictObject *)d;
#ifdef Py_GIL_DISABLED
    /* Nobody else holds d, but publish the table as CPython publishes a
     * new keys object (a release store), so that the entries written
     * above are seen before the pointer by any reader that could ever
     * meet d (gc.get_objects() in another thread). */
    __atomic_store_n(&mp->ma_keys, (PyDictKeysObject *)dk, __ATOMIC_RELEASE);
#else
    mp->ma_keys = (PyDictKeysObject *)dk;
#endif
    mp->ma_used = used;
}

/* One slot of the index table (1 or 2 bytes wide: at most 2^15 slots). */
static inline Py_ssize_t loads_dict_index(const isojson_dict_keys *dk, size_t i)
{
    if (dk->dk_log2_size < 8)
        return ((const int8_t *)dk->dk_indices)[i];
    return ((const int16_t *)dk->dk_indices)[i];
}

static inline void loads_dict_set_index(isojson_dict_keys *dk, size_t i, Py_ssize_t ix)
{
    if (dk->dk_log2_size < 8)
        ((int8_t *)dk->dk_indices)[i] = (int8_t)ix;
    else
        ((int16_t *)dk->dk_indices)[i] = (int16_t)ix;
}

/* The entry count of a table (the members stored so far, deleted ones
 * included: none here), and its setting by the owner of a table filled
 * through a shape (loads_dict_store_at keeps no count). */
static inline Py_ssize_t loads_dict_count(const isojson_dict_keys *dk) { return dk->dk_nentries; }
static inline void loads_dict_set_count(isojson_dict_keys *dk, Py_ssize_t n) { dk->dk_nentries = n; }

/* Whether the table's entries are {key, value} (str keys only). */
static inline int loads_dict_is_unicode(const isojson_dict_keys *dk)
{
    return dk->dk_kind == ISOJSON_DICT_KEYS_UNICODE;
}

/* The index table: its size in bytes and its bytes (a shape records them). */
static inline size_t loads_dict_index_bytes(const isojson_dict_keys *dk)
{
    return (size_t)1 << dk->dk_log2_index_bytes;
}
static inline const char *loads_dict_indices(const isojson_dict_keys *dk) { return dk->dk_indices; }

/* Shape-built dicts: stores the member at its position pos (the table's
 * next entry), taking both references, without keeping the table's
 * dk_nentries: the owner sets it once the shape is done with (all matched,
 * a miss, a failure), from its own count: one load and store a member
 * fewer. */
static inline void loads_dict_store_at(void *entries, Py_ssize_t pos, PyObject *key, PyObject *value)
{
    ((isojson_dict_entry *)entries)[pos] = (isojson_dict_entry){key, value};
}

/* All of a shape's members are in dk: the index table is the shape's,
 * index_bytes bytes at indices (loads_dict_index_bytes of the table it
 * was recorded from, loads_shapes.h). */
static inline void loads_dict_take_indices(isojson_dict_keys *dk, const char *indices, uint32_t index_bytes)
{
    /* The smallest table (up to 5 members, most records) has 8 index
     * bytes: one word, not a call to memcpy. */
    if (index_bytes == 8)
        memcpy(dk->dk_indices, indices, 8);
    else
        memcpy(dk->dk_indices, indices, index_bytes);
}

/* A shape-built dict met a key the shape did not predict (loads_shapes.h): the table (its
 * index slots set or not) takes the indexes of its entries so far (distinct keys, in order,
 * as insertdict placed them), so that loads_dict_put can go on. */
void loads_dict_index_entries(isojson_dict_keys *dk);

/* Adds a member, taking both references (released on failure too): a key
 * already present keeps its entry and takes the new value. 0, or -1 with an
 * exception (a key whose hash fails: never for a str). The table has room:
 * it was made for the dict's member count, and a member never adds more
 * than one entry. The probe sequence is insertdict's, so the table is the
 * one CPython would build. */
static inline int loads_dict_put(isojson_dict_keys *dk, PyObject *key, PyObject *value)
{
    Py_hash_t hash = isojson_str_hash(key);
    if (__builtin_expect(hash == -1, 0)) {
        hash = PyObject_Hash(key);
        if (hash == -1) {
            Py_DECREF(key);
            Py_DECREF(value);
            return -1;
        }
    }
    isojson_dict_entry *entries = loads_dict_entries(dk);
    size_t mask = ((size_t)1 << dk->dk_log2_size) - 1;
    size_t i = (size_t)hash & mask, perturb = (size_t)hash;
    for (;;) {
        Py_ssize_t ix = loads_dict_index(dk, i);
        if (ix < 0)
            break;
        PyObject *k = entries[ix].key;
        if (k == key || (isojson_str_hash(k) == hash && loads_str_same(k, key))) {
            PyObject *old = entries[ix].value;
            entries[ix].value = value;
            Py_DECREF(old);
            Py_DECREF(key);
            return 0;
        }
        perturb >>= LOADS_DICT_PERTURB_SHIFT;
        i = mask & (i * 5 + perturb + 1);
    }
    Py_ssize_t at = dk->dk_nentries;
    loads_dict_set_index(dk, i, at);
    entries[at].key = key;
    entries[at].value = value;
    dk->dk_nentries = at + 1;
    return 0;
}

#pragma GCC visibility pop

#endif /* LOADS_DICT_DIRECT */

/* Runs the one-time check (with the GIL held); returns 1 when dicts may be
 * filled directly in this process. ISOJSON_DICT_DIRECT=0 in the environment
 * turns the direct filling off; ISOJSON_DICT_SELFCHECK_BREAK=1 makes the
 * check see a wrongly built dict (a test of the check and of the fallback). */
int loads_dict_direct_check(void);

#endif
