/* dumps(obj, /, default=None, option=None) -> bytes, as orjson 3.13.
 *
 * The arguments are checked exactly as orjson checks them; the object graph is
 * walked into a tape (dumps_value, dumps_dispatch.c: one serializer per type,
 * dumps_<type>.c), and one engine call writes the tape as JSON straight into
 * the bytes object returned (dumps_write.c). Also the dumps side's
 * per-interpreter state (dumps_state.h). */
#include "dumps.h"
#include "dumps_ctx.h"
#include "dumps_write.h"
#include "dumps_ft.h"

/* ---- arguments ---- */

/* orjson accepts only an exact int (or None). Its conversion has a quirk that
 * we reproduce: an int of one 30-bit digit must be within 0..4095; a larger
 * one is accepted, as no option at all, exactly when its low 30 bits are
 * zero. */
static int parse_option(PyObject *o, uint32_t *opts)
{
    *opts = 0;
    if (o == NULL || o == Py_None)
        return 0;
    if (Py_TYPE(o) != &PyLong_Type)
        return dumps_error("Invalid opts");
    if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        Py_ssize_t v = PyUnstable_Long_CompactValue((PyLongObject *)o);
        if (v < 0 || v > (Py_ssize_t)ISOJSON_OPT_MAX)
            return dumps_error("Invalid opts");
        *opts = (uint32_t)v;
        return 0;
    }
    unsigned long long low = PyLong_AsUnsignedLongLongMask(o);
    if (low == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if ((low & ((1u << 30) - 1)) != 0)
        return dumps_error("Invalid opts");
    return 0;
}

static int kw_is(PyObject *name, const char *want)
{
    return PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, want) == 0;
}

/* orjson reads positional arguments by bit tests of their count (2 → default,
 * 3 → default and option; 4 reads neither), and ignores extra ones. */
static int parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **default_fn,
                      uint32_t *opts)
{
    PyObject *def = NULL, *opt = NULL;
    if (nargs == 0)
        return dumps_error("dumps() missing 1 required positional argument: 'obj'");
    if ((nargs & 2) == 2)
        def = args[1];
    if ((nargs & 3) == 3)
        opt = args[2];
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t i = 0; i < nkw; i++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, i);
            if (kw_is(name, "option")) {
                if ((nargs & 3) == 3)
                    return dumps_error("dumps() got multiple values for argument: 'option'");
                opt = args[nargs + i];
            } else if (kw_is(name, "default")) {
                if ((nargs & 2) == 2)
                    return dumps_error("dumps() got multiple values for argument: 'default'");
                def = args[nargs + i];
            } else {
                return dumps_error("dumps() got an unexpected keyword argument");
            }
        }
    }
    if (parse_option(opt, opts) < 0)
        return -1;
    /* As orjson: an explicit default=None is called like any default (and
     * fails with "'NoneType' object is not callable" as the __cause__). */
    *default_fn = def;
    return 0;
}

