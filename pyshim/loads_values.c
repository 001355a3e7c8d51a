/* The per-interpreter cache of short str VALUES. Documents repeat short
 * values ("en", colours, dates, "source" links, enum-like states): twitter
 * has 4754 str values of which 2856 repeat one seen before. A hit hands out
 * a new reference to the str made the first time, saving its allocation,
 * copy and, later, its deallocation.
 *
 * Two direct-mapped tables in module state (so every interpreter has its own
 * and no str crosses interpreters), freed with the module:
 *   - ASCII values of 2..VALUE_ASCII_MAX bytes: the str's own data is the
 *     text, so a hit compares against it;
 *   - non-ASCII values of up to VALUE_UTF8_MAX bytes: a str keeps no UTF-8
 *     copy, so each slot holds the bytes it was made from (one cache line).
 * A miss costs one hash of at most 64 bytes and a slot overwrite, so
 * documents of unique strings (URLs, ids) lose little; longer strings are
 * never cached (their copy dwarfs an allocation, and they rarely repeat).
 * Strings of 0 and 1 characters need no cache: CPython has singletons.
 *
 * Returning a cached str is unobservable except through `is`: str is
 * immutable, and its refcount is above 1, so nothing resizes it in place.
 */
#include "loads.h"
#include "loads_bytes.h"

#include <stdlib.h>

#define VALUE_ASCII_SLOTS 2048   /* power of two */
#define VALUE_ASCII_MAX 64       /* longest cached ASCII value, bytes */
#define VALUE_UTF8_SLOTS 512     /* power of two */
#define VALUE_UTF8_MAX 48        /* longest cached non-ASCII value, UTF-8 bytes */

typedef struct ascii_slot {
    uint64_t tag;     /* hash with the length in the top byte: 0 when empty */
    PyObject *str;
} ascii_slot;

typedef struct utf8_slot {
    uint64_t tag;     /* as above, with the class in bits 54-55 */
    PyObject *str;
    uint8_t utf8[VALUE_UTF8_MAX];
} utf8_slot;

typedef struct value_cache {
    ascii_slot ascii[VALUE_ASCII_SLOTS];
    utf8_slot utf8[VALUE_UTF8_SLOTS];
} value_cache;

int isojson_values_init(isojson_state *st)
{
    st->value_cache = calloc(1, sizeof(value_cache));
    if (st->value_cache == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

void isojson_values_clear(isojson_state *st)
{
    value_cache *c = st->value_cache;
    if (c == NULL)
        return;
    st->value_cache = NULL;
    for (size_t i = 0; i < VALUE_ASCII_SLOTS; i++)
        Py_XDECREF(c->ascii[i].str);
    for (size_t i = 0; i < VALUE_UTF8_SLOTS; i++)
        Py_XDECREF(c->utf8[i].str);
    free(c);
}

/* Puts u in a slot (tag and str fields given), dropping what was there. */
static inline void replace(uint64_t *tag, PyObject **str, uint64_t h, PyObject *u)
{
    PyObject *old = *str;
    *str = Py_NewRef(u);
    *tag = h;
    Py_XDECREF(old);
}

PyObject *isojson_str_value(isojson_state *st, const uint8_t *s, size_t n, size_t chars, int cls)
{
    value_cache *c = st->value_cache;
    if (n < 2 || c == NULL)
        return isojson_str_from_utf8(s, n, chars, cls);
    if (cls == ISOJSON_ASCII) {
        if (n > VALUE_ASCII_MAX)
            return isojson_str_from_utf8(s, n, chars, cls);
        uint64_t h = (isojson_bytes_hash(s, n) & 0x00ffffffffffffffULL) | (uint64_t)n << 56;
        ascii_slot *slot = &c->ascii[h & (VALUE_ASCII_SLOTS - 1)];
        if (slot->tag == h && isojson_bytes_eq(ISOJSON_ASCII_DATA(slot->str), s, n))
            return Py_NewRef(slot->str);
        PyObject *u = isojson_str_from_utf8(s, n, chars, cls);
        if (u != NULL)
            replace(&slot->tag, &slot->str, h, u);
        return u;
    }
    if (n > VALUE_UTF8_MAX)
        return isojson_str_from_utf8(s, n, chars, cls);
    /* The class in the tag too: equal bytes always decode to the same
     * class, but a tag that differs in it can never match. */
    uint64_t h = (isojson_bytes_hash(s, n) & 0x003fffffffffffffULL) | (uint64_t)n << 56 | (uint64_t)(cls & 3) << 54;
    utf8_slot *slot = &c->utf8[h & (VALUE_UTF8_SLOTS - 1)];
    if (slot->tag == h && isojson_bytes_eq(slot->utf8, s, n))
        return Py_NewRef(slot->str);
    PyObject *u = isojson_str_from_utf8(s, n, chars, cls);
    if (u != NULL) {
        isojson_bytes_copy(slot->utf8, s, n);
        replace(&slot->tag, &slot->str, h, u);
    }
    return u;
}
