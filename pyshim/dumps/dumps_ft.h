/* dumps on the free-threaded build (Py_GIL_DISABLED): containers read as one
 * consistent snapshot each.
 *
 * With the GIL, nothing changes a list or dict while the walk holds it
 * except Python code the walk itself runs (default=, getattr), and the walk
 * rereads them after such code. Without the GIL another thread may append
 * to, shrink or replace the members of a container at any moment, and drop
 * the last reference to a member whose text the tape points into. So each
 * list and dict is read once, inside its per-object critical section
 * (Py_BEGIN_CRITICAL_SECTION, which CPython's own list and dict methods take
 * too), with a strong reference taken to every member (every key and value
 * of a dict) into the call's owned list; the walk then reads only that
 * snapshot, and the references are released after the write, as the other
 * owned ones are (dumps_release). A container is thus written as it was at
 * one instant, whatever other threads do meanwhile, and every object the
 * tape points into lives until the write is done. (Included by the files
 * that read containers: dumps_list.c, dumps_dict.c, dumps_sort.c,
 * dumps_dataclass.c, dumps_cursor.h.) */
#ifndef ISOJSON_DUMPS_FT_H
#define ISOJSON_DUMPS_FT_H

#include "dumps.h"

#ifdef Py_GIL_DISABLED

#pragma GCC visibility push(hidden)

/* Appends a reference to each item of list o (exact or a subclass) to
 * c->owned, as one snapshot; *base is the index of the first. Returns the
 * count, or -1 with MemoryError. */
Py_ssize_t dumps_ft_list(dumps_ctx *c, PyObject *o, size_t *base);

/* The same for dict o: key, value, key, value... (2 * count references),
 * in PyDict_Next's order. */
Py_ssize_t dumps_ft_dict(dumps_ctx *c, PyObject *o, size_t *base);

/* The j-th key and value of a dumps_ft_dict snapshot that starts at base
 * (read from c->owned each time: nested containers append to it and may
 * move it). */
static inline void dumps_ft_pair(const dumps_ctx *c, size_t base, size_t j,
                                 PyObject **key, PyObject **value)
{
    *key = c->owned.items[base + 2 * j];
    *value = c->owned.items[base + 2 * j + 1];
}

/* Room for `more` references in c->owned, made before a critical section
 * is entered (nothing is allocated while a container is locked). 0, or -1
 * with MemoryError. */
static inline int dumps_ft_owned_room(dumps_ctx *c, size_t more)
{
    while (__builtin_expect(c->owned.cap - c->owned.len < more, 0))
        if (dumps_objlist_grow(&c->owned) < 0)
            return -1;
    return 0;
}

/* Keeps o, a member read inside its container's critical section, alive
 * until the write: a reference into c->owned, where the caller has made
 * room (dumps_ft_owned_room). */
static inline void dumps_ft_keep(dumps_ctx *c, PyObject *o)
{
    Py_INCREF(o);
    c->owned.items[c->owned.len++] = o;
}

#pragma GCC visibility pop

#endif

#endif
