/* The per-interpreter cache of dict keys. JSON documents repeat the same few
 * keys thousands of times; making each one once and handing out new
 * references saves an allocation and a hash per member. Like orjson's: a
 * fixed-size direct-mapped table of short keys, each str already hashed.
 * Only ASCII keys are cached (their UTF-8 bytes are the str's own data, so a
 * hit is one inline compare, loads_bytes.h). The table lives in module state, so every interpreter
 * has its own and no str crosses interpreters.
 */
#include "loads.h"
#include "loads_bytes.h"

#include <stdlib.h>
#include <string.h>

#define KEY_SLOTS 2048          /* power of two */
#define KEY_MAX 64              /* longest cached key, bytes */

typedef struct key_slot {
    uint64_t hash;      /* isojson_bytes_hash of the bytes, with the length in the top byte */
    PyObject *str;
} key_slot;

int isojson_keys_init(isojson_state *st)
{
    st->key_cache = calloc(KEY_SLOTS, sizeof(key_slot));
    if (st->key_cache == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

void isojson_keys_clear(isojson_state *st)
{
    key_slot *t = st->key_cache;
    if (t == NULL)
        return;
    st->key_cache = NULL;
    for (size_t i = 0; i < KEY_SLOTS; i++)
        Py_XDECREF(t[i].str);
    free(t);
}

PyObject *isojson_key(isojson_state *st, const uint8_t *s, size_t n, size_t chars, int cls)
{
    key_slot *t = st->key_cache;
    if (cls != ISOJSON_ASCII || n > KEY_MAX || n == 0 || t == NULL)
        return isojson_str_from_utf8(s, n, chars, cls);
    /* The length in the top byte: a slot of another length is rejected
     * without touching its str. */
    uint64_t h = (isojson_bytes_hash(s, n) & 0x00ffffffffffffffULL) | (uint64_t)n << 56;
    key_slot *slot = &t[h & (KEY_SLOTS - 1)];
    if (slot->hash == h && slot->str != NULL && isojson_bytes_eq(ISOJSON_ASCII_DATA(slot->str), s, n))
        return Py_NewRef(slot->str);
    PyObject *u = PyUnicode_New((Py_ssize_t)n, 0x7f);
    if (u == NULL)
        return NULL;
    isojson_bytes_copy(ISOJSON_ASCII_DATA(u), s, n);
    /* Hash now: the str caches it, and every dict insertion reuses it. */
    if (PyObject_Hash(u) == -1) {
        Py_DECREF(u);
        return NULL;
    }
    PyObject *old = slot->str;
    slot->str = Py_NewRef(u);
    slot->hash = h;
    Py_XDECREF(old);
    return u;
}
