/* dict (and its subclasses) → Object, members in the dict's order, each key
 * then its value. Under OPT_SORT_KEYS or OPT_NON_STR_KEYS orjson converts
 * every key before any value (dumps_sort.c).
 *
 * Keys must be exact str, as orjson requires ("Dict key must be str"), unless
 * OPT_NON_STR_KEYS turns other keys into strings (dumps_key.c). The count is
 * of members actually written: default= (or a tzinfo's utcoffset) may mutate
 * the dict while it is walked; the walk stays memory-safe as PyDict_Next does
 * (cpython/dumps_dict_read.h), and writes no more members than the dict had
 * when it began, as orjson and 3.14t's snapshot walk do.
 * Members go through a cursor (dumps_cursor.h): cached keys and the
 * commonest values without a call. */
#include "dumps.h"
#include "dumps_cursor.h"
#include "dumps_keycache.h"
#include "dumps_ft.h"

/* One member at the cursor: its key, through the key cache, then its value.
 * direct: 1 in the walks that read the dict directly (the GIL build's, the
 * locked walk), whose keys live until the write by `borrowed`: a key's first
 * occurrence is written and cached by dumps_cursor_key; 0 in the snapshot
 * walk, whose keys live by its references, where it takes dumps_key. it:
 * the dict's iterator, read again when Python code may have changed the
 * dict (NULL: a snapshot, or the locked walk, which runs no Python code). */
static inline __attribute__((always_inline)) int dumps_dict_member(dumps_ctx *c, dumps_cursor *k, PyObject *key,
                                                                   PyObject *value, int direct, dumps_dict_iter *it)
{
    /* A key and the widest scalar. */
    if (dumps_cursor_room(c, k, 6) < 0)
        return -1;
    if (!(direct ? dumps_cursor_key(c, k, key) : dumps_cursor_cached_key(c, k, key))) {
        /* No Python code runs for a key: the dict is unchanged. */
        dumps_cursor_store(c, k);
        int rc = dumps_key(c, key);
        dumps_cursor_load(c, k);
        if (rc < 0)
            return -1;
    }
    if (dumps_cursor_scalar(k, value) || dumps_cursor_leaf(c, k, value, direct))
        return 0;
    if (it == NULL)
        return dumps_cursor_slow(c, k, value);
    uint64_t foreign = c->keys->foreign;
    if (dumps_cursor_slow(c, k, value) < 0)
        return -1;
    /* Python code may have changed the dict. */
    if (c->keys->foreign != foreign)
        dumps_dict_iter_refresh(it);
    return 0;
}

int dumps_dict(dumps_ctx *c, PyObject *o)
{
    dumps_cursor k;
    dumps_dict_iter it;
    size_t count = 0;
    PyObject *key, *value;
    if (c->opts & (ISOJSON_OPT_SORT_KEYS | ISOJSON_OPT_NON_STR_KEYS))
        return dumps_dict_collected(c, o, (c->opts & ISOJSON_OPT_SORT_KEYS) != 0);
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    dumps_cursor_load(c, &k);
    if (dumps_cursor_room(c, &k, 2) < 0)
        goto fail;
    size_t at = (size_t)(k.w - c->tape.words);
    k.w[0] = dumps_kind(ISOJSON_OBJECT);
    k.w += 2;
#ifdef Py_GIL_DISABLED
    if (!c->ft_locked) {
        /* The snapshot walk (dumps_ft.h): one snapshot of the members,
         * indexed as in dumps_list. */
        dumps_cursor_store(c, &k);
        size_t base;
        Py_ssize_t n = dumps_ft_dict(c, o, &base);
        dumps_cursor_load(c, &k);
        if (n < 0)
            goto fail;
        for (Py_ssize_t j = 0; j < n; j++) {
            dumps_ft_pair(c, base, (size_t)j, &key, &value);
            count++;
            if (dumps_dict_member(c, &k, key, value, 0, NULL) < 0)
                goto fail;
        }
        goto done;
    }
    /* The locked walk: the dict held locked, then read as the GIL build
     * reads it. */
    if (dumps_ft_hold(c, o) < 0)
        goto fail;
#endif
    size_t n = (size_t)PyDict_GET_SIZE(o);
    dumps_dict_iter_start(&it, o);
    while (count < n && dumps_dict_iter_next(&it, &key, &value)) {
        count++;
#ifdef Py_GIL_DISABLED
        /* Nothing runs Python code in the locked walk: nothing to reread. */
        if (dumps_dict_member(c, &k, key, value, 1, NULL) < 0)
#else
        if (dumps_dict_member(c, &k, key, value, 1, &it) < 0)
#endif
            goto fail;
    }
#ifdef Py_GIL_DISABLED
done:
#endif
    dumps_cursor_store(c, &k);
    dumps_close(c, at, count);
    dumps_leave(c);
    return 0;
fail:
    dumps_cursor_store(c, &k);
    dumps_leave(c);
    return -1;
}
