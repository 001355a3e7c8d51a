/* dict (and its subclasses) → Object, members in the dict's order, each key
 * then its value. Under OPT_SORT_KEYS or OPT_NON_STR_KEYS orjson converts
 * every key before any value (dumps_sort.c).
 *
 * Keys must be exact str, as orjson requires ("Dict key must be str"), unless
 * OPT_NON_STR_KEYS turns other keys into strings (dumps_key.c). The count is
 * of members actually written: default= may mutate the dict while it is
 * walked; the walk stays memory-safe as PyDict_Next does (cpython/dumps_dict_read.h).
 * Members go through a cursor (dumps_cursor.h): cached keys and the
 * commonest values without a call. */
#include "dumps.h"
#include "dumps_cursor.h"
#include "dumps_keycache.h"
#include "dumps_ft.h"

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
    /* One snapshot of the members (dumps_ft.h), indexed as in dumps_list. */
    (void)it;
    dumps_cursor_store(c, &k);
    size_t base;
    Py_ssize_t n = dumps_ft_dict(c, o, &base);
    dumps_cursor_load(c, &k);
    if (n < 0)
        goto fail;
    for (Py_ssize_t j = 0; j < n; j++) {
        dumps_ft_pair(c, base, (size_t)j, &key, &value);
#else
    dumps_dict_iter_start(&it, o);
    while (dumps_dict_iter_next(&it, &key, &value)) {
#endif
        /* A key and the widest scalar. */
        if (dumps_cursor_room(c, &k, 6) < 0)
            goto fail;
#ifdef Py_GIL_DISABLED
        if (!dumps_cursor_cached_key(c, &k, key)) {
#else
        if (!dumps_cursor_key(c, &k, key)) {
#endif
            /* No Python code runs for a key: the dict is unchanged. */
            dumps_cursor_store(c, &k);
            int rc = dumps_key(c, key);
            dumps_cursor_load(c, &k);
            if (rc < 0)
                goto fail;
        }
        count++;
        if (dumps_cursor_scalar(&k, value) || dumps_cursor_leaf(c, &k, value))
            continue;
#ifdef Py_GIL_DISABLED
        if (dumps_cursor_slow(c, &k, value) < 0)
            goto fail;
#else
        uint64_t foreign = c->keys->foreign;
        if (dumps_cursor_slow(c, &k, value) < 0)
            goto fail;
        /* Python code may have changed the dict. */
        if (c->keys->foreign != foreign)
            dumps_dict_iter_refresh(&it);
#endif
    }
    dumps_cursor_store(c, &k);
    dumps_close(c, at, count);
    dumps_leave(c);
    return 0;
fail:
    dumps_cursor_store(c, &k);
    dumps_leave(c);
    return -1;
}
