/* loads: the free-threaded build's per-thread-state caches (loads.h,
 * loads_caches_of_thread). The key cache (loads_keys.c) and the table of
 * shapes (loads_shapes.c) of each thread state live in capsules in its dict
 * (PyThreadState_GetDict), which CPython clears with the thread state: the
 * capsules' destructors release the strs and shapes then.
 *
 * Looking them up there costs a dict lookup each, so the last pair found is
 * kept in one thread-local (one __tls_get_addr call in this dlopen()ed
 * extension, not one per table), with the thread state it belongs to. The
 * thread state's address alone would not do: a thread state cleared on
 * another OS thread (a daemon thread's at finalization, or one moved
 * between OS threads by C code) leaves this thread's copy pointing at freed
 * tables, and a new thread state may be given the same address. So every
 * destructor also advances a process-wide count, and a copy made before it
 * moved is looked up again: after a thread state ends, each thread pays one
 * lookup at its next loads.
 */
#include "loads.h"
#include "cpython/loads_dict.h"

#ifdef Py_GIL_DISABLED

static uint64_t tables_freed;   /* atomic: tables freed since the process began */

static __thread struct {
    PyThreadState *owner;
    uint64_t freed;             /* tables_freed when the copy was made */
    struct key_set *keys;
    struct shape_table *shapes;
} kept;

void loads_caches_of_thread(loads_caches *lc)
{
    PyThreadState *ts = PyThreadState_Get();
    uint64_t freed = __atomic_load_n(&tables_freed, __ATOMIC_ACQUIRE);
    if (kept.owner == ts && kept.freed == freed) {
        lc->keys = kept.keys;
        lc->shapes = kept.shapes;
        return;
    }
    lc->keys = loads_keys_of_thread();
    lc->shapes = loads_shapes_of_thread();
    /* A table that could not be had (no memory) is tried again next call. */
    int complete = lc->keys != NULL && (lc->shapes != NULL || !LOADS_DICT_DIRECT);
    kept.owner = complete ? ts : NULL;
    kept.freed = freed;
    kept.keys = lc->keys;
    kept.shapes = lc->shapes;
}

void loads_caches_forget(void)
{
    kept.owner = NULL;
    __atomic_fetch_add(&tables_freed, 1, __ATOMIC_RELEASE);
}

void *loads_thread_table(const char *name, void *(*make)(void), void (*drop)(void *),
                         PyCapsule_Destructor destructor)
{
    PyObject *d = PyThreadState_GetDict();
    if (d == NULL)
        return NULL;
    PyObject *cap;
    if (PyDict_GetItemStringRef(d, name, &cap) < 0) {
        PyErr_Clear();
        return NULL;
    }
    if (cap != NULL) {
        void *table = PyCapsule_GetPointer(cap, name);
        Py_DECREF(cap);
        if (table == NULL)
            PyErr_Clear();
        return table;
    }
    void *table = make();
    if (table == NULL)
        return NULL;
    cap = PyCapsule_New(table, name, destructor);
    if (cap == NULL) {
        drop(table);
        PyErr_Clear();
        return NULL;
    }
    int rc = PyDict_SetItemString(d, name, cap);
    Py_DECREF(cap);  /* on failure this frees the table, through destructor */
    if (rc < 0) {
        PyErr_Clear();
        return NULL;
    }
    return table;
}

#endif
