/* _tape(data) and _build_tape(words, arena, data): the two halves of loads
 * apart, for tests only (tests/test_loads_tape.py); _tiny_tape(data), the
 * tiny path's half (tests/test_loads_tiny.py).
 *
 * Why: the build (loads_build.c) trusts nothing in a tape. A backend bug
 * must raise RuntimeError ("malformed tape"), never read outside the tape,
 * its arena or the input. Valid input never makes such a tape, so these
 * functions let the tests take a real tape apart (every prefix, every kind
 * changed, references moved out of range) and build objects from it.
 * Private (underscore) and not in __all__ or the stubs.
 */
#include "loads.h"

#include <stdlib.h>
#include <string.h>

PyObject *isojson_tape_of(PyObject *module, PyObject *data)
{
    Py_buffer in;
    if (PyObject_GetBuffer(data, &in, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    const isojson_engine_api *engine = isojson_engine();
    int backend = engine ? isojson_backend_index() : -1;
    loads_scratch *s = backend >= 0 ? loads_scratch_acquire() : NULL;
    PyObject *result = NULL;
    if (s != NULL) {
        isojson_error err = {.offset = 0};
        int rc = engine->parse(backend, in.buf, (size_t)in.len, &s->tape, &err);
        if (rc == ISOJSON_OK)
            result = Py_BuildValue("(y#y#)", (const char *)s->tape.words,
                                   (Py_ssize_t)(s->tape.len * sizeof(uint64_t)), (const char *)s->tape.arena,
                                   (Py_ssize_t)s->tape.arena_len);
        else
            PyErr_Format(PyExc_ValueError, "not a tape: the engine returned %d (%s)", rc, err.msg);
        loads_scratch_release(s);
    }
    PyBuffer_Release(&in);
    return result;
}

/* The tiny path's tape of data as words bytes, or None when it gives up
 * (tests/test_loads_tiny.py compares it with _tape's). */
PyObject *isojson_tiny_tape_of(PyObject *module, PyObject *data)
{
    Py_buffer in;
    if (PyObject_GetBuffer(data, &in, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    loads_scratch *s = loads_scratch_acquire();
    PyObject *result = NULL;
    if (s != NULL) {
        if (loads_tiny_tape(s, in.buf, (size_t)in.len))
            result = PyBytes_FromStringAndSize((const char *)s->tape.words,
                                               (Py_ssize_t)(s->tape.len * sizeof(uint64_t)));
        else
            result = Py_NewRef(Py_None);
        loads_scratch_release(s);
    }
    PyBuffer_Release(&in);
    return result;
}

PyObject *isojson_build_tape(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    isojson_state *st = isojson_live_state(module);
    if (st == NULL)
        return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_build_tape(words, arena, data)");
        return NULL;
    }
    Py_buffer words, arena, in;
    if (PyObject_GetBuffer(args[0], &words, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &arena, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&words);
        return NULL;
    }
    if (PyObject_GetBuffer(args[2], &in, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&words);
        PyBuffer_Release(&arena);
        return NULL;
    }
    PyObject *result = NULL;
    size_t nwords = (size_t)words.len / sizeof(uint64_t);
    /* Exactly-sized copies, so that a read past either end is a heap
     * overflow that the tests' PYTHONMALLOC=debug run or a sanitizer sees. */
    uint64_t *w = malloc(nwords ? nwords * sizeof(uint64_t) : 1);
    uint8_t *a = malloc(arena.len ? (size_t)arena.len : 1);
    uint8_t *input = malloc(in.len ? (size_t)in.len : 1);
    loads_scratch *s = NULL;
    if (w == NULL || a == NULL || input == NULL) {
        PyErr_NoMemory();
    } else if (words.len % sizeof(uint64_t) != 0) {
        PyErr_SetString(PyExc_ValueError, "words: a whole number of 64-bit words");
    } else if ((s = loads_scratch_acquire()) != NULL) {
        memcpy(w, words.buf, nwords * sizeof(uint64_t));
        memcpy(a, arena.buf, (size_t)arena.len);
        memcpy(input, in.buf, (size_t)in.len);
        isojson_tape saved = s->tape;
        s->tape = (isojson_tape){.words = w, .len = nwords, .cap = nwords, .arena = a,
                                 .arena_len = (size_t)arena.len, .arena_cap = (size_t)arena.len};
        result = loads_build(st, s, input, (size_t)in.len);
        s->tape = saved;
        loads_scratch_release(s);
    }
    free(w);
    free(a);
    free(input);
    PyBuffer_Release(&words);
    PyBuffer_Release(&arena);
    PyBuffer_Release(&in);
    return result;
}
