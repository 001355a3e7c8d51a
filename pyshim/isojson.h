/* Shared declarations of the isojson CPython extension, pyshim/ (every .c
 * file under it, compiled into one module by scripts/build with -Ipyshim: a
 * file includes one of its own folder by its bare name, one of another folder
 * by the folder's path, "cpython/cpython_dict314.h").
 *
 * The extension is the only code that touches Python objects. It is
 * multi-phase initialised and supports own-GIL sub-interpreters: nothing that
 * holds a Python object lives in a C static; everything that outlives a call
 * is in the per-interpreter module state below.
 *
 * The rooms. Module-wide, at the top of pyshim/ (functions prefixed isojson_):
 *   isojson.h        this: the module state, the engine, the entry points
 *   module.c         module definition, methods table, constants, state life
 *   engine_loader.c  dlopen of the Go engine (in the background from the import), fork handling
 *   engine_pace.c    a yield to the Go scheduler every few ms (sysmon quiet)
 *   errors.c         JSONDecodeError (subclass of the interpreter's json.JSONDecodeError)
 *   fragment.c       the Fragment type
 *   engine/          the Go engine (libisojson_engine.so) and its C ABI,
 *                    engine/isojson_engine.h (the tape, options, return codes)
 *   python/          the pure-Python files of the isojson package
 * dumps/ (prefix dumps_): dumps(), the walk of objects into a tape, one
 *   serializer per Python type; its map is dumps/dumps.h.
 * loads/ (prefix loads_): loads(), input → engine parse → tape → Python
 *   objects; its map is loads/loads.h.
 * cpython/: every use of CPython's private layouts, each with the check that
 *   guards it (the public API is used where a check fails or the layout is
 *   not the one mirrored):
 *   cpython_dict314.h   the one mirror of CPython 3.14's dict keys object
 *   dumps_dict_read.h   dumps: dict tables read directly (prefix dumps_)
 *   dumps_dict_check.c  its once-per-process check against PyDict_Next
 *   loads_dict.h/.c     loads: dict tables filled directly (prefix loads_)
 *   loads_dict_check.c  its once-per-process check against CPython's dicts
 *   selfcheck_str.h     the two checks' keys, made cheaply
 *   cpython_str.h       str header reads: compact data, cached hash and UTF-8
 *   cpython_long.h      int header reads: two-digit ints, UUID ints
 */
#ifndef ISOJSON_H
#define ISOJSON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "engine/isojson_engine.h"
#include "dumps/dumps_state.h"

/* The engine's functions, resolved with dlsym. */
typedef struct isojson_engine_api {
    int (*abi)(void);
    const char *(*version)(void);
    const char *(*backends)(void);
    int (*backend)(const char *name, isojson_error *err);
    const char *(*backend_name)(int i);
    int (*parse)(int backend, const uint8_t *src, size_t n, isojson_tape *t, isojson_error *err);
    int (*write)(const isojson_tape *t, const uint8_t *input, size_t input_len, uint32_t opts,
                 isojson_buf *out, isojson_error *err);
    int (*write_into)(const isojson_tape *t, const uint8_t *input, size_t input_len, uint32_t opts,
                      isojson_buf *out, isojson_grow_fn grow, void *ctx, isojson_error *err);
    void (*yield)(void);
    const char *(*writers)(void);
    int (*writer)(const char *name, isojson_error *err);
    const char *(*writer_name)(int i);
    int (*use_writer)(int i, const char *why);
} isojson_engine_api;

/* Returns the engine for this process, loading it on first use and loading a
 * fresh private copy in a fork()ed child. On failure returns NULL with a
 * RuntimeError set. Thread-safe; needs no GIL but the caller holds it when it
 * wants the exception. (engine_loader.c) */
const isojson_engine_api *isojson_engine(void);

/* Starts loading the engine on a background thread, once per process, so that
 * the first call does not wait for the Go runtime's start; ISOJSON_PRELOAD=0
 * leaves it to the first call. Called by the module's exec. (engine_loader.c) */
void isojson_engine_preload(void);

/* Called before each parse or write of `work` bytes: every few milliseconds
 * per thread, lets the Go scheduler see progress so that the Go runtime's
 * monitor thread stays asleep (engine_pace.c). */
void isojson_engine_pace(const isojson_engine_api *engine, size_t work);

/* For tests: the calling thread's yields so far, and the checks that left the
 * yield out because another thread was calling the engine too
 * (engine_pace.c). */
