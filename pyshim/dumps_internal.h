/* What the dumps files share: the per-call context, the tape appenders and
 * one serializer per Python type.
 *
 * The pipeline: dumps.c checks the arguments and walks the object graph; each
 * dumps_<type>.c appends the tape entries of one Python type (backend/tape.go
 * is the format); one engine call writes the tape as JSON; dumps.c returns the
 * bytes. Strings are not copied: a String entry points into the str object's
 * own storage, so every object the tape points into must stay alive until the
 * write returns (see "references" below).
 */
#ifndef ISOJSON_DUMPS_INTERNAL_H
#define ISOJSON_DUMPS_INTERNAL_H

#include "isojson.h"
#include "dumps_scan.h"
#include "cpython_dict314.h"

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

/* orjson's option bits (api/options.go). */
#define OPT_INDENT_2 (1u << 0)
#define OPT_NAIVE_UTC (1u << 1)
#define OPT_NON_STR_KEYS (1u << 2)
#define OPT_OMIT_MICROSECONDS (1u << 3)
#define OPT_SERIALIZE_NUMPY (1u << 4)
#define OPT_SORT_KEYS (1u << 5)
#define OPT_STRICT_INTEGER (1u << 6)
#define OPT_UTC_Z (1u << 7)
#define OPT_PASSTHROUGH_SUBCLASS (1u << 8)
#define OPT_PASSTHROUGH_DATETIME (1u << 9)
#define OPT_APPEND_NEWLINE (1u << 10)
#define OPT_PASSTHROUGH_DATACLASS (1u << 11)
#define OPT_MAX 4095u

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

/* The key cache: dict keys repeat (twitter.json has 13345 keys, 94 distinct
 * str objects, since loads shares them), so the three tape words of each key
 * str are remembered by object address for the rest of the call and a
 * repeated key is copied without touching the str or scanning it again. An
 * address stays valid: the first occurrence is recorded in `borrowed`, so
 * the str lives until the write (pinned before any Python code runs), and no
 * other object can take its address meanwhile. The slots a call fills are
 * emptied when it ends (dumps_buffers_give), so a slot holding key is a hit
 * with no further test. Two ways per set (the newer first), sets chosen by a
 * multiplicative hash of the address: with direct mapping, two keys of one
 * dict that collide miss on every dict (a simulation on the corpus's key
 * sequences: twitter 13345 lookups, 105 distinct keys, 449-796 misses with
 * 1024 direct-mapped slots, 105 with 512 sets of 2). A miss redoes the work. */
#define DUMPS_KEYSET_BITS 9
#define DUMPS_KEYSLOTS (2u << DUMPS_KEYSET_BITS)

typedef struct dumps_keyslot {
    PyObject *key;  /* NULL: empty */
    uint64_t words[3];
} dumps_keyslot;

/* The per-call walk state that dumps_ctx.c allocates, caches with the other
 * buffers and resets. */
typedef struct dumps_keycache {
    dumps_keyslot slots[DUMPS_KEYSLOTS];
    /* Members handed to code that may run Python code (dumps_cursor_slow):
     * when it has not changed, neither has any container being walked. Only
     * differences are read. */
    uint64_t foreign;
    /* The sets filled in this call (the first slot's index), to be emptied
     * at its end; more than fit: all are. */
    size_t nfilled;
    uint16_t filled[DUMPS_KEYSLOTS];
} dumps_keycache;

