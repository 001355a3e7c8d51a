/* The container snapshots of the free-threaded build (dumps_ft.h). */
#include "dumps.h"
#include "dumps_ft.h"
#include "cpython/dumps_dict_read.h"

#ifdef Py_GIL_DISABLED

int dumps_ft_abort(dumps_ctx *c)
{
    c->ft_abort = 1;
    return -1;
}

void dumps_ft_unlock_to(dumps_ctx *c, size_t n)
{
    /* The last locked first. A waiter parked on one is handed it
     * (PyMutex_Unlock's slow path). */
    while (c->locks.len > n) {
        PyObject *o = c->locks.items[--c->locks.len];
        PyMutex_Unlock(&o->ob_mutex);
    }
}

/* Room for `more` references in c->owned. */
static int owned_room(dumps_ctx *c, size_t more)
{
    while (c->owned.cap - c->owned.len < more)
        if (dumps_objlist_grow(&c->owned) < 0)
            return -1;
    return 0;
}

/* The size is read once without the lock to make room, then again inside the
 * critical section, where the copy is taken only if it still fits: no
 * allocation happens while the container is locked, and a container that
 * grew meanwhile is retried. */
Py_ssize_t dumps_ft_list(dumps_ctx *c, PyObject *o, size_t *base)
{
    /* A critical section may wait, which the locked walk must not. */
    if (c->ft_locked)
        return dumps_ft_abort(c);
    for (;;) {
        size_t want = (size_t)PyList_GET_SIZE(o);
        if (owned_room(c, want) < 0)
            return -1;
        Py_ssize_t n = -1;
        Py_BEGIN_CRITICAL_SECTION(o);
        Py_ssize_t m = PyList_GET_SIZE(o);
        if ((size_t)m <= c->owned.cap - c->owned.len) {
            PyObject **dst = c->owned.items + c->owned.len;
            PyObject **src = ((PyListObject *)o)->ob_item;
            for (Py_ssize_t i = 0; i < m; i++)
                dst[i] = Py_NewRef(src[i]);
            n = m;
        }
        Py_END_CRITICAL_SECTION();
        if (n >= 0) {
            *base = c->owned.len;
            c->owned.len += (size_t)n;
            return n;
        }
    }
}

Py_ssize_t dumps_ft_dict(dumps_ctx *c, PyObject *o, size_t *base)
{
    if (c->ft_locked)
        return dumps_ft_abort(c);
    for (;;) {
        size_t want = 2 * (size_t)PyDict_GET_SIZE(o);
        if (owned_room(c, want) < 0)
            return -1;
        Py_ssize_t n = -1;
        Py_BEGIN_CRITICAL_SECTION(o);
        Py_ssize_t m = PyDict_GET_SIZE(o);
        if (2 * (size_t)m <= c->owned.cap - c->owned.len) {
            PyObject **dst = c->owned.items + c->owned.len;
            Py_ssize_t i = 0;
            PyObject *k, *v;
            /* The table read directly where the check passed
             * (cpython/dumps_dict_read.h): PyDict_Next on 3.14t costs about
             * 66 instructions a member, this about 10. Safe locked: every
             * change of a dict takes its critical section. */
            dumps_dict_iter it;
            dumps_dict_iter_start(&it, o);
            while (i < m && dumps_dict_iter_next(&it, &k, &v)) {
                dst[2 * i] = Py_NewRef(k);
                dst[2 * i + 1] = Py_NewRef(v);
                i++;
            }
            n = i;
        }
        Py_END_CRITICAL_SECTION();
        if (n >= 0) {
            *base = c->owned.len;
            c->owned.len += 2 * (size_t)n;
            return n;
        }
    }
}

#else
/* ISO C wants a translation unit to declare something. */
typedef int dumps_ft_unused;
#endif
