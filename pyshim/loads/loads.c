/* loads(obj, /): bytes, bytearray, memoryview (C-contiguous) or str → one
 * engine call that parses into a tape → Python objects built from the tape.
 * Exact types only, as orjson (a subclass of bytes or str is refused with
 * the same message).
 */
#include "loads.h"
#include "loads_tiny.h"

#include <stdlib.h>
#include <string.h>

/* Inputs at least this long are parsed without the GIL, so that other
 * threads run while Go parses. bytes and str cannot change meanwhile; a
 * bytearray or memoryview could (another thread may write to it), so it is
 * first copied: a memcpy is a few percent of a parse. */
#define NOGIL_MIN (64 * 1024)

/* Builds the objects with the interpreter's cyclic GC switched off, and puts
 * its previous state back.
 *
 * Why: every container the build allocates counts towards the GC's
 * threshold, and once past it CPython schedules a collection, which runs as
 * soon as loads returns. That collection cannot free anything the build made
 * (the new objects are all reachable from the result) and it traverses them
 * all: 10-20% of a loads of twitter.json or citm_catalog.json, for nothing
 * when the caller drops the result before allocating again (a request
 * handler, a loop over documents). Switched off, the build schedules nothing.
 * The allocations still count: when the result is kept, the next container
 * allocated anywhere finds the count past the threshold and schedules the
 * same collection as before, so garbage made elsewhere is collected no later
 * than one allocation after it would have been.
 *
 * Safe: the GIL is held throughout the build, which runs no Python code (only
 * str, int, float, list and dict of our own making are created or freed), so
 * no other thread of this interpreter can see or change the GC's state
 * meanwhile; the state is per interpreter. A caller who disabled the GC
 * keeps it disabled. */
static PyObject *build_without_gc_scheduling(isojson_state *st, loads_scratch *s, const uint8_t *src, size_t n)
{
#ifdef Py_GIL_DISABLED
    /* Without the GIL, other threads of the interpreter run during the build
     * and may disable or enable the collector themselves (gc.disable()): a
     * disable-enable pair here could undo theirs. The free-threaded
     * collector also scales its threshold with the live heap, which bounds
     * what collections during a large build cost. So the build runs as it
     * is (docs/free-threading.md). */
    return loads_build(st, s, src, n);
#endif
    int was_enabled = PyGC_Disable();
    PyObject *result = loads_build(st, s, src, n);
    if (was_enabled)
        PyGC_Enable();
    return result;
}

/* The tiny path (loads_tiny.h): the tape of a document of at most
 * LOADS_TINY_MAX bytes made in C, with no call into the engine (the
 * crossing, ~640 instructions, was most of loads(b"[]")). 0 when the path
 * gives up: the engine then parses src as before and reports any error. The
 * tape it makes is the scalar backend's, word for word, which every backend
 * gives (conformance/difffuzz), so it is taken whatever ISOJSON_BACKEND
 * chose. */
int loads_tiny_tape(loads_scratch *s, const uint8_t *src, size_t n)
{
    isojson_tape *t = &s->tape;
    if (t->cap < LOADS_TINY_WORDS) {
        /* The thread's first call: the engine's first size (cmemory.go);
         * freed with the scratch, as the engine's. Without memory the
         * engine tries, and reports it. */
        uint64_t *w = realloc(t->words, 256 * sizeof *w);
        if (w == NULL)
            return 0;
        t->words = w;
        t->cap = 256;
    }
    size_t len = loads_tiny_parse(src, n, t->words, t->cap);
    if (len == 0)
        return 0;
    t->len = len;
    t->arena_len = 0;
    return 1;
}

static void wrong_input(isojson_state *st)
{
    isojson_raise_decode_error(st, "Input must be bytes, bytearray, memoryview, or str", NULL, 0);
}

