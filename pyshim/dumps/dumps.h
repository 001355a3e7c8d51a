/* What every dumps file needs: the per-call context, the tape appenders, the
 * references the tape needs kept, the errors, and one serializer per Python
 * type.
 *
 * The pipeline: dumps.c checks the arguments; the walk (dumps_dispatch.c)
 * sends each object to the serializer of its type, and each dumps_<type>.c
 * appends the tape entries of one Python type (backend/tape.go is the
 * format); one engine call writes the tape as JSON (dumps_write.c); dumps.c
 * returns the bytes. Strings are not copied: a String entry points into the
 * str object's own storage, so every object the tape points into must stay
 * alive until the write returns (see "references" below).
 *
 * The room, pyshim/dumps/ (a header is included only by the files named):
 *
 *   dumps.h             this (every file)
 *   dumps.c             dumps(): arguments, the call, the per-interpreter state
 *   dumps_state.h       that state, embedded in isojson_state (isojson.h)
 *   dumps_ctx.h/.c      the per-thread buffers and the context's memory:
 *                       tape growth, references, scratch arena, pinning
 *   dumps_dispatch.h/.c the walk: dispatch by exact type, inline
 *                       (dumps_dispatch.c, dumps_list.c, dumps_sort.c)
 *   dumps_cursor.h      the list and dict loops' cursor and leaves
 *                       (dumps_list.c, dumps_dict.c)
 *   dumps_keycache.h    the cache of dict key entries, dumps_key (the files
 *                       that write dict keys)
 *   dumps_str.c         str → String, in place
 *   dumps_scan.h, dumps_scan_sse2.c, dumps_scan_other.c
 *                       the scan of str data for escapes and surrogates
 *   dumps_int.c         int → Int, Uint or BigInt
 *   dumps_float.c       float → Float
 *   dumps_list.c        list and tuple → Array
 *   dumps_dict.c        dict → Object, in the dict's order
 *   dumps_sort.c        dict → Object with keys converted first, sorted
 *                       (OPT_SORT_KEYS, OPT_NON_STR_KEYS)
 *   dumps_key.c         non-str dict keys (OPT_NON_STR_KEYS)
 *   dumps_fragment.c    Fragment → Raw
 *   dumps_types.h/.c    the types without an exact-type fast path, in
 *                       orjson's order, found in sys.modules:
 *   dumps_datetime.c      datetime, date, time
 *   dumps_uuid.c          uuid.UUID
 *   dumps_enum.c          Enum members
 *   dumps_dataclass.c     dataclasses
 *   dumps_numpy.c         numpy arrays and scalars (OPT_SERIALIZE_NUMPY)
 *   dumps_float32.h, dumps_float32.c, dumps_ryu32.c
 *                         float32 and float16 text, shortest round trip
 *   dumps_default.c     default=
 *   dumps_write.h/.c    the tape written as JSON into the bytes returned
 *   dumps_small.h/.c    a small tape of nulls, bools, ints, UTF-8 strings
 *                       and containers written in C, with no engine call
 *   dumps_escapes.h     its escape table, generated from the Go writer's
 *                       (writer/cheader_test.go checks it)
 *   dumps_ft.h/.c       free-threaded CPython: the locked walk (each list and
 *                       dict try-locked and held), and the snapshot walk
 *                       (each read as one snapshot in its critical section)
 *
 * The direct read of dict tables and its self-check, the str and int header
 * reads use CPython's private layouts: they are in ../cpython/
 * (dumps_dict_read.h, dumps_dict_check.c, cpython_str.h, cpython_long.h).
 */
#ifndef ISOJSON_DUMPS_H
#define ISOJSON_DUMPS_H

#include "isojson.h"

#include <stdint.h>
#include <string.h>

/* Everything declared from here on is internal to the extension: hidden
 * symbols are called directly, not through the PLT. */
#pragma GCC visibility push(hidden)

