/* enum.Enum members → their `value`, serialized in the member's place (any
 * type, itself maybe an Enum); as a dict key under OPT_NON_STR_KEYS the value
 * becomes the key. */
#include "dumps.h"
#include "dumps_types.h"

/* enum.Enum's own `value` descriptor (an enum.property whose getter is
 * Enum.value, `return self._value_`), found at the first member and held:
 * a member whose class finds this one descriptor for `value` has its value
 * in _value_. NULL when enum.Enum.value is something else. */
static PyObject *stock_value(isojson_dumps_state *st)
{
    PyObject *d = dumps_type_slot(st, ISOJSON_T_ENUM_VALUE);
    PyObject *e = dumps_type_slot(st, ISOJSON_T_ENUM);
    if (d != NULL || e == NULL || !PyType_Check(e))
        return d;
    /* A strong reference from the lookup itself: on 3.14t another thread
     * may replace Enum.value meanwhile, freeing a borrowed one. */
    d = _PyType_LookupRef((PyTypeObject *)e, st->str_value);
    if (d == NULL)
        return NULL;
    /* Told apart by its getter's name and module: the descriptor may have
     * been replaced before isojson first saw a member. */
    int stock = 0;
    PyObject *fget = PyObject_GetAttrString(d, "fget");
    if (fget != NULL && PyFunction_Check(fget)) {
        PyObject *name = PyObject_GetAttrString(fget, "__qualname__");
        PyObject *module = PyFunction_GetModule(fget);
        stock = name != NULL && module != NULL && PyUnicode_Check(name) && PyUnicode_Check(module) &&
                PyUnicode_EqualToUTF8(name, "Enum.value") && PyUnicode_EqualToUTF8(module, "enum");
        Py_XDECREF(name);
    }
    Py_XDECREF(fget);
    PyErr_Clear();
    if (!stock) {
        Py_DECREF(d);
        return NULL;
    }
#ifdef Py_GIL_DISABLED
    /* Set once, from NULL, as dumps_types.c fills the types. */
    PyObject *expected = NULL;
    if (!__atomic_compare_exchange_n(&st->types[ISOJSON_T_ENUM_VALUE], &expected, d, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        Py_DECREF(d);
        return expected;
    }
#else
    st->types[ISOJSON_T_ENUM_VALUE] = d;
#endif
    return d;
}

/* The member's value, kept alive until the write. `value` is a property
 * (Python code: about 900 instructions a member, and the context is pinned
 * first); while the member's class finds Enum's own for it, its getter's
 * one line is done here instead: _value_ read by the generic getattr, which
 * the class has not replaced and which finds no class attribute of that
 * name (so it reads the instance's dict). */
static PyObject *enum_value(dumps_ctx *c, PyObject *o)
{
    isojson_dumps_state *st = c->st;
    if (dumps_pin(c) < 0)
        return NULL;
    PyTypeObject *t = Py_TYPE(o);
    PyObject *stock = stock_value(st);
    PyObject *value = NULL;
    if (stock != NULL && t->tp_getattro == PyObject_GenericGetAttr && _PyType_Lookup(t, st->str_value) == stock &&
        _PyType_Lookup(t, st->str_value_) == NULL) {
        if (PyObject_GetOptionalAttr(o, st->str_value_, &value) < 0)
            return NULL;
    }
    /* No _value_ (a member made by hand): the property says what is wrong. */
    if (value == NULL && (value = PyObject_GetAttr(o, st->str_value)) == NULL)
        return NULL;
    if (dumps_keep_owned(c, value) < 0)
        return NULL;
    return value;
}

/* A value that is an Enum member again nests one level deeper: bounded, as
 * containers are, so that a `value` that returns its own member raises
 * instead of recursing until the C stack overflows (orjson crashes). */
static int enter_value(dumps_ctx *c)
{
    if (c->enum_values >= DUMPS_MAX_DEPTH)
        return dumps_error("Recursion limit reached");
    c->enum_values++;
    return 0;
}

int dumps_enum(dumps_ctx *c, PyObject *o)
{
    PyObject *value = enum_value(c, o);
    if (value == NULL || enter_value(c) < 0)
        return -1;
    int rc = dumps_value(c, value);
    c->enum_values--;
    return rc;
}

int dumps_enum_key(dumps_ctx *c, PyObject *o)
{
    PyObject *value = enum_value(c, o);
    if (value == NULL)
        return -1;
    if (PyUnicode_CheckExact(value))
        return dumps_str(c, value);
    if (enter_value(c) < 0)
        return -1;
    int rc = dumps_nonstr_key(c, value);
    c->enum_values--;
    return rc;
}
