/* _benchhooks: what bench/python/callgrind.py needs inside the measured
 * process, and the floors it measures alone. Not part of isojson: built by
 * scripts/bench-callgrind into build/bench/, with the host's valgrind headers.
 *
 * Markers (client requests; no-ops outside valgrind):
 *   zero(x)         CALLGRIND_ZERO_STATS: counting starts again from 0
 *   dump(name)      CALLGRIND_DUMP_STATS_AT(name): a dump of the counts since zero, named
 *   on_valgrind()   RUNNING_ON_VALGRIND
 * Empty calls (the harness's own cost, subtracted from every row):
 *   noop(x)                           METH_O, returns None: the calling convention of loads
 *   noop_kw(*args, **kwargs)          METH_FASTCALL | METH_KEYWORDS, returns None: that of dumps
 * Floors, each a piece of a real call done alone:
 *   dumps_args(obj, /, default=None, option=None)
 *                   orjson's dumps argument parsing (positional bit tests, keyword names,
 *                   the option's type and range), then returns None
 *   loads_args(obj) loads' reading of its argument (bytes, bytearray, memoryview or str to
 *                   a pointer and a length), then returns None
 *   bytes_new(n)    a bytes object of n bytes, uninitialized (freed by the caller's loop)
 *   engine_open(path)     dlopen()s the Go engine (libisojson_engine.so.0) in this process
 *                         (in a process where isojson loaded it already: the same copy)
 *   engine_calls(n)       n calls of isojson_engine_abi (an engine call that does nothing:
 *                         the cgo crossing C -> Go -> C), in a C loop
 *   engine_yields(n)      n calls of isojson_engine_yield (runtime.Gosched: the pacing call
 *                         pyshim/engine_pace.c makes every 4 ms of engine use), in a C loop
 *   local_calls(n)        n calls of a local C function through the same kind of pointer:
 *                         the C loop's own cost, to subtract from engine_calls
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <valgrind/callgrind.h>

static PyObject *hooks_zero(PyObject *m, PyObject *x)
{
    CALLGRIND_ZERO_STATS;
    Py_RETURN_NONE;
}

static PyObject *hooks_dump(PyObject *m, PyObject *name)
{
    const char *s = PyUnicode_AsUTF8(name);
    if (s == NULL)
        return NULL;
    CALLGRIND_DUMP_STATS_AT(s);
    Py_RETURN_NONE;
}

static PyObject *hooks_on_valgrind(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong((long)RUNNING_ON_VALGRIND);
}

static PyObject *hooks_noop(PyObject *m, PyObject *x)
{
    Py_RETURN_NONE;
}

static PyObject *hooks_noop_kw(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_RETURN_NONE;
}

static int kw_is(PyObject *name, const char *want)
{
    return PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, want) == 0;
}

/* The work every dumps call does before it looks at its object, as orjson
 * defines the arguments: obj positional, default and option positional or by
 * keyword, option None or an int in [0, 2**32). */
static PyObject *hooks_dumps_args(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *def = NULL, *opt = NULL;
    nargs = PyVectorcall_NARGS(nargs);
    if (nargs == 0) {
        PyErr_SetString(PyExc_TypeError, "dumps_args() missing 1 required positional argument: 'obj'");
        return NULL;
    }
    if ((nargs & 2) == 2)
        def = args[1];
    if ((nargs & 3) == 3)
        opt = args[2];
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t i = 0; i < nkw; i++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, i);
            if (kw_is(name, "option"))
                opt = args[nargs + i];
            else if (kw_is(name, "default"))
                def = args[nargs + i];
            else {
                PyErr_SetString(PyExc_TypeError, "dumps_args() got an unexpected keyword argument");
                return NULL;
            }
        }
    }
    if (opt != NULL && opt != Py_None) {
        if (!PyLong_Check(opt)) {
            PyErr_SetString(PyExc_TypeError, "Invalid opts");
            return NULL;
        }
        long long v = PyLong_AsLongLong(opt);
        if ((v == -1 && PyErr_Occurred()) || v < 0 || v > 0xFFFFFFFFLL) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "Invalid opts");
            return NULL;
        }
    }
    (void)def;
    Py_RETURN_NONE;
}

