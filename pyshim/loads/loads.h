/* Internals of loads(), shared by pyshim/loads*.c only.
 *
 *   loads.c          the entry point: input types, one engine call, errors
 *   loads_scratch.c  per-thread reusable tape and build stack (plain C memory)
 *   loads_build.c    tape → Python objects, iteratively (no C recursion)
 *   loads_str.c      UTF-8 → str at its final width, in one pass
 *   loads_keys.c     the per-interpreter cache of short dict keys
 *   loads_ints.c     repeated ints within one call share one object (loads_ints.h)
 *   loads_shapes.c   the per-interpreter table of dict shapes (the keys of
 *                    repeated records, predicted: loads_shapes.h)
 *   loads_bytes.h    inline compare, copy and hash of short byte strings
 *   loads_dict.c     dicts whose hash table is filled directly (loads_dict.h)
 *   loads_dict_check.c  the once-per-process check of those dicts against
 *                    CPython's own (PyDict_SetItem from then on if it fails)
 */
#ifndef ISOJSON_LOADS_H
#define ISOJSON_LOADS_H

#include "isojson.h"
#include "loads_bytes.h"
#include "loads_ints.h"
#include "cpython/cpython_str.h"

/* One open container while building: its object, the table a dict fills
 * before it takes it (loads_dict.h; NULL otherwise) and the shape that
 * predicts its keys (a list's: the shape of its last dict, which predicts
 * the next; loads_shapes.h), how many children it
 * has and how many are in, and the key waiting for its value (objects). */
typedef struct isojson_frame {
    PyObject *obj;
    void *table;
    void *entries;  /* the table's entries: while a shape fills them, in order, the
                       table's dk_nentries is not kept up to date (pos are in) */
    void *shape;    /* a reference to a shape (loads_shapes.h), or NULL */
    Py_ssize_t pos, n;
    PyObject *key;
} isojson_frame;

/* The memory one loads() call works in. A thread keeps one between calls so
 * that the common case allocates nothing but the Python objects. */
typedef struct isojson_scratch {
    isojson_tape tape;
    isojson_frame *frames;
    size_t nframes;
    isojson_int_cache ints;   /* empty between calls */
    int busy;      /* in use by a call on this thread (re-entry gets its own) */
    int cached;    /* the thread's cached scratch, not a one-off */
} isojson_scratch;

isojson_scratch *isojson_scratch_acquire(void);
void isojson_scratch_release(isojson_scratch *s);
/* Makes room for at least n frames; -1 with MemoryError set on failure. */
int isojson_scratch_frames(isojson_scratch *s, size_t n);

/* The str of a non-ASCII string: `chars` code points of class cls from valid
 * UTF-8 s[0:n) (loads_str.c). */
PyObject *isojson_str_from_utf8_wide(const uint8_t *s, size_t n, size_t chars, int cls);

/* A str of `chars` code points of class cls from valid UTF-8 s[0:n). ASCII,
 * most strings, inline: a call cost 1.3% of loads(github) (callgrind); a
 * 1-char str is CPython's cached one, as its own decoder gives. Always:
 * with three uses in isojson_build GCC made it a call again (github: 7k
 * instructions a loads more). */
static inline __attribute__((always_inline)) PyObject *isojson_str_from_utf8(const uint8_t *s, size_t n, size_t chars, int cls)
{
    if (cls != ISOJSON_ASCII)
        return isojson_str_from_utf8_wide(s, n, chars, cls);
    if (n == 1)
        return PyUnicode_FromOrdinal(s[0]);
    PyObject *u = PyUnicode_New((Py_ssize_t)n, 0x7f);
    if (u != NULL)
        isojson_bytes_copy(ISOJSON_ASCII_DATA(u), s, n);
    return u;
}

/* The longest key the key cache keeps, in bytes. */
#define ISOJSON_KEY_CACHE_MAX 64

/* Per-interpreter key cache (isojson_state.key_cache); init and clear set
 * up and tear down the table of dict shapes too (loads_shapes.h). */
int isojson_keys_init(isojson_state *st);
void isojson_keys_clear(isojson_state *st);
/* A new reference to the str for key s[0:n) of class cls. */
PyObject *isojson_key(isojson_state *st, const uint8_t *s, size_t n, size_t chars, int cls);

/* Builds the Python value of the tape of input[0:input_len); NULL with an
 * exception on failure. */
PyObject *isojson_build(isojson_state *st, isojson_scratch *s, const uint8_t *input, size_t input_len);

#endif