void isojson_engine_pace_counts(unsigned long *yields, unsigned long *skipped);

/* The backend index chosen for this process (ISOJSON_BACKEND or the default);
 * -1 with an exception set when ISOJSON_BACKEND names no usable backend. */
int isojson_backend_index(void);

/* The writer index chosen for this process (ISOJSON_WRITER or the default),
 * which the engine's writes use (engine_loader.c tells the engine when it
 * loads it); -1 with a ValueError set when ISOJSON_WRITER names no usable
 * writer (then every dumps fails with JSONEncodeError saying so). */
int isojson_writer_index(void);

/* 1 when the engine is loaded and its writer is the fast one, the default
 * (not ISOJSON_WRITER=reference, nor a failed choice): then dumps may write a
 * small tape in C (dumps/dumps_small.c). */
int isojson_fast_writer_chosen(void);

typedef struct isojson_state {
    PyObject *JSONDecodeError;   /* subclass of this interpreter's json.JSONDecodeError */
    /* loads: per-interpreter cache of short dict keys (loads.c) */
    void *key_cache;
    /* loads: per-interpreter table of dict shapes (loads_shapes.c) */
    void *shape_cache;
    /* loads: CPython's ints -5..256 (immortal), by value + 5 (loads_ints.h) */
    PyObject *small_ints[262];
    /* dumps: types, caches and the Fragment type (dumps_state.h, owned by dumps.c) */
    isojson_dumps_state dumps;
} isojson_state;

static inline isojson_state *isojson_get_state(PyObject *module)
{
    return (isojson_state *)PyModule_GetState(module);
}

/* The state, or NULL with RuntimeError once module_clear has run. Inline
 * here, not in module.c: module.c calls into dumps and loads, and they call
 * this, so a definition there would tie both to the module file. */
static inline isojson_state *isojson_live_state(PyObject *module)
{
    isojson_state *st = isojson_get_state(module);
    /* module_clear (gc at shutdown) may have run while a function object still
     * refers to the module: its names and types are gone. */
    if (st == NULL || st->JSONDecodeError == NULL || st->dumps.FragmentType == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "isojson: module state is gone (interpreter shutting down)");
        return NULL;
    }
    return st;
}

/* errors.c: creates JSONDecodeError (subclass of the interpreter's
 * json.JSONDecodeError) into st and adds it and JSONEncodeError (TypeError)
 * to the module. */
int isojson_errors_init(PyObject *module, isojson_state *st);
/* Raises JSONDecodeError(msg, doc, pos) as orjson does; doc NULL means ''. */
void isojson_raise_decode_error(isojson_state *st, const char *msg, PyObject *doc, Py_ssize_t pos);
/* Raises the JSONDecodeError for an engine syntax error in src[0:n): pos in
 * characters, doc the input as str (input_str itself when the input was a
 * str, else its UTF-8 decoding, or '' when it is not valid UTF-8). */
void isojson_raise_syntax_error(isojson_state *st, const isojson_error *err, PyObject *input_str,
                                const uint8_t *src, size_t n);

/* module.c's methods call these. */
PyObject *isojson_loads(PyObject *module, PyObject *obj);
PyObject *isojson_dumps(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* loads_tape.c: loads in its two halves, for tests only. */
PyObject *isojson_tape_of(PyObject *module, PyObject *data);
PyObject *isojson_build_tape(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *isojson_tiny_tape_of(PyObject *module, PyObject *data);

/* loads_keys.c: set up and tear down the loads side's per-interpreter state
 * (the key cache, st->key_cache, and the table of dict shapes,
 * st->shape_cache). Called from module.c's exec slot and clear. */
int isojson_loads_state_init(isojson_state *st);
void isojson_loads_state_clear(isojson_state *st);

/* dumps.c: set up and tear down isojson_dumps_state, and add Fragment (and any
 * other dumps-side names) to the module. Called from module.c's exec slot,
 * traverse and clear. */
int isojson_dumps_state_init(PyObject *module, isojson_dumps_state *st);
int isojson_dumps_state_traverse(isojson_dumps_state *st, visitproc visit, void *arg);
void isojson_dumps_state_clear(isojson_dumps_state *st);

/* fragment.c: the Fragment type, created into st and added to the module by
 * isojson_dumps_state_init; dumps_fragment.c reads a fragment's contents. */
int isojson_fragment_init(PyObject *module, isojson_dumps_state *st);
PyObject *isojson_fragment_contents(PyObject *fragment);

#endif
