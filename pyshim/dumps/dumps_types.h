/* The types dumps serializes without an exact-type fast path (dumps_types.c
 * dispatches them in orjson's order): datetime, UUID, Enum, subclasses of the
 * builtins, dataclasses, numpy. Their types live in other modules and are
 * found in the calling interpreter's sys.modules (dumps_types.c). */
#ifndef ISOJSON_DUMPS_TYPES_H
#define ISOJSON_DUMPS_TYPES_H

#include "dumps.h"

#pragma GCC visibility push(hidden)

/* Returned by a serializer that does not handle the object it was given. */
#define DUMPS_NOT_MINE 1

/* The cached type `which` as it is now: NULL while it has not been found.
 * On the free-threaded build another thread may be filling it (dumps_types.c,
 * fill): read with acquire, so that a type seen is seen whole. */
static inline PyObject *dumps_type_slot(isojson_dumps_state *st, enum isojson_cached_type which)
{
#ifdef Py_GIL_DISABLED
    return __atomic_load_n(&st->types[which], __ATOMIC_ACQUIRE);
#else
    return st->types[which];
#endif
}

/* dumps_type's lookup of a type not found yet (dumps_types.c). */
PyObject *dumps_type_find(isojson_dumps_state *st, enum isojson_cached_type which);

/* The cached type `which`, looking for its module in sys.modules first when
 * it has not been found yet; NULL (no error) while that module is not
 * imported: then no instance of it can exist. Inline: every value of a type
 * without a fast path compares its type with several of these. */
static inline PyObject *dumps_type(isojson_dumps_state *st, enum isojson_cached_type which)
{
    PyObject *t = dumps_type_slot(st, which);
    return t != NULL ? t : dumps_type_find(st, which);
}

/* A datetime/date/time, UUID or Enum dict key under OPT_NON_STR_KEYS:
 * appends its String entry (0), fails (-1) or is not one (DUMPS_NOT_MINE). */
int dumps_typed_key(dumps_ctx *c, PyObject *key);

/* dumps_datetime.c: datetime.datetime, date and time. Values and keys are
 * the same clean String entry. */
int dumps_datetime(dumps_ctx *c, PyObject *o);
int dumps_date(dumps_ctx *c, PyObject *o);
int dumps_time(dumps_ctx *c, PyObject *o);
/* dumps_uuid.c */
int dumps_uuid(dumps_ctx *c, PyObject *o, int as_key);
/* dumps_enum.c: the member's value, as a value or as a key. */
int dumps_enum(dumps_ctx *c, PyObject *o);
int dumps_enum_key(dumps_ctx *c, PyObject *o);
/* dumps_dataclass.c */
int dumps_is_dataclass(dumps_ctx *c, PyTypeObject *t);
int dumps_dataclass(dumps_ctx *c, PyObject *o);
/* dumps_numpy.c: DUMPS_NOT_MINE when o is no numpy array or scalar. */
int dumps_numpy(dumps_ctx *c, PyObject *o);

/* Short ASCII text that needs no escaping (datetimes, UUIDs, datetime64) is
 * formatted straight into the scratch arena, not into a local buffer that
 * is then copied: the copy's wide loads of bytes just stored one at a time
 * stall on store forwarding. dumps_text_begin reserves DUMPS_TEXT_BUF bytes
 * (NULL with MemoryError); dumps_text_finish gives back what the text
 * [start, end) did not use and appends it as a String entry (clean UTF-8),
 * which serves as a value or as a key. No Python code may run in between. */
#define DUMPS_TEXT_BUF 48

/* "00010203...99": two decimal digits per entry. */
extern const char dumps_digit_pairs[201];

/* n bytes of scratch, from the head chunk when it has the room without a
 * call (dumps_scratch's own fast path, inlined for per-value text). */
static inline uint8_t *dumps_text_room(dumps_ctx *c, size_t n)
{
    dumps_chunk *ch = c->scratch;
    if (ch != NULL && ch->cap - ch->len >= n) {
        uint8_t *p = ch->data + ch->len;
        ch->len += n;
        return p;
    }
    return dumps_scratch(c, n);
}

/* Gives back the last `unused` bytes of the most recent scratch request:
 * both dumps_scratch and dumps_text_room hand out the end of the head chunk. */
static inline void dumps_text_trim(dumps_ctx *c, size_t unused) { c->scratch->len -= unused; }

static inline char *dumps_text_begin(dumps_ctx *c) { return (char *)dumps_text_room(c, DUMPS_TEXT_BUF); }
static inline int dumps_text_finish(dumps_ctx *c, char *start, char *end)
{
    size_t n = (size_t)(end - start);
    dumps_text_trim(c, DUMPS_TEXT_BUF - n);
    /* A clean UTF-8 String: the writer copies short clean Strings inline in
     * its compact loop, without escaping. */
    return dumps_ref_clean(c, ISOJSON_STRING, ISOJSON_ASCII, ISOJSON_UTF8, start, n, n, 1);
}

/* ---- answers about a class, kept by its version tag ----
 *
 * CPython changes a class's version tag (tp_version_tag) whenever the class
 * or one of its bases changes, and never gives one tag to two classes of an
 * interpreter; 0 is no tag. A word of module state holds one 32-bit answer
 * in its high half and the tag it holds for in its low half, read and
 * written whole (relaxed atomics), so that 3.14t's threads never see an
 * answer with another class's tag. Used for dataclass kinds
 * (dumps_dataclass.c) and UUID's slot (dumps_uuid.c). */
static inline unsigned dumps_type_tag(PyTypeObject *t) { return __atomic_load_n(&t->tp_version_tag, __ATOMIC_RELAXED); }

/* 1 and *answer when w holds an answer for tag (never for tag 0). */
static inline int dumps_tagged_get(const uint64_t *w, unsigned tag, uint32_t *answer)
{
    uint64_t e = __atomic_load_n(w, __ATOMIC_RELAXED);
    if (tag == 0 || (uint32_t)e != tag)
        return 0;
    *answer = (uint32_t)(e >> 32);
    return 1;
}

/* Keeps answer for tag, worked out from t while t's tag was tag: not when it
 * is 0 or t has changed since (another thread, on 3.14t). */
static inline void dumps_tagged_put(uint64_t *w, PyTypeObject *t, unsigned tag, uint32_t answer)
{
    if (tag != 0 && __atomic_load_n(&t->tp_version_tag, __ATOMIC_ACQUIRE) == tag)
        __atomic_store_n(w, (uint64_t)answer << 32 | tag, __ATOMIC_RELAXED);
}

#pragma GCC visibility pop

#endif
