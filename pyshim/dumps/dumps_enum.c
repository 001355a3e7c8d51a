/* enum.Enum members → their `value`, serialized in the member's place (any
 * type, itself maybe an Enum); as a dict key under OPT_NON_STR_KEYS the value
 * becomes the key. */
#include "dumps.h"
#include "dumps_types.h"

/* The member's value, kept alive until the write. Enum.value is a property:
 * Python code, so the context is pinned first. */
static PyObject *enum_value(dumps_ctx *c, PyObject *o)
{
    if (dumps_pin(c) < 0)
        return NULL;
    PyObject *value = PyObject_GetAttr(o, c->st->str_value);
    if (value == NULL || dumps_keep_owned(c, value) < 0)
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
