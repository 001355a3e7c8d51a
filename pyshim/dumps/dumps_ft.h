/* dumps on the free-threaded build (Py_GIL_DISABLED): two walks, the locked
 * one first for a document the calling thread made (dumps.c), and the
 * snapshot one for any other and when the locked one cannot be used.
 *
 * The locked walk. Each list and dict is locked when the walk reaches it,
 * with a try-lock on the mutex that CPython's own list and dict methods lock
 * (ob_mutex, the one Py_BEGIN_CRITICAL_SECTION takes), and held until the
 * tape is written; the walk is then the GIL build's, with no reference per
 * member: a locked container cannot change, so what it holds lives. (A leaf
 * that put no str into the tape, dumps_ft_leaf_done, is unlocked as soon as
 * it is written: the tape holds copies of its numbers.) Each container is
 * thus written as it was at one instant, as in the snapshot walk. It never
 * waits for a lock (a contended try-lock ends it), so it cannot deadlock
 * with threads that lock in another order; and it holds its locks only while
 * the thread state is attached, since CPython suspends critical sections,
 * not these, when a thread detaches (a fork or a stop of the world meanwhile
 * would keep them locked). Anything it must not do while holding them ends
 * it too: a type that may run Python code (everything but exact dict, list,
 * tuple, str, int, float, bool, None and Fragment), sort_keys or
 * non_str_keys, a container met twice that is not a leaf of numbers (its
 * lock is taken). Ending it releases every lock and reference and the call
 * walks again with snapshots (below), as do the thread's next
 * DUMPS_FT_SNAPSHOT_CALLS calls. A write without the thread state (a long
 * tape, dumps_write.c) pins what the tape points into and releases the locks
 * first.
 *
 * The snapshot walk: containers read as one consistent snapshot each.
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

/* The calls of a thread that take snapshots after a locked walk ended. */
#define DUMPS_FT_SNAPSHOT_CALLS 63

/* Ends the locked walk: the call is redone with snapshots. Returns -1, with
 * no exception set, for the walk's callers to unwind. */
int dumps_ft_abort(dumps_ctx *c);

/* Releases the locks the walk holds from the n-th on. */
void dumps_ft_unlock_to(dumps_ctx *c, size_t n);

static inline __attribute__((always_inline)) void dumps_ft_unlock_all(dumps_ctx *c)
{
    if (c->locks.len != 0)
        dumps_ft_unlock_to(c, 0);
}

/* The try-lock of PyMutex_Lock's own fast path (cpython/lock.h): 1 when o's
 * mutex was free and is now this thread's. */
static inline __attribute__((always_inline)) int dumps_ft_trylock(PyObject *o)
{
    uint8_t expected = _Py_UNLOCKED;
    return _Py_atomic_compare_exchange_uint8(&o->ob_mutex._bits, &expected, _Py_LOCKED);
}

/* Room for one more held lock; 0, or -1 with MemoryError. */
static inline __attribute__((always_inline)) int dumps_ft_lock_room(dumps_ctx *c)
{
    if (__builtin_expect(c->locks.len == c->locks.cap, 0))
        return dumps_objlist_grow(&c->locks);
    return 0;
}

/* Records o, locked by dumps_ft_trylock, as held (room made first). */
static inline __attribute__((always_inline)) void dumps_ft_held(dumps_ctx *c, PyObject *o)
{
    c->locks.items[c->locks.len++] = o;
}

/* The locked walk's entry into list or dict o: locked and held until the
 * write. 0, or -1 (the walk ends: an abort, or MemoryError). */
static inline __attribute__((always_inline)) int dumps_ft_hold(dumps_ctx *c, PyObject *o)
{
    if (dumps_ft_lock_room(c) < 0)
        return -1;
    if (!dumps_ft_trylock(o))
        return dumps_ft_abort(c);
    dumps_ft_held(c, o);
    return 0;
}

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