PyObject *isojson_dumps(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *default_fn;
    uint32_t opts;
    isojson_state *st = isojson_live_state(module);
    if (st == NULL)
        return NULL;
    nargs = PyVectorcall_NARGS(nargs);
    if (parse_args(args, nargs, kwnames, &default_fn, &opts) < 0)
        return NULL;
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return NULL;
    dumps_buffers *b = dumps_buffers_take();
    if (b == NULL)
        return NULL;

    dumps_ctx c;
    c.tape = b->tape;
    c.opts = opts;
    c.depth = 0;
    c.default_calls = 0;
    c.enum_values = 0;
    c.default_fn = default_fn;
    c.st = &st->dumps;
    c.borrowed = b->borrowed;
    c.owned = b->owned;
    c.path_pinned = 0;
    c.scratch = b->scratch;
    c.keys = b->keys;
    c.tape.len = 0;
    c.tape.arena_len = 0;
    c.text = 0;

#ifdef Py_GIL_DISABLED
    /* The locked walk first (dumps_ft.h), for a document this thread made
     * (its root's owner, as CPython's biased reference count records it):
     * one that another thread made is likely shared, and two locked walks
     * of one document run one after the other where snapshots run side by
     * side. Not when this thread's last locked walk ended early lately, or
     * when the options need what it cannot do. */
    c.locks = b->locks;
    c.ft_abort = 0;
    c.ft_locked = 0;
    if (b->snapshot_calls != 0)
        b->snapshot_calls--;
    else if (!(opts & (ISOJSON_OPT_SORT_KEYS | ISOJSON_OPT_NON_STR_KEYS)) && _Py_IsOwnedByCurrentThread(args[0]))
        c.ft_locked = 1;
#endif
    PyObject *result = NULL;
    int rc = dumps_value(&c, args[0]);
#ifdef Py_GIL_DISABLED
    if (c.ft_abort) {
        dumps_ft_restart(&c);
        b->snapshot_calls = DUMPS_FT_SNAPSHOT_CALLS;
        rc = dumps_value(&c, args[0]);
    } else {
        /* The tape is whole: the write may pin (dumps_pin) and unlock. */
        c.ft_locked = 0;
    }
#endif
    if (rc == 0)
        result = dumps_write_bytes(&c, &b->out);

#ifdef Py_GIL_DISABLED
    /* Before anything that may run Python code. */
    dumps_ft_unlock_all(&c);
    b->locks = c.locks;
#endif
    /* Releasing may run finalizers, even a nested dumps: the tape is done. */
    dumps_release(&c);
    b->tape = c.tape;
    b->borrowed = c.borrowed;
    b->owned = c.owned;
    b->scratch = c.scratch;
    dumps_buffers_give(b);
    return result;
}

/* ---- per-interpreter state ---- */

int isojson_dumps_state_init(PyObject *module, isojson_dumps_state *st)
{
    memset(st, 0, sizeof *st);
    if (isojson_fragment_init(module, st) < 0)
        return -1;
#define INTERN(field, text)                                   \
    if ((st->field = PyUnicode_InternFromString(text)) == NULL) \
        return -1;
    INTERN(str_dataclass_fields, "__dataclass_fields__")
    INTERN(str_slots, "__slots__")
    INTERN(str_value, "value")
    INTERN(str_value_, "_value_")
    INTERN(str_int, "int")
    INTERN(str_utcoffset, "utcoffset")
    INTERN(str_array_struct, "__array_struct__")
    INTERN(str_field_type, "_field_type")
    INTERN(str_dict, "__dict__")
    INTERN(str_dtype, "dtype")
    INTERN(str_str, "str")
    INTERN(str_normalize, "normalize")
    INTERN(str_convert, "convert")
#undef INTERN
    return 0;
}

int isojson_dumps_state_traverse(isojson_dumps_state *st, visitproc visit, void *arg)
{
    Py_VISIT(st->FragmentType);
    for (int i = 0; i < ISOJSON_T_COUNT; i++)
        Py_VISIT(st->types[i]);
    return 0;
}

void isojson_dumps_state_clear(isojson_dumps_state *st)
{
    Py_CLEAR(st->FragmentType);
    for (int i = 0; i < ISOJSON_T_COUNT; i++)
        Py_CLEAR(st->types[i]);
    st->found = 0;
    Py_CLEAR(st->str_dataclass_fields);
    Py_CLEAR(st->str_slots);
    Py_CLEAR(st->str_value);
    Py_CLEAR(st->str_value_);
    Py_CLEAR(st->str_int);
    Py_CLEAR(st->str_utcoffset);
    Py_CLEAR(st->str_array_struct);
    Py_CLEAR(st->str_field_type);
    Py_CLEAR(st->str_dict);
    Py_CLEAR(st->str_dtype);
    Py_CLEAR(st->str_str);
    Py_CLEAR(st->str_normalize);
    Py_CLEAR(st->str_convert);
}
