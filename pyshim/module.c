/* The isojson._isojson extension module: definition, per-interpreter state,
 * functions and constants.
 *
 * Multi-phase initialisation (PEP 489) with per-interpreter module state, so
 * that the module imports in every sub-interpreter, including those with
 * their own GIL (PEP 684). No Python object lives in a C static; the Go
 * engine is process-wide plain C state (engine_loader.c); the first import
 * starts its load in the background (ISOJSON_PRELOAD=0: at the first call).
 */
#include "isojson.h"

/* isojson's version has one source, pyproject.toml: the build passes it as
 * -DISOJSON_VERSION="..." (build_backend/isojson_build/objects.py), to the
 * engine as well. */
#ifndef ISOJSON_VERSION
#error "ISOJSON_VERSION is not defined: build isojson with its build backend (pip install ., make build)"
#endif

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

static PyObject *module_pace_counts(PyObject *module, PyObject *Py_UNUSED(ignored))
{
    unsigned long yields, skipped;
    isojson_engine_pace_counts(&yields, &skipped);
    return Py_BuildValue("(kk)", yields, skipped);
}

/* What help(isojson.loads) and help(isojson.dumps) show: the signature line
 * (inspect reads it too) and what the call does, takes and raises. */
PyDoc_STRVAR(loads_doc,
             "loads(obj, /)\n--\n\n"
             "Deserialize JSON to Python objects.\n\n"
             "obj is the JSON text: bytes, bytearray or memoryview holding UTF-8, or str.\n"
             "Returns dict, list, str, int, float, bool or None; an integer of more than\n"
             "64 bits becomes an exact int. Of duplicate keys in an object the last wins.\n\n"
             "Raises JSONDecodeError (a subclass of json.JSONDecodeError and ValueError,\n"
             "with msg, pos, lineno and colno) for invalid JSON, invalid UTF-8, NaN or\n"
             "Infinity, nesting deeper than 1024 levels, or obj of another type.");

PyDoc_STRVAR(dumps_doc,
             "dumps(obj, /, default=None, option=None)\n--\n\n"
             "Serialize Python objects to JSON.\n\n"
             "Returns UTF-8 JSON as bytes, compact unless option says otherwise; non-ASCII\n"
             "text is written as it is, not escaped. Writes str, int, float, bool, None,\n"
             "dict, list, tuple, dataclass instances, datetime, date, time, enum members,\n"
             "uuid.UUID, Fragment, and numpy arrays and scalars with OPT_SERIALIZE_NUMPY.\n\n"
             "default, when given, is called with each object of another type and returns\n"
             "what to write in its place (or raises). option is OPT_* constants combined\n"
             "with |, for example OPT_INDENT_2 | OPT_SORT_KEYS.\n\n"
             "Raises JSONEncodeError (which is TypeError) for a type it cannot write, a\n"
             "dict key that is not str (unless OPT_NON_STR_KEYS), an int beyond 53 bits\n"
             "with OPT_STRICT_INTEGER, a str with surrogates, a circular reference or\n"
             "nesting deeper than 254 levels, and an invalid option; an exception raised\n"
             "by default is its __cause__.");

static PyMethodDef module_functions[] = {
    {"loads", (PyCFunction)isojson_loads, METH_O, loads_doc},
    {"dumps", (PyCFunction)(void (*)(void))isojson_dumps, METH_FASTCALL | METH_KEYWORDS, dumps_doc},
    {"_backend", module_backend, METH_NOARGS, "The name of the parser backend in use."},
    {"_backends", module_backends, METH_NOARGS, "The names of the parser backends compiled in, in rank order."},
    {"_writer", module_writer, METH_NOARGS, "The name of the writer in use."},
    {"_writers", module_writers, METH_NOARGS, "The names of the writers compiled in, in rank order."},
    {"_engine_version", module_engine_version, METH_NOARGS, "The version of the Go engine library."},
    {"_pace_counts", module_pace_counts, METH_NOARGS,
     "For tests: this thread's yields to the Go scheduler, and the checks that left one out, as (yields, skipped)."},
    {"_tape", isojson_tape_of, METH_O, "For tests: the engine's tape of data, as (words, arena) bytes."},
    {"_tiny_tape", isojson_tiny_tape_of, METH_O, "For tests: the tiny path's tape of data as words bytes, or None."},
    {"_build_tape", (PyCFunction)(void (*)(void))isojson_build_tape, METH_FASTCALL,
     "For tests: the objects of a tape (words, arena) of data; RuntimeError when it is malformed."},
    {NULL, NULL, 0, NULL},
};

/* orjson's option bits (engine/isojson_engine.h), added to the module under
 * orjson's names: OPTION(OPT_X) is {"OPT_X", ISOJSON_OPT_X}. */
#define OPTION(name) {#name, ISOJSON_##name}
static const struct {
    const char *name;
    long value;
} options[] = {
    OPTION(OPT_APPEND_NEWLINE),       OPTION(OPT_INDENT_2),
    OPTION(OPT_NAIVE_UTC),            OPTION(OPT_NON_STR_KEYS),
    OPTION(OPT_OMIT_MICROSECONDS),    OPTION(OPT_PASSTHROUGH_DATACLASS),
    OPTION(OPT_PASSTHROUGH_DATETIME), OPTION(OPT_PASSTHROUGH_SUBCLASS),
    OPTION(OPT_SERIALIZE_DATACLASS),  OPTION(OPT_SERIALIZE_NUMPY),
    OPTION(OPT_SERIALIZE_UUID),       OPTION(OPT_SORT_KEYS),
    OPTION(OPT_STRICT_INTEGER),       OPTION(OPT_UTC_Z),
};
#undef OPTION

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
    if (isojson_loads_state_init(st) < 0)
        return -1;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (PyModule_AddIntConstant(module, options[i].name, options[i].value) < 0)
            return -1;
    if (PyModule_AddStringConstant(module, "__version__", ISOJSON_VERSION) < 0)
        return -1;
    if (isojson_dumps_state_init(module, &st->dumps) < 0)
        return -1;
    isojson_engine_preload();
    return 0;
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
    isojson_loads_state_clear(st);
    isojson_dumps_state_clear(&st->dumps);
    return 0;
}

static void module_free(void *module) { module_clear((PyObject *)module); }

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#ifdef Py_GIL_DISABLED
    /* Free-threaded CPython: isojson keeps the GIL off. Every piece of
     * shared state is per thread, atomic or locked, and each container is
     * read as one snapshot inside its critical section (docs/free-threading.md). */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
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
