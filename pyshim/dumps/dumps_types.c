/* The order in which dumps tries the types that have no exact-type fast path
 * in dumps_value, as orjson 3.13 decides it: datetime, UUID, date, time (exact
 * types; the datetime ones unless OPT_PASSTHROUGH_DATETIME), subclasses of
 * str, int, list and dict unless OPT_PASSTHROUGH_SUBCLASS (float and tuple
 * subclasses never), Enum members (whose class's metaclass is exactly
 * enum.EnumType), dataclasses unless OPT_PASSTHROUGH_DATACLASS, numpy under
 * OPT_SERIALIZE_NUMPY, then default=.
 *
 * The types are looked up in the calling interpreter's own sys.modules and
 * cached in its module state; isojson never imports a module for them. */
#include "dumps.h"
#include "dumps_types.h"
#include "dumps_ft.h"

/* Groups of types, one per module, and the bit of st->found for each. */
typedef struct type_source {
    const char *module;
    unsigned bit;
    struct {
        enum isojson_cached_type which;
        const char *name;
    } attrs[14];
} type_source;

#define NATTRS 14

static const type_source SOURCES[] = {
    {"datetime", 1u << 0,
     {{ISOJSON_T_DATETIME, "datetime"}, {ISOJSON_T_DATE, "date"}, {ISOJSON_T_TIME, "time"},
      {ISOJSON_T_TIMEDELTA, "timedelta"}, {ISOJSON_T_TIMEZONE, "timezone"}}},
    {"uuid", 1u << 1, {{ISOJSON_T_UUID, "UUID"}}},
    {"enum", 1u << 2, {{ISOJSON_T_ENUMTYPE, "EnumType"}, {ISOJSON_T_ENUM, "Enum"}}},
    {"numpy", 1u << 3,
     {{ISOJSON_T_NDARRAY, "ndarray"},
      {ISOJSON_T_NP_FLOAT64, "float64"},
      {ISOJSON_T_NP_FLOAT32, "float32"},
      {ISOJSON_T_NP_FLOAT16, "float16"},
      {ISOJSON_T_NP_INT64, "int64"},
      {ISOJSON_T_NP_INT32, "int32"},
      {ISOJSON_T_NP_INT16, "int16"},
      {ISOJSON_T_NP_INT8, "int8"},
      {ISOJSON_T_NP_UINT64, "uint64"},
      {ISOJSON_T_NP_UINT32, "uint32"},
      {ISOJSON_T_NP_UINT16, "uint16"},
      {ISOJSON_T_NP_UINT8, "uint8"},
      {ISOJSON_T_NP_BOOL, "bool_"},
      {ISOJSON_T_NP_DATETIME64, "datetime64"}}},
    {"dataclasses", 1u << 4, {{ISOJSON_T_FIELD_MARKER, "_FIELD"}}},
};

static const type_source *source_of(enum isojson_cached_type which)
{
    for (size_t i = 0; i < sizeof SOURCES / sizeof SOURCES[0]; i++)
        for (int j = 0; j < NATTRS && SOURCES[i].attrs[j].name != NULL; j++)
            if (SOURCES[i].attrs[j].which == which)
                return &SOURCES[i];
    return NULL;
}

/* Fills a group from its module if the interpreter has imported it. Errors
 * (a module without the attribute, a failing lookup) leave it unfilled. */