/* orjson's limits. Containers are counted from 1 at the root, tuples
 * included; a list, dict (or other container) at exactly level 255 raises
 * "Recursion limit reached". orjson 3.13 compares for equality and never
 * checks tuples, so nesting continues below a tuple at level 255 (and orjson
 * crashes on deep enough such nesting); isojson follows it up to a hard cap on
 * all nesting, DUMPS_MAX_NESTING, which bounds its recursion. 255 nested
 * default= calls are made; the 256th raises "default serializer exceeds
 * recursion limit". */
#define DUMPS_MAX_DEPTH 254
#define DUMPS_MAX_NESTING 1024
#define DUMPS_MAX_DEFAULT_CALLS 255

/* How often dumps_enter asks CPython whether the C stack nears its end: every
 * 8 levels from level 64 in an optimized build, where 8 of the walk's frames
 * fit in CPython's margin; every level from the first under AddressSanitizer
 * (redzones make each frame several times larger) or at -O0. A build can set
 * it (-DISOJSON_STACK_CHECK_EVERY=N). */
#ifndef ISOJSON_STACK_CHECK_EVERY
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
#define ISOJSON_STACK_CHECK_EVERY 1
#else
#define ISOJSON_STACK_CHECK_EVERY 8
#endif
#endif
#define DUMPS_STACK_CHECK_FROM (ISOJSON_STACK_CHECK_EVERY == 1 ? 0 : 64)

/* orjson's option bits are ISOJSON_OPT_* (engine/isojson_engine.h). */

/* A list of PyObject pointers in C memory (no Python allocation). */
typedef struct dumps_objlist {
    PyObject **items;
    size_t len, cap;
} dumps_objlist;

/* The scratch arena: text that dumps formats itself (datetimes, UUIDs,
 * non-str keys, numpy float32 and datetime64 values) lives in chunks that are
 * never reallocated, because tape entries point into them. */
typedef struct dumps_chunk {
    struct dumps_chunk *next;
    size_t len, cap;
    uint8_t data[];
} dumps_chunk;

/* The key cache of dict keys (dumps_keycache.h). */
typedef struct dumps_keycache dumps_keycache;

typedef struct dumps_ctx {
    isojson_tape tape;
    uint32_t opts;
    int depth;          /* containers open on the current path (orjson's recursion count) */
    int default_calls;  /* default= calls open on the current path */
    int enum_values;    /* Enum members whose value is being serialized on the current path */
    PyObject *default_fn;  /* borrowed; NULL when not given */
    isojson_dumps_state *st;

    /* References. Objects the tape points into are recorded in `borrowed`
     * without a reference (a store, no refcount traffic) while no Python code
     * can run. Before any call that may run Python code (default=, getattr,
     * utcoffset...), dumps_pin() takes a reference to each of them and to each
     * container on the current path, moving them to `owned`; objects that
     * dumps creates (default='s results, formatted ints) go to `owned`
     * directly. Everything in `owned` is released after the write. */
    dumps_objlist borrowed;
    dumps_objlist owned;
    PyObject *path[DUMPS_MAX_NESTING + 2];
    int path_pinned;    /* path[0:path_pinned) is in `owned` */

    dumps_chunk *scratch;  /* current chunk (head of the list) */

    dumps_keycache *keys;  /* the key cache (dumps_keycache.h) */

    /* The text of the tape's String entries made by dumps_str and
     * dumps_str_inline, in bytes of UTF-8 (2, 3, 4 a character for UCS1, 2
     * and 4 data, a bound), before escaping. Strings written inline by the
     * list and dict loops (ASCII up to DUMPS_CURSOR_TEXT_MAX bytes) and cached
     * keys are not counted. It lets a short tape with a lot of text be
     * written straight into the bytes object, at its exact size when that is
     * clean text (dumps_write.h). */
    size_t text;

#ifdef Py_GIL_DISABLED
    /* The free-threaded build's locked walk (dumps_ft.h). ft_locked: 1 while
     * it runs (0 for the snapshot walk, and once the tape is whole); locks:
     * the lists and dicts it holds locked, until the write or the pin
     * before it releases them (dumps_ft_unlock_all). ft_abort: it met what
     * it must not do locked, and the call is redone with snapshots. */
    int ft_locked;
    int ft_abort;
    dumps_objlist locks;
#endif
} dumps_ctx;

