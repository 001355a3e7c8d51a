/* Internals of loads(), shared by the files of pyshim/loads/ only. The room:
 *
 *   loads.h            this: the scratch memory, str creation, the key cache
 *   loads.c            the entry point: input types, the tiny path or one
 *                      engine call, errors
 *   loads_scratch.c    per-thread reusable tape and build stack (plain C memory)
 *   loads_build.c      tape → Python objects, iteratively (no C recursion)
 *   loads_tape.c       the two halves of loads as test hooks (_tape, _build_tape),
 *                      and the tiny path's tape (_tiny_tape)
 *   loads_str.c        UTF-8 → str at its final width, in one pass
 *   loads_utf8_simd.h/.c  the SSSE3 kernel of that decoding (x86)
 *   loads_keys.c       the per-interpreter cache of short dict keys, and the
 *                      loads side's state (isojson_loads_state_init/clear)
 *   loads_ints.h/.c    repeated ints within one call share one object
 *   loads_shapes.h/.c  the per-interpreter table of dict shapes (the keys of
 *                      repeated records, predicted)
 *   loads_caches_ft.c  the free-threaded build's: both per thread state
 *   loads_bytes.h      inline compare, copy and hash of short byte strings
 *   loads_tiny.h       the tiny path: documents of at most 64 bytes parsed
 *                      in C into the engine's tape, no Go call (gated by
 *                      conformance/ctiny, which compiles this same file)
 *
 * Dicts whose hash table loads fills directly, and the once-per-process check
 * of those dicts against CPython's own, use CPython's private layout: they
 * are in ../cpython/ (loads_dict.h, loads_dict.c, loads_dict_check.c).
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
typedef struct loads_frame {
    PyObject *obj;
    void *table;
    void *entries;  /* the table's entries: while a shape fills them, in order, the
                       table's dk_nentries is not kept up to date (pos are in) */
    void *shape;    /* a reference to a shape (loads_shapes.h), or NULL */
    Py_ssize_t pos, n;
    PyObject *key;
} loads_frame;

/* The memory one loads() call works in. A thread keeps one between calls so
 * that the common case allocates nothing but the Python objects. */
typedef struct loads_scratch {
    isojson_tape tape;
    loads_frame *frames;
    size_t nframes;
    loads_int_cache ints;   /* empty between calls */
    int busy;      /* in use by a call on this thread (re-entry gets its own) */
    int cached;    /* the thread's cached scratch, not a one-off */
} loads_scratch;

loads_scratch *loads_scratch_acquire(void);
void loads_scratch_release(loads_scratch *s);
/* Makes room for at least n frames; -1 with MemoryError set on failure. */
int loads_scratch_frames(loads_scratch *s, size_t n);

/* The str of a non-ASCII string: `chars` code points of class cls from valid
 * UTF-8 s[0:n) (loads_str.c). */
PyObject *loads_str_from_utf8_wide(const uint8_t *s, size_t n, size_t chars, int cls);

/* A str of `chars` code points of class cls from valid UTF-8 s[0:n). ASCII,
 * most strings, inline: a call cost 1.3% of loads(github) (callgrind); a
 * 1-char str is CPython's cached one, as its own decoder gives. Always:
 * with three uses in loads_build GCC made it a call again (github: 7k
 * instructions a loads more). */
static inline __attribute__((always_inline)) PyObject *loads_str_from_utf8(const uint8_t *s, size_t n, size_t chars, int cls)
{
    if (cls != ISOJSON_ASCII)
        return loads_str_from_utf8_wide(s, n, chars, cls);
    if (n == 1)
        return PyUnicode_FromOrdinal(s[0]);
    PyObject *u = PyUnicode_New((Py_ssize_t)n, 0x7f);
    if (u != NULL)
        loads_bytes_copy(ISOJSON_ASCII_DATA(u), s, n);
    return u;
}

/* The longest key the key cache keeps, in bytes. */
#define LOADS_KEY_CACHE_MAX 64

/* The per-interpreter key cache (isojson_state.key_cache) is set up and torn
 * down with the table of dict shapes by isojson_loads_state_init and
 * isojson_loads_state_clear (isojson.h, loads_keys.c). */
/* The caches one loads call uses: the key cache (loads_keys.c) and the table
 * of dict shapes (loads_shapes.c; NULL where dicts are not filled
 * directly). With the GIL they are the interpreter's (module state); on the
 * free-threaded build this thread state's (loads_caches_ft.c), found once
 * per call and handed down, not looked up again per key, and not at all for
 * a document that is a scalar or an empty container (loads(b"[]")). */
struct key_set;
struct shape_table;
typedef struct loads_caches {
    struct key_set *keys;
    struct shape_table *shapes;
} loads_caches;

#ifdef Py_GIL_DISABLED
/* This thread state's caches, made at its first loads (loads_caches_ft.c). */
void loads_caches_of_thread(loads_caches *lc);
/* Called by the destructor of either table: the kept copy is stale. */
void loads_caches_forget(void);
/* The table in this thread state's dict under name, made by make (freed
 * by drop when it cannot be stored) at the first call; NULL, with no
 * exception set, when it cannot be had. */
void *loads_thread_table(const char *name, void *(*make)(void), void (*drop)(void *),
                         PyCapsule_Destructor destructor);
/* The key cache's table for loads_caches_of_thread (loads_keys.c). */
struct key_set *loads_keys_of_thread(void);
/* The table of shapes for it (loads_shapes.c; NULL where dicts are not
 * filled directly). */
struct shape_table *loads_shapes_of_thread(void);
#endif

/* Fills lc with the caches of a call whose tape starts with the entry
 * word root (either may be NULL: none this call). */
static inline void loads_caches_begin(isojson_state *st, loads_caches *lc, uint64_t root)
{
#ifdef Py_GIL_DISABLED
    (void)st;
    unsigned kind = (unsigned)(root >> ISOJSON_KIND_SHIFT);
    if ((kind == ISOJSON_ARRAY || kind == ISOJSON_OBJECT) && (root & ISOJSON_PAYLOAD_MASK) != 0) {
        loads_caches_of_thread(lc);
    } else {
        lc->keys = NULL;
        lc->shapes = NULL;
    }
#else
    (void)root;
    lc->keys = st->key_cache;
    lc->shapes = st->shape_cache;
#endif
}

/* A new reference to the str for key s[0:n) of class cls. */
PyObject *loads_key(const loads_caches *lc, const uint8_t *s, size_t n, size_t chars, int cls);

/* The tiny path's tape of src[0:n) into s->tape (loads.c, loads_tiny.h): 1,
 * or 0 when it gives up (the engine's, then). */
int loads_tiny_tape(loads_scratch *s, const uint8_t *src, size_t n);

/* Builds the Python value of the tape of input[0:input_len); NULL with an
 * exception on failure. */
PyObject *loads_build(isojson_state *st, loads_scratch *s, const uint8_t *input, size_t input_len);

#endif
