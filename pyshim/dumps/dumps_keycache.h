/* dumps: the key cache, the three tape words of each dict key str
 * remembered for the rest of the call (dumps_ctx.c allocates it with the
 * other buffers and empties it at the end of a call). Used by the files that
 * write dict keys: dumps_dict.c (through dumps_cursor.h too), dumps_sort.c,
 * dumps_dataclass.c. */
#ifndef ISOJSON_DUMPS_KEYCACHE_H
#define ISOJSON_DUMPS_KEYCACHE_H

#include "dumps.h"

#pragma GCC visibility push(hidden)

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
struct dumps_keycache {
    dumps_keyslot slots[DUMPS_KEYSLOTS];
    /* Members handed to code that may run Python code (dumps_cursor_slow):
     * when it has not changed, neither has any container being walked. Only
     * differences are read. */
    uint64_t foreign;
    /* The sets filled in this call (the first slot's index), to be emptied
     * at its end; more than fit: all are. */
    size_t nfilled;
    uint16_t filled[DUMPS_KEYSLOTS];
};

/* The first of the two slots of key's set. */
static inline size_t dumps_keyset_of(PyObject *key)
{
    return (size_t)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull) >> (64 - DUMPS_KEYSET_BITS)) * 2;
}

static inline void dumps_key_copy(dumps_ctx *c, const dumps_keyslot *slot)
{
    uint64_t *w = c->tape.words + c->tape.len;
    w[0] = slot->words[0];
    w[1] = slot->words[1];
    w[2] = slot->words[2];
    c->tape.len += 3;
}

/* Remembers key's String entry w (3 words) in its set, the newer way, for
 * the rest of the call. key must stay alive until the write: the caller has
 * recorded it in `borrowed` (for good, not in a leaf that may be undone). */
static inline __attribute__((always_inline)) void dumps_keycache_put(dumps_keycache *kc, size_t at_set, PyObject *key,
                                                                     const uint64_t *w)
{
    dumps_keyslot *set = &kc->slots[at_set];
    if (kc->nfilled < DUMPS_KEYSLOTS)
        kc->filled[kc->nfilled] = (uint16_t)at_set;
    kc->nfilled++;
    set[1] = set[0];
    set[0].key = key;
    set[0].words[0] = w[0];
    set[0].words[1] = w[1];
    set[0].words[2] = w[2];
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
    dumps_keycache_put(c->keys, at_set, key, c->tape.words + at);
    return 0;
}

#pragma GCC visibility pop

#endif
