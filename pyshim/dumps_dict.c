/* dict (and its subclasses) → Object, members in the dict's order, each key
 * then its value. Under OPT_SORT_KEYS or OPT_NON_STR_KEYS orjson converts
 * every key before any value (dumps_sort.c).
 *
 * Keys must be exact str, as orjson requires ("Dict key must be str"), unless
 * OPT_NON_STR_KEYS turns other keys into strings (dumps_key.c). The count is
 * of members actually written: default= may mutate the dict while it is
 * walked, and PyDict_Next stays memory-safe when it does. */
#include "dumps_internal.h"

int dumps_dict(dumps_ctx *c, PyObject *o)
{
    size_t at, count = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    if (c->opts & (OPT_SORT_KEYS | OPT_NON_STR_KEYS))
        return dumps_dict_collected(c, o, (c->opts & OPT_SORT_KEYS) != 0);
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    if (dumps_open(c, ISOJSON_OBJECT, &at) < 0)
        goto fail;
    while (PyDict_Next(o, &pos, &key, &value)) {
        if (dumps_key(c, key) < 0 || dumps_value_inline(c, value) < 0)
            goto fail;
        count++;
    }
    dumps_close(c, at, count);
    dumps_leave(c);
    return 0;
fail:
    dumps_leave(c);
    return -1;
}
