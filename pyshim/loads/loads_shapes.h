/* loads: dict shapes, the keys a dict is predicted to have.
 *
 * JSON arrays of records repeat the same keys in the same order: every
 * "user" object of a GitHub payload has login, id, node_id, avatar_url...
 * Without shapes each member's key costs a hash of its bytes and a lookup
 * in the key cache (loads_keys.c), then a probe of the dict's table with the
 * str's hash (loads_dict.h). A shape is the ordered key strs of a dict of n
 * members with distinct keys, plus the index table CPython's insertion
 * produced for them. When a dict's first key (through the key cache) and
 * member count find a shape, each following key is only compared with the
 * predicted key's bytes and stored at its position without a probe; when
 * all n matched, the shape's index bytes are copied into the table. A dict
 * in a list is first tried against the shape of the list's previous dict,
 * its first key included (no key cache or table lookup at all).
 *
 * Measured (callgrind, instructions per loads, against the same code
 * without shapes; +-1.5% run to run): github.json -5.3%, twitter.json -7%,
 * citm_catalog.json -3.2%, canada.json unchanged; CPU time (min over 12-25
 * alternating processes, noisy) about -2.5%, -5%, -2.5%: the keys were
 * cheap already (a hit in the key cache ~68 instructions), the time goes
 * to allocating the objects.
 *
 * Why the result is the table CPython builds: insertdict's probe sequence
 * for a key depends only on its hash and on which slots earlier insertions
 * took, and a table with distinct keys only ever gains indexes. So the
 * index table of n distinct keys inserted in one order depends only on
 * their hashes and the table size, both the same for equal strs and equal n:
 * the shape's indexes, recorded from a dict built member by member, are the
 * ones a new dict with equal keys in the same order gets. The entries are
 * the same {key, value} pairs in the same order. At the first key that
 * differs from the prediction, the table takes the indexes of the entries
 * already stored, in their order (loads_dict_index_entries: the probe of
 * insertdict for distinct keys), and the rest of the dict is filled member
 * by member as without shapes (a repeated key included). The once-per-
 * process check (loads_dict_check.c) builds dicts through shapes, matching
 * fully and mismatching at every position, and compares them byte for byte
 * with CPython's own.
 *
 * Shapes live in module state (per interpreter, next to the key cache they
 * depend on; on the free-threaded build per thread state, as the key cache
 * is there) and hold references to their keys. A fixed table of
 * LOADS_SHAPE_SLOTS shapes (2-way sets) of at most LOADS_SHAPE_MAX
 * members bounds their memory (at most about 600 KiB: 1.2 KiB a shape of 64
 * members). A
 * shape is reference counted with a plain counter (one interpreter's GIL
 * guards it; on the free-threaded build one thread owns the table): a
 * dict being filled by it, and a list predicting its next
 * dict with it, hold it, so that a nested dict replacing it in the table
 * does not free it under them. Where dicts are not filled directly
 * (ISOJSON_DICT_DIRECT=0, a failed check, the PyDict_SetItem path of large
 * dicts, other CPython builds) there are no shapes.
 */
#ifndef ISOJSON_LOADS_SHAPES_H
#define ISOJSON_LOADS_SHAPES_H

#include "loads.h"
#include "cpython/loads_dict.h"
#include "loads_bytes.h"

#if LOADS_DICT_DIRECT

#pragma GCC visibility push(hidden)

/* The most members of a dict with a shape: records have tens of keys
 * (twitter.json's users 39-40, github.json's repositories 64; with 64
 * instead of 32, twitter's instructions per loads went from -1.8% to
 * -8.7%); larger dicts are mostly maps of many distinct keys (ids) that
 * never repeat. */
#define LOADS_SHAPE_MAX 64
#define LOADS_SHAPE_SLOTS 512

/* Per member: the key str (a reference) and its length in bytes. The keys
 * are ASCII: the tape key's length is compared first, then its bytes with
 * the str's own data. */
typedef struct loads_shape_key {
    PyObject *str;
    size_t len;
} loads_shape_key;

typedef struct loads_shape {
    Py_ssize_t refcnt;          /* the cache's reference and one per dict being filled by it */
    Py_ssize_t n;               /* members, >= 2 */
    int score;                  /* dicts that matched minus those that did not, capped: <= 0 may be replaced */
    uint32_t index_bytes;       /* size of the index table */
    char *indices;              /* the table's dk_indices: just past keys[n - 1] */
    loads_shape_key keys[];   /* n */
} loads_shape;

/* The shape of a dict whose first key is `first` (the key cache's str) and
 * that has n members; NULL if there is none. Borrowed: the caller that uses
 * it takes a reference (loads_shape_hold). */
loads_shape *loads_shape_find(const loads_caches *lc, PyObject *first, Py_ssize_t n);

static inline loads_shape *loads_shape_hold(loads_shape *sh)
{
    sh->refcnt++;
    return sh;
}

/* Frees sh, whose last reference is gone (loads_shapes.c). */
void loads_shape_free(loads_shape *sh);

/* Inline: every dict and list of records drops a reference, the last
 * rarely. */
static inline void loads_shape_release(loads_shape *sh)
{
    if (--sh->refcnt == 0)
        loads_shape_free(sh);
}

/* Whether the tape key of header kh and text p is the shape's key at pos
 * (the caller then takes a new reference to keys[pos].str): its length and
 * class (the shape's keys are ASCII, class 0) against the shape key's
 * length in one compare, then the bytes with the str's own data. */
static inline int loads_shape_key_is(const loads_shape *sh, Py_ssize_t pos, uint64_t kh, const uint8_t *p)
{
    _Static_assert(ISOJSON_ASCII == 0, "an ASCII key's class bits are 0");
    const loads_shape_key *k = &sh->keys[pos];
    return (kh & (ISOJSON_LEN_MASK | 3ULL << ISOJSON_CLASS_SHIFT)) == k->len &&
           loads_bytes_eq(ISOJSON_ASCII_DATA(k->str), p, k->len);
}

/* A dict built member by member is done: its full table dk, of n members,
 * may become the shape of its first key: when its first key and n have no
 * shape yet and another live dict starts with the same key (a one-off dict
 * makes none), or when the
 * shape they have mismatched more dicts lately than it matched (the
 * records changed). Failures (no memory) are silent: a shape is only an
 * optimisation. Returns the shape the pair has now (borrowed), or NULL. */
loads_shape *loads_shape_offer(const loads_caches *lc, const isojson_dict_keys *dk, Py_ssize_t n);

/* A dict did not have the keys of sh: it counts against sh. */
static inline void loads_shape_missed(loads_shape *sh)
{
    if (sh->score > 0)
        sh->score--;
}

/* A dict had all of sh's keys. */
static inline void loads_shape_matched(loads_shape *sh)
{
    if (sh->score < 4)
        sh->score++;
}

/* The shape of the full table dk of n distinct keys (not added to any
 * cache); NULL (no exception) if it cannot have one: repeated or non-ASCII
 * keys, n out of range, no memory. The check of loads_dict_check.c uses it
 * without a cache. */
loads_shape *loads_shape_from_table(const isojson_dict_keys *dk, Py_ssize_t n);

#pragma GCC visibility pop

#endif /* LOADS_DICT_DIRECT */


/* Module state: the table of shapes (isojson_state.shape_cache; none where
 * dicts are not filled directly, nor on the free-threaded build, where it is
 * per thread state). Called with the key cache's. */
int loads_shapes_init(isojson_state *st);
void loads_shapes_clear(isojson_state *st);

#endif
