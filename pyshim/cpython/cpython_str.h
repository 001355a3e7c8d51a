/* The str header fields that dumps and loads read or write past the public
 * accessors (the layout of PyASCIIObject and PyCompactUnicodeObject in
 * CPython's cpython/unicodeobject.h, an implementation detail): the
 * character data of a compact str without the checks of PyUnicode_DATA, the
 * hash a str caches, and the UTF-8 copy a str may cache.
 */
#ifndef ISOJSON_CPYTHON_STR_H
#define ISOJSON_CPYTHON_STR_H

#include <Python.h>

/* The character data of a str made by PyUnicode_New (always compact):
 * without the checks of PyUnicode_DATA, which handles every layout. */
#define ISOJSON_ASCII_DATA(u) ((Py_UCS1 *)(((PyASCIIObject *)(u)) + 1))
#define ISOJSON_COMPACT_DATA(u) ((void *)(((PyCompactUnicodeObject *)(u)) + 1))

/* The hash a str caches (-1: not computed yet). */
#ifdef Py_GIL_DISABLED
/* Another thread may store the hash meanwhile (CPython does so with a relaxed atomic store). */
static inline Py_hash_t isojson_str_hash(PyObject *s)
{
    return __atomic_load_n(&((PyASCIIObject *)s)->hash, __ATOMIC_RELAXED);
}
#else
static inline Py_hash_t isojson_str_hash(PyObject *s) { return ((PyASCIIObject *)s)->hash; }
#endif

/* The UTF-8 form CPython has cached on a non-ASCII compact str (NULL when it
 * has none: reading it never makes one, unlike PyUnicode_AsUTF8), its length
 * in *len. */
static inline const char *isojson_str_cached_utf8(PyObject *o, size_t *len)
{
    const PyCompactUnicodeObject *cu = (const PyCompactUnicodeObject *)o;
#ifdef Py_GIL_DISABLED
    /* Another thread may be making the UTF-8 copy right now: CPython stores
     * utf8_length, then publishes utf8 with a release store, so utf8 is read
     * first with acquire, and its length after it. */
    const char *utf8 = __atomic_load_n(&cu->utf8, __ATOMIC_ACQUIRE);
    *len = utf8 != NULL ? (size_t)cu->utf8_length : 0;
    return utf8;
#else
    *len = (size_t)cu->utf8_length;
    return cu->utf8;
#endif
}

#endif