/* The first of the two slots of key's set. */
static inline size_t dumps_keyset_of(PyObject *key)
{
    return (size_t)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull) >> (64 - DUMPS_KEYSET_BITS)) * 2;
}

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

    dumps_keycache *keys;  /* the key cache (see above) */
} dumps_ctx;

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
    if (c->depth >= 64 && (c->depth & 7) == 0) {
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
/* dumps_value for an object that is none of the types dumps_value_inline
 * writes itself (tuple, Fragment, subclasses, the other types). */
int dumps_value_rare(dumps_ctx *c, PyObject *obj);
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
/* Types without an exact-type fast path: subclasses, the phase-2 types,
 * then default=. */
int dumps_other(dumps_ctx *c, PyObject *obj);
int dumps_default(dumps_ctx *c, PyObject *obj);

/* An exact str: ASCII text (most strings) inline, the rest in dumps_str. */
static inline __attribute__((always_inline)) int dumps_str_inline(dumps_ctx *c, PyObject *o)
{
    if (!PyUnicode_IS_ASCII(o))
        return dumps_str(c, o);
    size_t n = (size_t)PyUnicode_GET_LENGTH(o);
    const uint8_t *data = PyUnicode_DATA(o);
    int clean = dumps_scan_bytes_inline(data, n) == 0;
    if (dumps_ref_clean(c, ISOJSON_STRING, ISOJSON_ASCII, ISOJSON_UTF8, data, n, n, clean) < 0)
        return -1;
    return dumps_keep_borrowed(c, o);
}

/* The walk's dispatch by exact type, inlined into the container loops (and
 * the body of dumps_value): the commonest exact types by pointer comparison,
 * everything else through dumps_value_rare. */
static inline __attribute__((always_inline)) int dumps_value_inline(dumps_ctx *c, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyUnicode_Type)
        return dumps_str_inline(c, o);
    if (t == &PyLong_Type) {
        if (PyUnstable_Long_IsCompact((PyLongObject *)o))
            return dumps_number(c, ISOJSON_INT, (uint64_t)(int64_t)PyUnstable_Long_CompactValue((PyLongObject *)o));
        return dumps_int(c, o);
    }
    if (t == &PyFloat_Type) {
        double d = PyFloat_AS_DOUBLE(o);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return dumps_number(c, ISOJSON_FLOAT, bits);
    }
    if (o == Py_None)
        return dumps_scalar(c, ISOJSON_NULL);
    if (o == Py_True)
        return dumps_scalar(c, ISOJSON_TRUE);
    if (o == Py_False)
        return dumps_scalar(c, ISOJSON_FALSE);
    if (t == &PyDict_Type)
        return dumps_dict(c, o);
    if (t == &PyList_Type)
        return dumps_list(c, o);
    return dumps_value_rare(c, o);
}

static inline void dumps_key_copy(dumps_ctx *c, const dumps_keyslot *slot)
{
    uint64_t *w = c->tape.words + c->tape.len;
    w[0] = slot->words[0];
    w[1] = slot->words[1];
    w[2] = slot->words[2];
    c->tape.len += 3;
}

/* ---- reading a dict's members (dumps_dict.c, dumps_cursor_leaf_dict) ----
 *
 * PyDict_Next costs about 44 instructions a member on CPython 3.14 (a call,
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
 * holds the GIL. */
#if ISOJSON_DICT_LAYOUT_314
#define DUMPS_DICT_DIRECT 1

/* 1 once dumps_dict_direct_check has passed (dumps_dict.c). */
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
    if (t == &PyUnicode_Type) {
        if (!PyUnicode_IS_ASCII(o) || k->b == k->bend)
            return 0;
        size_t n = (size_t)PyUnicode_GET_LENGTH(o);
        const uint8_t *data = PyUnicode_DATA(o);
        uint64_t clean = dumps_scan_bytes_inline(data, n) == 0 ? ISOJSON_CLEAN_BIT : 0;
        w[0] = DUMPS_ASCII_STRING_HEADER | clean | ((uint64_t)n & ISOJSON_LEN_MASK);
        w[1] = (uint64_t)(uintptr_t)data;
        w[2] = n;
        k->w = w + 3;
        *k->b++ = o;
        return 1;
    }
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
    enum isojson_kind kind;
    if (o == Py_None)
        kind = ISOJSON_NULL;
    else if (o == Py_True)
        kind = ISOJSON_TRUE;
    else if (o == Py_False)
        kind = ISOJSON_FALSE;
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

/* An exact list or tuple as a leaf, at depth (the depth of its container;
 * too deep, it takes the slow path, where dumps_enter raises the error). */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_at(const dumps_ctx *c, dumps_cursor *k, PyObject *o,
                                                                      int depth)
{
    PyTypeObject *t = Py_TYPE(o);
    PyObject *const *items;
    Py_ssize_t n;
    if (t == &PyList_Type) {
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
        return 0;
    k->w = start + 2;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!dumps_cursor_scalar(k, items[i])) {
            k->w = start;
            k->b = borrowed;
            return 0;
        }
    }
    start[0] = dumps_kind(ISOJSON_ARRAY) | (uint64_t)n;
    start[1] = (uint64_t)(k->w - c->tape.words);
    return 1;
}

