/* The isojson._isojson extension module: definition, per-interpreter state,
 * functions and constants.
 *
 * Multi-phase initialisation (PEP 489) with per-interpreter module state, so
 * that the module imports in every sub-interpreter, including those with
 * their own GIL (PEP 684). No Python object lives in a C static; the Go
 * engine is process-wide plain C state (engine_loader.c) and is loaded at the
 * first loads/dumps, not at import.
 */
#include "isojson.h"
#include "loads.h"

#define ISOJSON_VERSION "0.1.0"

isojson_state *isojson_get_state(PyObject *module) { return (isojson_state *)PyModule_GetState(module); }

isojson_state *isojson_live_state(PyObject *module)
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

/* A tuple of the names in text, a comma-separated list. */
static PyObject *names_tuple(const char *text)
{
    if (text == NULL || text[0] == '\0')
        return PyTuple_New(0);
    PyObject *names = PyUnicode_FromString(text);
    if (names == NULL)
        return NULL;
    PyObject *sep = PyUnicode_FromString(",");
    PyObject *list = sep ? PyUnicode_Split(names, sep, -1) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(names);
    if (list == NULL)
        return NULL;
    PyObject *tuple = PyList_AsTuple(list);
    Py_DECREF(list);
    return tuple;
}

/* _backend(): the name of the backend in use (loads the engine). */
static PyObject *module_backend(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return NULL;
    int idx = isojson_backend_index();
    if (idx < 0)
        return NULL;
    return PyUnicode_FromString(engine->backend_name(idx));
}

/* _backends(): the names of the backends compiled in, in rank order. */
static PyObject *module_backends(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return NULL;
    return names_tuple(engine->backends());
}

/* _writer(): the name of the writer in use (loads the engine). */
static PyObject *module_writer(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return NULL;
    int idx = isojson_writer_index();
    if (idx < 0)
        return NULL;
    return PyUnicode_FromString(engine->writer_name(idx));
}

/* _writers(): the names of the writers compiled in, in rank order. */
static PyObject *module_writers(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return NULL;
    return names_tuple(engine->writers());
}

/* _engine_version(): the engine library's version (loads the engine). */
static PyObject *module_engine_version(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return NULL;
    return PyUnicode_FromString(engine->version());
}

static PyMethodDef module_functions[] = {
    {"loads", (PyCFunction)isojson_loads, METH_O, "loads(obj, /)\n--\n\nDeserialize JSON to Python objects."},
    {"dumps", (PyCFunction)(void (*)(void))isojson_dumps, METH_FASTCALL | METH_KEYWORDS,
     "dumps(obj, /, default=None, option=None)\n--\n\nSerialize Python objects to JSON."},
    {"_backend", module_backend, METH_NOARGS, "The name of the parser backend in use."},
    {"_backends", module_backends, METH_NOARGS, "The names of the parser backends compiled in, in rank order."},
    {"_writer", module_writer, METH_NOARGS, "The name of the writer in use."},
    {"_writers", module_writers, METH_NOARGS, "The names of the writers compiled in, in rank order."},
    {"_engine_version", module_engine_version, METH_NOARGS, "The version of the Go engine library."},
    {"_tape", isojson_tape_of, METH_O, "For tests: the engine's tape of data, as (words, arena) bytes."},
    {"_build_tape", (PyCFunction)(void (*)(void))isojson_build_tape, METH_FASTCALL,
     "For tests: the objects of a tape (words, arena) of data; RuntimeError when it is malformed."},
    {NULL, NULL, 0, NULL},
};

/* orjson's option bits (api/options.go). */
static const struct {
    const char *name;
    long value;
} options[] = {
    {"OPT_APPEND_NEWLINE", 1 << 10},      {"OPT_INDENT_2", 1 << 0},
    {"OPT_NAIVE_UTC", 1 << 1},            {"OPT_NON_STR_KEYS", 1 << 2},
    {"OPT_OMIT_MICROSECONDS", 1 << 3},    {"OPT_PASSTHROUGH_DATACLASS", 1 << 11},
    {"OPT_PASSTHROUGH_DATETIME", 1 << 9}, {"OPT_PASSTHROUGH_SUBCLASS", 1 << 8},
    {"OPT_SERIALIZE_DATACLASS", 0},       {"OPT_SERIALIZE_NUMPY", 1 << 4},
    {"OPT_SERIALIZE_UUID", 0},            {"OPT_SORT_KEYS", 1 << 5},
    {"OPT_STRICT_INTEGER", 1 << 6},       {"OPT_UTC_Z", 1 << 7},
};

/* Adds the functions with __module__ "isojson" (not "isojson._isojson"), so
 * that names and messages read like orjson's ("isojson.loads() takes ..."). */
static int add_functions(PyObject *module)
{
    PyObject *modname = PyUnicode_FromString("isojson");
    if (modname == NULL)
        return -1;
    for (PyMethodDef *def = module_functions; def->ml_name != NULL; def++) {
        PyObject *f = PyCFunction_NewEx(def, module, modname);
        if (f == NULL || PyModule_Add(module, def->ml_name, f) < 0) {
            Py_DECREF(modname);
            return -1;
        }
    }
    Py_DECREF(modname);
    return 0;
}

static int module_exec(PyObject *module)
{
    isojson_state *st = isojson_get_state(module);
    if (add_functions(module) < 0)
        return -1;
    if (isojson_errors_init(module, st) < 0)
        return -1;
    if (isojson_keys_init(st) < 0)
        return -1;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (PyModule_AddIntConstant(module, options[i].name, options[i].value) < 0)
            return -1;
    if (PyModule_AddStringConstant(module, "__version__", ISOJSON_VERSION) < 0)
        return -1;
    return isojson_dumps_state_init(module, &st->dumps);
}

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    isojson_state *st = isojson_get_state(module);
    if (st == NULL)
        return 0;
    Py_VISIT(st->JSONDecodeError);
    return isojson_dumps_state_traverse(&st->dumps, visit, arg);
}

static int module_clear(PyObject *module)
{
    isojson_state *st = isojson_get_state(module);
    if (st == NULL)
        return 0;
    Py_CLEAR(st->JSONDecodeError);
    isojson_keys_clear(st);
    isojson_dumps_state_clear(&st->dumps);
    return 0;
}

static void module_free(void *module) { module_clear((PyObject *)module); }

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
    {0, NULL},
};

static struct PyModuleDef isojson_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "isojson._isojson",
    .m_doc = "Fast JSON with orjson's API, for every interpreter: the CPython side of isojson.",
    .m_size = sizeof(isojson_state),
    .m_methods = NULL,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit__isojson(void) { return PyModuleDef_Init(&isojson_module); }