static void fill(isojson_dumps_state *st, const type_source *src)
{
    PyObject *name = PyUnicode_FromString(src->module);
    if (name == NULL) {
        PyErr_Clear();
        return;
    }
    PyObject *mod = PyImport_GetModule(name);
    Py_DECREF(name);
    if (mod == NULL) {
        PyErr_Clear();
        return;
    }
    PyObject *got[NATTRS] = {NULL};
    int ok = 1;
    for (int j = 0; j < NATTRS && src->attrs[j].name != NULL; j++) {
        got[j] = PyObject_GetAttrString(mod, src->attrs[j].name);
        if (got[j] == NULL) {
            PyErr_Clear();
            ok = 0;
        }
    }
    Py_DECREF(mod);
#ifdef Py_GIL_DISABLED
    /* Threads of one interpreter may fill a group at once: each slot is set
     * once, from NULL, by whichever comes first (the others release theirs),
     * and published with release so that readers see the type whole. */
    for (int j = 0; j < NATTRS && src->attrs[j].name != NULL; j++) {
        PyObject *expected = NULL;
        if (!ok || !__atomic_compare_exchange_n(&st->types[src->attrs[j].which], &expected, got[j], 0,
                                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            Py_XDECREF(got[j]);
    }
    if (ok)
        __atomic_fetch_or(&st->found, src->bit, __ATOMIC_RELEASE);
#else
    for (int j = 0; j < NATTRS && src->attrs[j].name != NULL; j++) {
        if (ok)
            Py_XSETREF(st->types[src->attrs[j].which], got[j]);
        else
            Py_XDECREF(got[j]);
    }
    if (ok)
        st->found |= src->bit;
#endif
}

#ifdef Py_GIL_DISABLED
#define FOUND(st) __atomic_load_n(&(st)->found, __ATOMIC_ACQUIRE)
#else
#define FOUND(st) ((st)->found)
#endif

PyObject *dumps_type_find(isojson_dumps_state *st, enum isojson_cached_type which)
{
    const type_source *src = source_of(which);
    if (src == NULL || (FOUND(st) & src->bit))
        return NULL;
    fill(st, src);
    return dumps_type_slot(st, which);
}

const char dumps_digit_pairs[201] = "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
                                     "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* Whether some group has not been found yet, so that a dumps_type call may run
 * Python code: a lazy module (importlib.util.LazyLoader) in sys.modules
 * executes on its first attribute lookup, and that code may mutate the
 * container holding the borrowed object being serialized. */
static int lookups_pending(const isojson_dumps_state *st)
{
    const unsigned all = (1u << (sizeof SOURCES / sizeof SOURCES[0])) - 1;
    return (FOUND(st) & all) != all;
}

static int typed_value(dumps_ctx *c, PyObject *o)
{
    isojson_dumps_state *st = c->st;
    PyTypeObject *t = Py_TYPE(o);
    uint32_t opts = c->opts;
    int datetimes = !(opts & ISOJSON_OPT_PASSTHROUGH_DATETIME);
    if (datetimes && (PyObject *)t == dumps_type(st, ISOJSON_T_DATETIME))
        return dumps_datetime(c, o);
    if ((PyObject *)t == dumps_type(st, ISOJSON_T_UUID))
        return dumps_uuid(c, o, 0);
    if (datetimes) {
        if ((PyObject *)t == dumps_type(st, ISOJSON_T_DATE))
            return dumps_date(c, o);
        if ((PyObject *)t == dumps_type(st, ISOJSON_T_TIME))
            return dumps_time(c, o);
    }
    /* Subclasses before Enum members, as orjson: an IntEnum or a
     * (str, Enum) member is written as its int or str, which differs from
     * its value when its __new__ set _value_ to something else. */
    unsigned long flags = t->tp_flags;
    if (!(opts & ISOJSON_OPT_PASSTHROUGH_SUBCLASS)) {
        if (flags & Py_TPFLAGS_UNICODE_SUBCLASS)
            return dumps_str(c, o);
        if (flags & Py_TPFLAGS_LONG_SUBCLASS)
            return dumps_int(c, o);
        if (flags & Py_TPFLAGS_LIST_SUBCLASS)
            return dumps_list(c, o);
        if (flags & Py_TPFLAGS_DICT_SUBCLASS)
            return dumps_dict(c, o);
    }
    if ((PyObject *)Py_TYPE(t) == dumps_type(st, ISOJSON_T_ENUMTYPE) && Py_TYPE(t) != &PyType_Type)
        return dumps_enum(c, o);
    if (!(opts & ISOJSON_OPT_PASSTHROUGH_DATACLASS)) {
        int is = dumps_is_dataclass(c, t);
        if (is < 0)
            return -1;
        if (is)
            return dumps_dataclass(c, o);
    }
    if (opts & ISOJSON_OPT_SERIALIZE_NUMPY) {
        int rc = dumps_numpy(c, o);
        if (rc != DUMPS_NOT_MINE)
            return rc;
    }
    return dumps_default(c, o);
}

int dumps_typed_value(dumps_ctx *c, PyObject *o)
{
#ifdef Py_GIL_DISABLED
    /* Most types from here on may run Python code (a type lookup, getattr,
     * default=), which must not run while the locked walk holds its locks
     * (dumps_ft.h): the call is redone with snapshots. datetime, date and
     * time are the exception once their types have been looked up (a slot
     * still empty matches no type, and is not filled here): immutable, and
     * formatted from their fields by C alone (an aware datetime's utcoffset
     * pins first, dumps_pin, which ends the walk there). */
    if (c->ft_locked) {
        isojson_dumps_state *st = c->st;
        PyObject *t = (PyObject *)Py_TYPE(o);
        if (!(c->opts & ISOJSON_OPT_PASSTHROUGH_DATETIME)) {
            if (t == dumps_type_slot(st, ISOJSON_T_DATETIME))
                return dumps_datetime(c, o);
            if (t == dumps_type_slot(st, ISOJSON_T_DATE))
                return dumps_date(c, o);
            if (t == dumps_type_slot(st, ISOJSON_T_TIME))
                return dumps_time(c, o);
        }
        return dumps_ft_abort(c);
    }
#endif
    /* Keep o alive while a type lookup may run arbitrary code. One call
     * of typed_value, which is then inlined: its frame and the call cost
     * about 20 instructions a value. */
    int pending = lookups_pending(c->st);
    if (pending)
        Py_INCREF(o);
    int rc = typed_value(c, o);
    if (pending)
        Py_DECREF(o);
    return rc;
}

static int typed_key(dumps_ctx *c, PyObject *key)
{
    isojson_dumps_state *st = c->st;
    PyTypeObject *t = Py_TYPE(key);
    if ((PyObject *)t == dumps_type(st, ISOJSON_T_DATETIME))
        return dumps_datetime(c, key);
    if ((PyObject *)t == dumps_type(st, ISOJSON_T_DATE))
        return dumps_date(c, key);
    if ((PyObject *)t == dumps_type(st, ISOJSON_T_TIME))
        return dumps_time(c, key);
    if ((PyObject *)t == dumps_type(st, ISOJSON_T_UUID))
        return dumps_uuid(c, key, 1);
    if ((PyObject *)Py_TYPE(t) == dumps_type(st, ISOJSON_T_ENUMTYPE) && Py_TYPE(t) != &PyType_Type)
        return dumps_enum_key(c, key);
    return DUMPS_NOT_MINE;
}

int dumps_typed_key(dumps_ctx *c, PyObject *key)
{
    if (!lookups_pending(c->st))
        return typed_key(c, key);
    Py_INCREF(key);
    int rc = typed_key(c, key);
    Py_DECREF(key);
    return rc;
}