/* The longest ASCII str that the list and dict loops write inline; a longer
 * one goes through dumps_str, which counts it in dumps_ctx.text. */
#define DUMPS_CURSOR_TEXT_MAX 1024

/* ---- big-endian loads (the sort's key prefixes, UUID bytes) ---- */

static inline uint64_t dumps_load_be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return v;
#else
    return __builtin_bswap64(v);
#endif
}

static inline uint64_t dumps_load_be32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return v;
#else
    return __builtin_bswap32(v);
#endif
}

/* ---- tape appenders ---- */

int dumps_grow_words(dumps_ctx *c, size_t need);

static inline int dumps_reserve(dumps_ctx *c, size_t n)
{
    if (c->tape.cap - c->tape.len >= n)
        return 0;
    return dumps_grow_words(c, c->tape.len + n);
}

static inline uint64_t dumps_kind(enum isojson_kind k) { return (uint64_t)k << ISOJSON_KIND_SHIFT; }

static inline int dumps_scalar(dumps_ctx *c, enum isojson_kind k)
{
    if (dumps_reserve(c, 1) < 0)
        return -1;
    c->tape.words[c->tape.len++] = dumps_kind(k);
    return 0;
}

static inline int dumps_number(dumps_ctx *c, enum isojson_kind k, uint64_t bits)
{
    if (dumps_reserve(c, 2) < 0)
        return -1;
    uint64_t *w = c->tape.words + c->tape.len;
    w[0] = dumps_kind(k);
    w[1] = bits;
    c->tape.len += 2;
    return 0;
}

/* A ref entry pointing at external memory; clean says the text needs no
 * escaping (ISOJSON_CLEAN_BIT). */
static inline int dumps_ref_clean(dumps_ctx *c, enum isojson_kind k, enum isojson_class cls,
                                  enum isojson_width width, const void *data, size_t len, size_t chars, int clean)
{
    if (dumps_reserve(c, 3) < 0)
        return -1;
    uint64_t *w = c->tape.words + c->tape.len;
    w[0] = dumps_kind(k) | (clean ? ISOJSON_CLEAN_BIT : 0) | (uint64_t)ISOJSON_EXTERNAL << ISOJSON_STORAGE_SHIFT |
           (uint64_t)cls << ISOJSON_CLASS_SHIFT | (uint64_t)width << ISOJSON_WIDTH_SHIFT |
           ((uint64_t)len & ISOJSON_LEN_MASK);
    w[1] = (uint64_t)(uintptr_t)data;
    w[2] = chars;
    c->tape.len += 3;
    return 0;
}

static inline int dumps_ref(dumps_ctx *c, enum isojson_kind k, enum isojson_class cls, enum isojson_width width,
                            const void *data, size_t len, size_t chars)
{
    return dumps_ref_clean(c, k, cls, width, data, len, chars, 0);
}

/* Opens an Array or Object; returns its index. */
static inline int dumps_open(dumps_ctx *c, enum isojson_kind k, size_t *at)
{
    if (dumps_reserve(c, 2) < 0)
        return -1;
    *at = c->tape.len;
    c->tape.words[c->tape.len] = dumps_kind(k);
    c->tape.words[c->tape.len + 1] = 0;
    c->tape.len += 2;
    return 0;
}

static inline void dumps_close(dumps_ctx *c, size_t at, size_t count)
{
    c->tape.words[at] = (c->tape.words[at] & ~ISOJSON_PAYLOAD_MASK) | (uint64_t)count;
    c->tape.words[at + 1] = c->tape.len;
}

/* ---- references ---- */

int dumps_objlist_grow(dumps_objlist *l);