static PyObject *hooks_loads_args(PyObject *m, PyObject *obj)
{
    const char *data = NULL;
    Py_ssize_t len = 0;
    if (PyBytes_Check(obj)) {
        data = PyBytes_AS_STRING(obj);
        len = PyBytes_GET_SIZE(obj);
    } else if (PyUnicode_Check(obj)) {
        data = PyUnicode_AsUTF8AndSize(obj, &len);
        if (data == NULL)
            return NULL;
    } else if (PyByteArray_Check(obj)) {
        data = PyByteArray_AS_STRING(obj);
        len = PyByteArray_GET_SIZE(obj);
    } else if (PyMemoryView_Check(obj)) {
        Py_buffer *view = PyMemoryView_GET_BUFFER(obj);
        data = view->buf;
        len = view->len;
    } else {
        PyErr_SetString(PyExc_TypeError, "Input must be bytes, bytearray, memoryview, or str");
        return NULL;
    }
    (void)data;
    (void)len;
    Py_RETURN_NONE;
}

static PyObject *hooks_bytes_new(PyObject *m, PyObject *n)
{
    Py_ssize_t size = PyLong_AsSsize_t(n);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    return PyBytes_FromStringAndSize(NULL, size);
}

static int (*engine_abi)(void);
static void (*engine_yield)(void);

static PyObject *hooks_engine_open(PyObject *m, PyObject *path)
{
    const char *p = PyUnicode_AsUTF8(path);
    if (p == NULL)
        return NULL;
    void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        PyErr_Format(PyExc_OSError, "dlopen %s: %s", p, dlerror());
        return NULL;
    }
    engine_abi = (int (*)(void))dlsym(h, "isojson_engine_abi");
    engine_yield = (void (*)(void))dlsym(h, "isojson_engine_yield");
    if (engine_abi == NULL || engine_yield == NULL) {
        PyErr_Format(PyExc_OSError, "%s lacks isojson_engine_abi or isojson_engine_yield", p);
        return NULL;
    }
    return PyLong_FromLong(engine_abi());
}

/* Called through a pointer the compiler cannot see through, as the engine's
 * functions are. */
static int __attribute__((noinline)) local_abi(void) { return 3; }
static int (*volatile local_fn)(void) = local_abi;

static PyObject *calls_loop(PyObject *n, int (*fn)(void))
{
    Py_ssize_t count = PyLong_AsSsize_t(n);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    long sum = 0;
    for (Py_ssize_t i = 0; i < count; i++)
        sum += fn();
    return PyLong_FromLong(sum);
}

static PyObject *hooks_engine_calls(PyObject *m, PyObject *n)
{
    if (engine_abi == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "engine_open() first");
        return NULL;
    }
    return calls_loop(n, engine_abi);
}

static int yield_once(void)
{
    engine_yield();
    return 1;
}

static PyObject *hooks_engine_yields(PyObject *m, PyObject *n)
{
    if (engine_yield == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "engine_open() first");
        return NULL;
    }
    return calls_loop(n, yield_once);
}

static PyObject *hooks_local_calls(PyObject *m, PyObject *n)
{
    return calls_loop(n, local_fn);
}

static PyMethodDef hooks_functions[] = {
    {"zero", hooks_zero, METH_O, "CALLGRIND_ZERO_STATS"},
    {"dump", hooks_dump, METH_O, "CALLGRIND_DUMP_STATS_AT(name)"},
    {"on_valgrind", hooks_on_valgrind, METH_NOARGS, "RUNNING_ON_VALGRIND"},
    {"noop", hooks_noop, METH_O, "The empty METH_O call."},
    {"noop_kw", (PyCFunction)(void (*)(void))hooks_noop_kw, METH_FASTCALL | METH_KEYWORDS,
     "The empty METH_FASTCALL | METH_KEYWORDS call."},
    {"dumps_args", (PyCFunction)(void (*)(void))hooks_dumps_args, METH_FASTCALL | METH_KEYWORDS,
     "dumps' argument parsing alone."},
    {"loads_args", hooks_loads_args, METH_O, "loads' reading of its argument alone."},
    {"bytes_new", hooks_bytes_new, METH_O, "An uninitialized bytes object of n bytes."},
    {"engine_open", hooks_engine_open, METH_O, "dlopen the Go engine; returns its ABI version."},
    {"engine_calls", hooks_engine_calls, METH_O, "n calls of isojson_engine_abi in a C loop."},
    {"engine_yields", hooks_engine_yields, METH_O, "n calls of isojson_engine_yield in a C loop."},
    {"local_calls", hooks_local_calls, METH_O, "n calls of a local function in the same loop."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot hooks_slots[] = {
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
    {0, NULL},
};

static struct PyModuleDef hooks_module = {
    PyModuleDef_HEAD_INIT, "_benchhooks", "Callgrind markers and cost floors for bench/python/callgrind.py.",
    0, hooks_functions, hooks_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__benchhooks(void)
{
    return PyModuleDef_Init(&hooks_module);
}
