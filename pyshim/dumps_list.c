/* list (and its subclasses) and tuple → Array.
 *
 * A tuple is a level for the depth of what it contains but is not checked
 * against the limit itself, as in orjson 3.13 (see DUMPS_MAX_DEPTH).
 *
 * The size is read again on every step: default= may run Python code that
 * shrinks the list being walked. The list itself is on the context's path, so
 * dumps_pin() keeps it alive across such code. */
#include "dumps_internal.h"

int dumps_list(dumps_ctx *c, PyObject *o)
{
    size_t at, count = 0;
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    if (dumps_open(c, ISOJSON_ARRAY, &at) < 0)
        goto fail;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
        if (dumps_value_inline(c, PyList_GET_ITEM(o, i)) < 0)
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

int dumps_tuple(dumps_ctx *c, PyObject *o)
{
    size_t at;
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    if (dumps_enter(c, o, 0) < 0)
        return -1;
    if (dumps_open(c, ISOJSON_ARRAY, &at) < 0)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++)
        if (dumps_value_inline(c, PyTuple_GET_ITEM(o, i)) < 0)
            goto fail;
    dumps_close(c, at, (size_t)n);
    dumps_leave(c);
    return 0;
fail:
    dumps_leave(c);
    return -1;
}
