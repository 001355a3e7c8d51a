/* The one mirror of CPython 3.14's private dict-keys layout
 * (struct _dictkeysobject and the entry types of
 * Include/internal/pycore_dict.h), shared by dumps, which reads dict tables
 * directly (dumps_dict_read.h), and loads, which fills them directly
 * (loads_dict.h). Each side checks the layout once per process against
 * CPython's own functions before it relies on it, and falls back to the
 * public API for good if the check fails.
 *
 * ISOJSON_DICT_LAYOUT_314 is 1 only where the mirror is the real layout:
 * CPython 3.14, 64-bit (the free-threaded build adds a mutex byte to the
 * keys object, in the GIL build's padding).
 */
#ifndef ISOJSON_CPYTHON_DICT314_H
#define ISOJSON_CPYTHON_DICT314_H

#include <Python.h>
#include <stdint.h>

#if PY_VERSION_HEX >= 0x030E0000 && PY_VERSION_HEX < 0x030F0000 && SIZEOF_VOID_P == 8
/* The free-threaded build's keys object differs by one byte, a PyMutex where
 * the GIL build has padding (below): the mirror holds for both. There dumps
 * reads tables only inside the dict's critical section (dumps/dumps_ft.c),
 * and loads fills only the tables of dicts no other thread can see yet. */
#define ISOJSON_DICT_LAYOUT_314 1
#else
#define ISOJSON_DICT_LAYOUT_314 0
#endif

#if ISOJSON_DICT_LAYOUT_314

/* struct _dictkeysobject of CPython 3.14 (with or without Py_GIL_DISABLED). */
typedef struct isojson_dict_keys {
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size;
    uint8_t dk_log2_index_bytes;
    uint8_t dk_kind;
#ifdef Py_GIL_DISABLED
    uint8_t dk_mutex; /* PyMutex: protects shared keys */
#endif
    uint32_t dk_version;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    char dk_indices[];
} isojson_dict_keys;

/* dk_kind: PyDictKeyEntry {me_hash, me_key, me_value} entries, or
 * PyDictUnicodeEntry {me_key, me_value} (str keys only), or shared keys of a
 * split table (an instance's __dict__, always with ma_values set). */
#define ISOJSON_DICT_KEYS_GENERAL 0
#define ISOJSON_DICT_KEYS_UNICODE 1

/* PyDictUnicodeEntry. */
typedef struct isojson_dict_entry {
    PyObject *key;
    PyObject *value;
} isojson_dict_entry;

#endif /* ISOJSON_DICT_LAYOUT_314 */

#endif
