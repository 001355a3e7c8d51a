/* list (and its subclasses) and tuple → Array.
 *
 * A tuple is a level for the depth of what it contains but is not checked
 * against the limit itself, as in orjson 3.13 (see DUMPS_MAX_DEPTH).
 *
 * A list's members are written through a cursor (dumps_cursor.h): the
 * commonest scalars and short containers of them (leaves) in place, the rest
 * through the context. The size and the item array
 * are read again on every step: a slow member may run Python code (default=)
 * that shrinks the list or reallocates its items. The list itself is on the
 * context's path, so dumps_pin() keeps it alive across such code. */
#include "dumps.h"
#include "dumps_cursor.h"
#include "dumps_dispatch.h"
#include "dumps_ft.h"

int dumps_list(dumps_ctx *c, PyObject *o)
{
    dumps_cursor k;
    Py_ssize_t i = 0;
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    dumps_cursor_load(c, &k);
    if (dumps_cursor_room(c, &k, 2) < 0)
        goto fail;
    size_t at = (size_t)(k.w - c->tape.words);
    k.w[0] = dumps_kind(ISOJSON_ARRAY);
    k.w += 2;
#ifdef Py_GIL_DISABLED
    /* One snapshot of the items (dumps_ft.h), indexed: nested containers
     * append to the owned list and may move it. */
    dumps_cursor_store(c, &k);
    size_t base;
    Py_ssize_t n = dumps_ft_list(c, o, &base);
    dumps_cursor_load(c, &k);
    if (n < 0)
        goto fail;
    for (; i < n; i++) {
        PyObject *v = c->owned.items[base + (size_t)i];
        if (dumps_cursor_room(c, &k, 3) < 0)
            goto fail;
        if (dumps_cursor_member(c, &k, v) < 0)
            goto fail;
    }
#else
    for (; i < PyList_GET_SIZE(o); i++) {
        PyObject *v = PyList_GET_ITEM(o, i);
        if (dumps_cursor_room(c, &k, 3) < 0)
            goto fail;
        if (dumps_cursor_scalar(&k, v)) {
            /* The items after a scalar that are of its kind, in a loop of
             * their own (dumps_cursor_run): they run no Python code, so
             * the list is read once for them. */
            i += dumps_cursor_run(&k, &PyList_GET_ITEM(o, i + 1), PyList_GET_SIZE(o) - i - 1, v);
            continue;
        }
        if (dumps_cursor_other(c, &k, v) < 0)
            goto fail;
    }
#endif
    dumps_cursor_store(c, &k);
    dumps_close(c, at, (size_t)i);
    dumps_leave(c);
    return 0;
fail:
    dumps_cursor_store(c, &k);
    dumps_leave(c);
    return -1;
}

/* Tuples nest to DUMPS_MAX_NESTING levels (no depth check, as in orjson), so
 * their loop keeps a small stack frame: no cursor, no leaves. */
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
