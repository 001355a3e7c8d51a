/* list (and its subclasses) and tuple → Array.
 *
 * A tuple is a level for the depth of what it contains but is not checked
 * against the limit itself, as in orjson 3.13 (see DUMPS_MAX_DEPTH).
 *
 * A list's members are written through a cursor (dumps_cursor.h): the
 * commonest scalars and short containers of them (leaves) in place, the rest
 * through the context. The items written are the ones the list had when its
 * walk began, as in orjson (which reads the size once) and in 3.14t's
 * snapshot walk: a member's Python code (default=, a tzinfo's utcoffset) that
 * appends to the list does not add to its output. The size and the item
 * array are still read again on every step: that code may also shrink the
 * list or reallocate its items (orjson then reads freed memory). The list
 * itself is on the context's path, so dumps_pin() keeps it alive across such
 * code. */
#include "dumps.h"
#include "dumps_cursor.h"
#include "dumps_dispatch.h"
#include "dumps_ft.h"

/* The m items at items that are of the kind of type t (compact ints for
 * int, floats for float, None and bools for bool or None's type) as
 * dumps_cursor_scalar writes them, at *at (the tape's end at wend), as many
 * as there is room for: returns their count. Lists are mostly of one kind
 * (ids, counts, flags, prices), and this loop tests each item for its kind
 * only, with no room check of 3 words, no kind dispatch and no reload of
 * the list's size and items a member. Nothing here runs Python code. Taken
 * from a list's first item only, and not inlined: tried after every scalar
 * in dumps_list's loop, inline or called, its code made that loop dearer
 * for every other member (registers): text/ascii +3.3 to +12.5%,
 * nested/small-containers +1.6 to +2.5%. */
static __attribute__((noinline)) Py_ssize_t dumps_list_run(uint64_t **at, const uint64_t *wend,
                                                            PyObject *const *items, Py_ssize_t m, PyTypeObject *t)
{
    uint64_t *w = *at;
    const uint64_t *wlim = wend - 2; /* room for an entry of 2 words */
    Py_ssize_t j = 0;
    if (t == &PyLong_Type) {
        for (; j < m && w <= wlim; j++) {
            PyObject *o = items[j];
            if (Py_TYPE(o) != &PyLong_Type || !PyUnstable_Long_IsCompact((PyLongObject *)o))
                break;
            w[0] = dumps_kind(ISOJSON_INT);
            w[1] = (uint64_t)(int64_t)PyUnstable_Long_CompactValue((PyLongObject *)o);
            w += 2;
        }
    } else if (t == &PyFloat_Type) {
        for (; j < m && w <= wlim; j++) {
            PyObject *o = items[j];
            if (Py_TYPE(o) != &PyFloat_Type)
                break;
            double d = PyFloat_AS_DOUBLE(o);
            w[0] = dumps_kind(ISOJSON_FLOAT);
            memcpy(&w[1], &d, sizeof d);
            w += 2;
        }
    } else { /* t is bool or None's type: None, True, False */
        for (; j < m && w <= wlim; j++) {
            PyObject *o = items[j];
            enum isojson_kind kind;
            if (o == Py_None)
                kind = ISOJSON_NULL;
            else if (o == Py_True)
                kind = ISOJSON_TRUE;
            else if (o == Py_False)
                kind = ISOJSON_FALSE;
            else
                break;
            *w++ = dumps_kind(kind);
        }
    }
    *at = w;
    return j;
}

int dumps_list(dumps_ctx *c, PyObject *o)
{
    dumps_cursor k;
    Py_ssize_t i = 0, n;
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    dumps_cursor_load(c, &k);
    if (dumps_cursor_room(c, &k, 2) < 0)
        goto fail;
    size_t at = (size_t)(k.w - c->tape.words);
    k.w[0] = dumps_kind(ISOJSON_ARRAY);
    k.w += 2;
#ifdef Py_GIL_DISABLED
    if (!c->ft_locked) {
        /* The snapshot walk (dumps_ft.h): one snapshot of the items,
         * indexed: nested containers append to the owned list and may
         * move it. */
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
            if (dumps_cursor_member(c, &k, v, 0) < 0)
                goto fail;
        }
        goto done;
    }
    /* The locked walk: the list held locked, then read as the GIL build
     * reads it. */
    if (dumps_ft_hold(c, o) < 0)
        goto fail;
#endif
    n = PyList_GET_SIZE(o);
    /* A list whose first item is an int, a float, a bool or None: that
     * item and the ones after it of its kind in a loop of their own
     * (dumps_list_run). Not for a list of under 4 items, where the call
     * costs more than the loop saves (nested/small-containers' [1, [2,
     * [3]]]: 42 k instructions of calls, +1.5%). */
    if (n >= 4) {
        PyObject *first = PyList_GET_ITEM(o, 0);
        PyTypeObject *t = Py_TYPE(first);
        if (t == &PyLong_Type || t == &PyFloat_Type || t == &PyBool_Type || first == Py_None) {
            uint64_t *w = k.w;
            i = dumps_list_run(&w, k.wend, &PyList_GET_ITEM(o, 0), n, t);
            k.w = w;
        }
    }
    for (; i < n && i < PyList_GET_SIZE(o); i++) {
        PyObject *v = PyList_GET_ITEM(o, i);
        if (dumps_cursor_room(c, &k, 3) < 0)
            goto fail;
        if (dumps_cursor_member(c, &k, v, 1) < 0)
            goto fail;
    }
#ifdef Py_GIL_DISABLED
done:
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
