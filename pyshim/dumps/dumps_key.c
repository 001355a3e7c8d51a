/* OPT_NON_STR_KEYS: a dict key that is not an exact str becomes a String
 * entry with orjson's text for it: str subclasses as themselves, int in
 * decimal (within 64 bits), bool/None as true/false/null, float as the writer
 * prints it (NaN/Infinity as null), datetime/date/time and UUID as their JSON
 * strings, Enum by its value. Anything else is refused with orjson's (sic)
 * message; default= is not consulted for keys. */
#include "dumps.h"
#include "dumps_types.h"

#include <stdlib.h>

/* Keys made here are ASCII with nothing to escape: marked clean, so that the
 * writer copies them without scanning. */
static int key_text(dumps_ctx *c, const char *text, size_t n)
{
    return dumps_ref_clean(c, ISOJSON_STRING, ISOJSON_ASCII, ISOJSON_UTF8, text, n, n, 1);
}

static int decimal_digits(unsigned long long u)
{
    int n = 1;
    while (u >= 100) {
        u /= 100;
        n += 2;
    }
    return n + (u >= 10);
}

static int key_unsupported(void)
{
    return dumps_error("Dict key must a type serializable with OPT_NON_STR_KEYS");
}

static int key_int(dumps_ctx *c, PyObject *key)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(key, &overflow);
    unsigned long long u;
    int negative = 0;
    if (overflow == 0) {
        if (v == -1 && PyErr_Occurred())
            return -1;
        negative = v < 0;
        u = negative ? 0ull - (unsigned long long)v : (unsigned long long)v;
    } else {
        u = overflow > 0 ? PyLong_AsUnsignedLongLong(key) : (unsigned long long)-1;
        if (overflow < 0 || (u == (unsigned long long)-1 && PyErr_Occurred())) {
            PyErr_Clear();
            return dumps_error("Dict integer key must be within 64-bit range");
        }
    }
    /* Straight into the scratch arena, two digits a step from the end. */
    int digits = decimal_digits(u);
    char *start = dumps_text_begin(c);
    if (start == NULL)
        return -1;
    char *p = start + negative + digits, *end = p;
    while (u >= 100) {
        p -= 2;
        memcpy(p, dumps_digit_pairs + 2 * (u % 100), 2);
        u /= 100;
    }
    if (u >= 10) {
        p -= 2;
        memcpy(p, dumps_digit_pairs + 2 * u, 2);
    } else {
        *--p = (char)('0' + u);
    }
    if (negative)
        start[0] = '-';
    return dumps_text_finish(c, start, end);
}

/* The float's text exactly as the writer prints a float value: the engine
 * writes a one-entry tape. Float keys are rare; one extra call is cheap. */
static int key_float(dumps_ctx *c, PyObject *key)
{
    double d = PyFloat_AS_DOUBLE(key);
    uint64_t words[2];
    words[0] = dumps_kind(ISOJSON_FLOAT);
    memcpy(&words[1], &d, 8);
    isojson_tape t = {words, 2, 2, NULL, 0, 0};
    isojson_buf out = {NULL, 0, 0};
    isojson_error err;
    err.msg[0] = '\0';
    /* isojson_engine(), not the engine of the call's start (see dumps.c's
     * write_bytes: Python code may have fork()ed since). */
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return -1;
    int rc = engine->write(&t, NULL, 0, 0, &out, &err);
    if (rc != ISOJSON_OK) {
        free(out.data);
        if (rc == ISOJSON_NOMEM)
            return PyErr_NoMemory(), -1;
        return dumps_error(err.msg[0] ? err.msg : "internal error in the JSON writer");
    }
    uint8_t *text = dumps_scratch(c, out.len);
    if (text == NULL) {
        free(out.data);
        return -1;
    }
    memcpy(text, out.data, out.len);
    size_t n = out.len;
    free(out.data);
    return key_text(c, (const char *)text, n);
}

int dumps_nonstr_key(dumps_ctx *c, PyObject *key)
{
    PyTypeObject *t = Py_TYPE(key);
    if (PyUnicode_Check(key))
        return dumps_str(c, key);
    if (key == Py_None)
        return key_text(c, "null", 4);
    if (key == Py_True)
        return key_text(c, "true", 4);
    if (key == Py_False)
        return key_text(c, "false", 5);
    if (PyLong_Check(key))
        return key_int(c, key);
    if (t == &PyFloat_Type)
        return key_float(c, key);
    int rc = dumps_typed_key(c, key);
    if (rc != DUMPS_NOT_MINE)
        return rc;
    return key_unsupported();
}