/* A member of the container being walked (depth c->depth). */
static inline __attribute__((always_inline)) int dumps_cursor_leaf(const dumps_ctx *c, dumps_cursor *k, PyObject *o)
{
    return dumps_cursor_leaf_at(c, k, o, c->depth);
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

/* An exact dict as a leaf: cached keys, members that are scalars or leaf
 * arrays. The caller has made room for 2 words. */
static inline __attribute__((always_inline)) int dumps_cursor_leaf_dict(const dumps_ctx *c, dumps_cursor *k,
                                                                        PyObject *o)
{
#if DUMPS_DICT_DIRECT
    if (Py_TYPE(o) != &PyDict_Type || (c->opts & (OPT_SORT_KEYS | OPT_NON_STR_KEYS)))
        return 0;
    Py_ssize_t n = PyDict_GET_SIZE(o);
    uint64_t *start = k->w;
    PyObject **borrowed = k->b;
    if (n > DUMPS_LEAF_MAX || c->depth >= DUMPS_MAX_DEPTH)
        return 0;
    dumps_dict_iter it;
    dumps_dict_iter_start(&it, o);
    if (it.entries == NULL)
        return 0;
    k->w = start + 2;
    Py_ssize_t count = 0;
    PyObject *key, *value;
    while (dumps_dict_iter_next(&it, &key, &value)) {
        /* Room for a key and a scalar (a leaf array checks its own). */
        if (count == n || (size_t)(k->wend - k->w) < 6 || !dumps_cursor_cached_key(c, k, key) ||
            (!dumps_cursor_scalar(k, value) && !dumps_cursor_leaf_at(c, k, value, c->depth + 1)))
            goto undo;
        count++;
    }
    start[0] = dumps_kind(ISOJSON_OBJECT) | (uint64_t)count;
    start[1] = (uint64_t)(k->w - c->tape.words);
    return 1;
undo:
    k->w = start;
    k->b = borrowed;
    return 0;
#else
    (void)c, (void)k, (void)o;
    return 0;
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
        c->keys->foreign++;
        rc = dumps_value(c, o);
    }
    dumps_cursor_load(c, k);
    return rc;
}

/* One member of a list at the cursor, which has room for 3 words: a scalar,
 * a leaf array or dict, or through the context. 0, or -1 on error. (The dict
 * loop tries no leaf dicts: measured, the code they add to its loop costs
 * more than they save on the corpus.) */
static inline __attribute__((always_inline)) int dumps_cursor_member(dumps_ctx *c, dumps_cursor *k, PyObject *o)
{
    if (dumps_cursor_scalar(k, o))
        return 0;
    if (dumps_cursor_leaf(c, k, o) || dumps_cursor_leaf_dict(c, k, o))
        return 0;
    return dumps_cursor_slow(c, k, o);
}

/* An exact-str dict key (or "Dict key must be str"), through the key cache. */
static inline int dumps_key(dumps_ctx *c, PyObject *key)
{
    size_t at_set = dumps_keyset_of(key);
    dumps_keyslot *set = &c->keys->slots[at_set];
    if (dumps_reserve(c, 3) < 0)
        return -1;
    if (set[0].key == key) {
        dumps_key_copy(c, &set[0]);
        return 0;
    }
    if (set[1].key == key) {
        dumps_key_copy(c, &set[1]);
        return 0;
    }
    if (!PyUnicode_CheckExact(key))
        return dumps_error("Dict key must be str");
    size_t at = c->tape.len;
    if (dumps_str(c, key) < 0)
        return -1;
    /* dumps_str appended exactly one 3-word String entry. */
    dumps_keycache *kc = c->keys;
    if (kc->nfilled < DUMPS_KEYSLOTS)
        kc->filled[kc->nfilled] = (uint16_t)at_set;
    kc->nfilled++;
    set[1] = set[0];
    set[0].key = key;
    const uint64_t *w = c->tape.words + at;
    set[0].words[0] = w[0];
    set[0].words[1] = w[1];
    set[0].words[2] = w[2];
    return 0;
}

/* Fragment (fragment.c) */
int isojson_fragment_init(PyObject *module, isojson_dumps_state *st);
PyObject *isojson_fragment_contents(PyObject *fragment);

#pragma GCC visibility pop

#endif