PyObject *isojson_loads(PyObject *module, PyObject *obj)
{
    isojson_state *st = isojson_live_state(module);
    if (st == NULL)
        return NULL;
    const uint8_t *src;
    Py_ssize_t n;
    int immutable = 1;
    PyObject *input_str = NULL;
    PyTypeObject *type = Py_TYPE(obj);
    Py_buffer view = {.obj = NULL};

    if (type == &PyBytes_Type) {
        src = (const uint8_t *)PyBytes_AS_STRING(obj);
        n = PyBytes_GET_SIZE(obj);
    } else if (type == &PyUnicode_Type) {
        /* For compact ASCII this is the str's own data; otherwise CPython
         * caches the UTF-8 on the str. */
        src = (const uint8_t *)PyUnicode_AsUTF8AndSize(obj, &n);
        if (src == NULL) {
            /* The UTF-8 of a non-ASCII str is allocated on first use: out
             * of memory is not a surrogate in the input (orjson reports
             * both as the surrogate error; a caller catching
             * JSONDecodeError must not take valid input for invalid). */
            if (PyErr_ExceptionMatches(PyExc_MemoryError))
                return NULL;
            PyErr_Clear();
            isojson_raise_decode_error(st, "str is not valid UTF-8: surrogates not allowed", NULL, 0);
            return NULL;
        }
        input_str = obj;
    } else if (type == &PyByteArray_Type || type == &PyMemoryView_Type) {
        /* A buffer export keeps a bytearray from being resized (moved)
         * while the tape points into it, even by a __del__ that runs during
         * the build. */
        if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0) {
            PyErr_Clear();
            wrong_input(st);
            return NULL;
        }
        src = view.buf;
        n = view.len;
        immutable = 0;
    } else {
        wrong_input(st);
        return NULL;
    }

    const isojson_engine_api *engine = isojson_engine();
    int backend = engine ? isojson_backend_index() : -1;
    /* The two empty containers, the commonest whole documents of their
     * size (an API's empty reply, an empty cache entry), are made here:
     * what they cost in the scratch, the tiny tape and the build was more
     * than the objects (loads(b"[]") 487 instructions, orjson's 235).
     * After the engine and the backend choice, whose failures every loads
     * raises. The bytes are read once each: a bytearray another thread
     * writes to is taken as it was at these reads. */
    if (n == 2 && backend >= 0) {
        uint8_t a = src[0], b = src[1];
        if ((a == '[' && b == ']') || (a == '{' && b == '}')) {
            if (view.obj != NULL)
                PyBuffer_Release(&view);
            return a == '[' ? PyList_New(0) : PyDict_New();
        }
    }

    loads_scratch *s = backend >= 0 ? loads_scratch_acquire() : NULL;
    if (s == NULL) {
        if (view.obj != NULL)
            PyBuffer_Release(&view);
        return NULL;
    }

    isojson_error err;
    err.offset = 0;
    err.msg[0] = '\0';
    int rc;
    uint8_t *copy = NULL;
#ifdef Py_GIL_DISABLED
    /* Without the GIL another thread may write into a bytearray while it is
     * parsed, whatever its size: the parse would validate bytes that the
     * build then reads changed (an "ASCII" str with a byte >= 0x80). So
     * mutable input is always parsed from a private copy, which is what it
     * held at one instant; without memory for one, the build cannot be
     * made safe, and MemoryError is raised. */
    if (!immutable) {
        copy = malloc(n > 0 ? (size_t)n : 1);
        if (copy == NULL) {
            PyBuffer_Release(&view);
            loads_scratch_release(s);
            return PyErr_NoMemory();
        }
    }
    if (copy != NULL) {
#else
    if (!immutable && n >= NOGIL_MIN && (copy = malloc((size_t)n)) != NULL) {
#endif
        memcpy(copy, src, (size_t)n);
        src = copy;
        immutable = 1;
    }
    int tiny = 0;
    if ((size_t)n <= LOADS_TINY_MAX && loads_tiny_tape(s, src, (size_t)n)) {
        rc = ISOJSON_OK;
        tiny = 1;
    } else if (immutable && n >= NOGIL_MIN) {
        /* The pacing yield too without the GIL: it waits for another Go
         * thread to hand the P back, and other Python threads need not. */
        Py_BEGIN_ALLOW_THREADS
        isojson_engine_pace(engine, (size_t)n);
        rc = engine->parse(backend, src, (size_t)n, &s->tape, &err);
        Py_END_ALLOW_THREADS
    } else {
        isojson_engine_pace(engine, (size_t)n);
        rc = engine->parse(backend, src, (size_t)n, &s->tape, &err);
    }

    PyObject *result = NULL;
    switch (rc) {
    case ISOJSON_OK:
        /* A tiny document makes a few objects, as much as any line of
         * Python: the collector's pause and resume (18 instructions of
         * loads(b"[]")'s 497) would cost more than they spare it. */
        result = tiny ? loads_build(st, s, src, (size_t)n) : build_without_gc_scheduling(st, s, src, (size_t)n);
        break;
    case ISOJSON_SYNTAX:
        isojson_raise_syntax_error(st, &err, input_str, src, (size_t)n);
        break;
    case ISOJSON_NOMEM:
        PyErr_NoMemory();
        break;
    default:
        PyErr_Format(PyExc_RuntimeError, "isojson engine: %s", err.msg);
    }
    loads_scratch_release(s);
    free(copy);
    if (view.obj != NULL)
        PyBuffer_Release(&view);
    return result;
}
