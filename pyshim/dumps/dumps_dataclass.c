/* dataclasses → Object, as orjson 3.13 does it.
 *
 * A class is a dataclass when its own __dict__ has __dataclass_fields__
 * (a subclass that is not itself decorated is not one). If the instance has
 * a __dict__ and the class does not define __slots__, the members are that
 * __dict__'s items in order (every instance attribute, exact str keys only);
 * otherwise they are the class's fields (dataclasses._FIELD kind only, not
 * ClassVar or InitVar) read with getattr. Names starting with "_" are
 * skipped either way. Members are not sorted by OPT_SORT_KEYS, as in orjson.
 * A dataclass counts as a container for the depth limit. */
#include "dumps.h"
#include "dumps_ft.h"
#include "dumps_keycache.h"
#include "dumps_types.h"

/* What a class's own __dict__ says, cached by its version tag (see
 * dataclass_kind): */
#define KIND_KNOWN 1u
#define KIND_DATACLASS 2u /* it has __dataclass_fields__ */
#define KIND_SLOTS 4u     /* it has __slots__ */

static unsigned read_kind(PyTypeObject *t, isojson_dumps_state *st)
{
    unsigned kind = KIND_KNOWN;
    PyObject *dict = PyType_GetDict(t);
    if (dict == NULL)
        return kind;
    /* Contains with str keys in a class's dict compares strs only: no
     * Python code runs, and the tag read before still holds after. */
    if (PyDict_Contains(dict, st->str_dataclass_fields) == 1)
        kind |= KIND_DATACLASS;
    if (PyDict_Contains(dict, st->str_slots) == 1)
        kind |= KIND_SLOTS;
    PyErr_Clear();
    Py_DECREF(dict);
    return kind;
}

/* The class's kind: two dict lookups (about 200 instructions) once per
 * class, not for every instance and every other value that reaches the
 * dataclass test. Kept by the class's version tag (dumps_tagged_get) in
 * ISOJSON_DATACLASS_KINDS words of module state; a lost race on 3.14t costs
 * a lookup. */
static unsigned dataclass_kind(dumps_ctx *c, PyTypeObject *t)
{
    isojson_dumps_state *st = c->st;
    unsigned tag = dumps_type_tag(t);
    /* A class whose attributes nobody looked up yet (a C type such as
     * Decimal) has none until asked for one. */
    if (tag == 0 && PyUnstable_Type_AssignVersionTag(t))
        tag = dumps_type_tag(t);
    uint64_t *w = &st->dataclass_kinds[tag % ISOJSON_DATACLASS_KINDS];
    uint32_t kind;
    if (dumps_tagged_get(w, tag, &kind))
        return kind;
    kind = read_kind(t, st);
    dumps_tagged_put(w, t, tag, kind);
    return kind;
}

int dumps_is_dataclass(dumps_ctx *c, PyTypeObject *t) { return (dataclass_kind(c, t) & KIND_DATACLASS) != 0; }

static int starts_with_underscore(PyObject *name)
{
    return PyUnicode_GET_LENGTH(name) > 0 && PyUnicode_READ_CHAR(name, 0) == '_';
}

static int members_of_dict(dumps_ctx *c, PyObject *dict, size_t *count)
{
    PyObject *key, *value;
#ifdef Py_GIL_DISABLED
    /* One snapshot of the instance's __dict__ (dumps_ft.h). */
    size_t base;
    Py_ssize_t n = dumps_ft_dict(c, dict, &base);
    if (n < 0)
        return -1;
    for (Py_ssize_t j = 0; j < n; j++) {
        dumps_ft_pair(c, base, (size_t)j, &key, &value);
#else
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
#endif
        if (!PyUnicode_CheckExact(key))
            return dumps_error("Dict key must be str");
        if (starts_with_underscore(key))
            continue;
        /* Through the key cache: every instance of a class has the same
         * (interned) names, so after the first instance a name is three
         * tape words copied. */
        if (dumps_key(c, key) < 0 || dumps_value(c, value) < 0)
            return -1;
        (*count)++;
    }
    return 0;
}

static int members_of_fields(dumps_ctx *c, PyObject *o, size_t *count)
{
    isojson_dumps_state *st = c->st;
    PyObject *fields = PyObject_GetAttr(o, st->str_dataclass_fields);
    if (fields == NULL || dumps_keep_owned(c, fields) < 0)
        return -1;
    if (!PyDict_Check(fields))
        return dumps_error("__dataclass_fields__ is not a dict");
    PyObject *marker = dumps_type(st, ISOJSON_T_FIELD_MARKER);
    PyObject *name, *field;
#ifdef Py_GIL_DISABLED
    /* One snapshot of the fields (dumps_ft.h): getattr below runs Python code. */
    size_t base;
    Py_ssize_t nfields = dumps_ft_dict(c, fields, &base);
    if (nfields < 0)
        return -1;
    for (Py_ssize_t j = 0; j < nfields; j++) {
        dumps_ft_pair(c, base, (size_t)j, &name, &field);
#else
    Py_ssize_t pos = 0;
    while (PyDict_Next(fields, &pos, &name, &field)) {
#endif
        if (dumps_pin(c) < 0)
            return -1;
        PyObject *kind = PyObject_GetAttr(field, st->str_field_type);
        if (kind == NULL)
            return -1;
        Py_DECREF(kind); /* only compared; the field keeps it */
        if (kind != marker || !PyUnicode_Check(name) || starts_with_underscore(name))
            continue;
        /* name is borrowed from the fields dict, which the getattr below
         * may change: hold it first. */
        Py_INCREF(name);
        if (dumps_keep_owned(c, name) < 0)
            return -1;
        PyObject *value = PyObject_GetAttr(o, name);
        if (value == NULL || dumps_keep_owned(c, value) < 0)
            return -1;
        if ((PyUnicode_CheckExact(name) ? dumps_key(c, name) : dumps_str(c, name)) < 0 || dumps_value(c, value) < 0)
            return -1;
        (*count)++;
    }
    return 0;
}

int dumps_dataclass(dumps_ctx *c, PyObject *o)
{
    size_t at, count = 0;
    int rc;
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    if (dumps_open(c, ISOJSON_OBJECT, &at) < 0)
        goto fail;
    /* getattr may run Python code (__getattr__, properties). */
    if (dumps_pin(c) < 0)
        goto fail;
    PyObject *dict = PyObject_GetAttr(o, c->st->str_dict);
    if (dict == NULL) {
        PyErr_Clear();
        rc = members_of_fields(c, o, &count);
    } else {
        if (dumps_keep_owned(c, dict) < 0)
            goto fail;
        int slots = (dataclass_kind(c, Py_TYPE(o)) & KIND_SLOTS) != 0;
        rc = slots || !PyDict_Check(dict) ? members_of_fields(c, o, &count) : members_of_dict(c, dict, &count);
    }
    if (rc < 0)
        goto fail;
    dumps_close(c, at, count);
    dumps_leave(c);
    return 0;
fail:
    dumps_leave(c);
    return -1;
}