/* Records an object the tape points into (no reference taken). */
static inline int dumps_keep_borrowed(dumps_ctx *c, PyObject *o)
{
    if (c->borrowed.len == c->borrowed.cap && dumps_objlist_grow(&c->borrowed) < 0)
        return -1;
    c->borrowed.items[c->borrowed.len++] = o;
    return 0;
}

/* Hands a new reference to the context, released after the write. On
 * failure the reference is released and -1 returned with MemoryError. */
int dumps_keep_owned(dumps_ctx *c, PyObject *o);

/* Takes references to everything recorded as borrowed and to the containers
 * on the current path: call it before any call that may run Python code. */
int dumps_pin(dumps_ctx *c);

/* Container path bookkeeping (depth limit and pinning). checked is 0 for
 * tuples, which orjson never checks against its limit. */
static inline int dumps_enter(dumps_ctx *c, PyObject *container, int checked)
{
    if ((checked && c->depth == DUMPS_MAX_DEPTH) || c->depth >= DUMPS_MAX_NESTING)
        goto limit;
    /* Deep nesting (tuples may go to 1024 levels) must not overflow a small
     * thread stack: CPython compares the stack pointer with the thread's
     * limit. */
    if (c->depth >= DUMPS_STACK_CHECK_FROM && c->depth % ISOJSON_STACK_CHECK_EVERY == 0) {
        if (Py_EnterRecursiveCall(" while serializing JSON")) {
            PyErr_Clear();
            goto limit;
        }
        Py_LeaveRecursiveCall();
    }
    c->path[c->depth++] = container;
    return 0;
limit:
    PyErr_SetString(PyExc_TypeError, "Recursion limit reached");
    return -1;
}

static inline void dumps_leave(dumps_ctx *c)
{
    c->depth--;
    if (c->path_pinned > c->depth)
        c->path_pinned = c->depth;
}

/* ---- scratch arena ---- */

/* Returns n bytes of scratch memory that stays put until the call ends. */
uint8_t *dumps_scratch(dumps_ctx *c, size_t n);

/* ---- errors ---- */

/* Raises JSONEncodeError (TypeError, as orjson) with a fixed message. */
static inline int dumps_error(const char *msg)
{
    PyErr_SetString(PyExc_TypeError, msg);
    return -1;
}

/* "Type is not JSON serializable: <tp_name>" */
int dumps_error_type(PyObject *obj);

/* ---- serializers, one per type; each appends one value ---- */

int dumps_value(dumps_ctx *c, PyObject *obj);
/* The out-of-line part of dumps_value: an object of none of the exact
 * types dumps_value_inline writes itself (str, int, float, None, bool,
 * dict, list): tuple, Fragment, then dumps_typed_value (dumps_dispatch.c). */
int dumps_value_slow(dumps_ctx *c, PyObject *obj);
int dumps_str(dumps_ctx *c, PyObject *obj);
int dumps_int(dumps_ctx *c, PyObject *obj);
int dumps_float(dumps_ctx *c, PyObject *obj);
int dumps_list(dumps_ctx *c, PyObject *obj);
int dumps_tuple(dumps_ctx *c, PyObject *obj);
int dumps_dict(dumps_ctx *c, PyObject *obj);
/* A dict whose keys are all converted before any value (OPT_SORT_KEYS,
 * OPT_NON_STR_KEYS), sorted when sort is set (dumps_sort.c). */
int dumps_dict_collected(dumps_ctx *c, PyObject *obj, int sort);
/* A dict key that is not an exact str, under OPT_NON_STR_KEYS (dumps_key.c). */
int dumps_nonstr_key(dumps_ctx *c, PyObject *key);
int dumps_fragment(dumps_ctx *c, PyObject *obj);
/* A value of a type without an exact-type fast path, tried in orjson's
 * order (dumps_types.c): datetime, UUID, Enum, subclasses of the builtins,
 * dataclass, numpy; then default=, or "Type is not JSON serializable". */
int dumps_typed_value(dumps_ctx *c, PyObject *obj);
int dumps_default(dumps_ctx *c, PyObject *obj);

#pragma GCC visibility pop

#endif
