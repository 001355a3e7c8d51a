/* Shared declarations of the isojson CPython extension (the .c files of pyshim/).
 *
 * The extension is the only code that touches Python objects. It is
 * multi-phase initialised and supports own-GIL sub-interpreters: nothing that
 * holds a Python object lives in a C static; everything that outlives a call
 * is in the per-interpreter module state below.
 *
 * Files by concern:
 *   module.c         module definition, state, methods table, constants
 *   engine_loader.c  dlopen of the Go engine at first use, fork handling
 *   engine_pace.c    a yield to the Go scheduler every few ms (sysmon quiet)
 *   loads.c          loads(): input → engine parse → tape → Python objects
 *   loads_*.c        its parts: scratch memory, tape walk, str, key cache (loads.h)
 *   errors.c         JSONDecodeError (subclass of the interpreter's json.JSONDecodeError)
 *   dumps.c          dumps(): argument checks, the walk of objects into a tape
 *   dumps_write.c    the tape written as JSON into the bytes object returned
 *   dumps_*.c        one serializer per Python type
 *   fragment.c       the Fragment type
 */
#ifndef ISOJSON_H
#define ISOJSON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "engine/isojson_engine.h"
#include "dumps_state.h"

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

/* Called before each parse or write of `work` bytes: every few milliseconds
 * per thread, lets the Go scheduler see progress so that the Go runtime's
 * monitor thread stays asleep (engine_pace.c). */
void isojson_engine_pace(const isojson_engine_api *engine, size_t work);

/* The backend index chosen for this process (ISOJSON_BACKEND or the default);
 * -1 with an exception set when ISOJSON_BACKEND names no usable backend. */
int isojson_backend_index(void);

/* The writer index chosen for this process (ISOJSON_WRITER or the default),
 * which the engine's writes use (engine_loader.c tells the engine when it
 * loads it); -1 with a ValueError set when ISOJSON_WRITER names no usable
 * writer (then every dumps fails with JSONEncodeError saying so). */
int isojson_writer_index(void);

typedef struct isojson_state {
    PyObject *JSONDecodeError;   /* subclass of this interpreter's json.JSONDecodeError */
    /* loads: per-interpreter cache of short dict keys (loads.c) */
    void *key_cache;
    /* loads: per-interpreter table of dict shapes (loads_shapes.c) */
    void *shape_cache;
    /* dumps: types, caches and the Fragment type (dumps_state.h, owned by dumps.c) */
    isojson_dumps_state dumps;
} isojson_state;

isojson_state *isojson_get_state(PyObject *module);
/* The state, or NULL with RuntimeError once module_clear has run. */
isojson_state *isojson_live_state(PyObject *module);

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

/* dumps.c: set up and tear down isojson_dumps_state, and add Fragment (and any
 * other dumps-side names) to the module. Called from module.c's exec slot,
 * traverse and clear. */
int isojson_dumps_state_init(PyObject *module, isojson_dumps_state *st);
int isojson_dumps_state_traverse(isojson_dumps_state *st, visitproc visit, void *arg);
void isojson_dumps_state_clear(isojson_dumps_state *st);

#endif
