/* JSONDecodeError: a heap type made per interpreter as a subclass of THAT
 * interpreter's json.JSONDecodeError, so that `except json.JSONDecodeError`
 * catches isojson's errors in every interpreter, as it does orjson's. It is
 * raised with orjson's arguments (msg, doc, pos); json.JSONDecodeError's own
 * __init__ derives lineno and colno from doc and pos, exactly as for orjson.
 *
 * JSONEncodeError is TypeError itself, as in orjson.
 */
#include "isojson.h"

int isojson_errors_init(PyObject *module, isojson_state *st)
{
    PyObject *json = PyImport_ImportModule("json");
    if (json == NULL)
        return -1;
    PyObject *base = PyObject_GetAttrString(json, "JSONDecodeError");
    Py_DECREF(json);
    if (base == NULL)
        return -1;
    st->JSONDecodeError = PyErr_NewExceptionWithDoc(
        "isojson.JSONDecodeError", "Raised by isojson.loads() for invalid input; a subclass of json.JSONDecodeError.",
        base, NULL);
    Py_DECREF(base);
    if (st->JSONDecodeError == NULL)
        return -1;
    if (PyModule_AddObjectRef(module, "JSONDecodeError", st->JSONDecodeError) < 0)
        return -1;
    return PyModule_AddObjectRef(module, "JSONEncodeError", PyExc_TypeError);
}

void isojson_raise_decode_error(isojson_state *st, const char *msg, PyObject *doc, Py_ssize_t pos)
{
    if (st->JSONDecodeError == NULL) {
        /* The module was cleared (interpreter shutdown) and a finalizer
         * still called loads: its base class is the best we have. */
        PyErr_SetString(PyExc_ValueError, msg);
        return;
    }
    PyObject *empty = NULL;
    if (doc == NULL) {
        empty = PyUnicode_New(0, 0);
        if (empty == NULL)
            return;
        doc = empty;
    }
    PyObject *exc = PyObject_CallFunction(st->JSONDecodeError, "sOn", msg, doc, pos);
    Py_XDECREF(empty);
    if (exc == NULL)
        return;
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
}

/* The number of code points in the UTF-8 text s[0:n): Python counts
 * positions in characters, the parser in bytes. */
static Py_ssize_t utf8_chars(const uint8_t *s, size_t n)
{
    Py_ssize_t count = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        /* A byte starts a character unless it is 10xxxxxx. */
        uint64_t cont = w & ~(w << 1) & 0x8080808080808080ULL;
        count += 8 - __builtin_popcountll(cont);
    }
    for (; i < n; i++)
        count += (s[i] & 0xC0) != 0x80;
    return count;
}

void isojson_raise_syntax_error(isojson_state *st, const isojson_error *err, PyObject *input_str,
                                const uint8_t *src, size_t n)
{
    size_t off = err->offset < 0 ? 0 : (size_t)err->offset;
    if (off > n)
        off = n;
    PyObject *doc = NULL;
    Py_ssize_t pos = 0;
    if (input_str != NULL) {
        doc = Py_NewRef(input_str);
        pos = utf8_chars(src, off);
    } else {
        /* orjson's doc is the input as str, or '' when it is not UTF-8. */
        doc = PyUnicode_DecodeUTF8((const char *)src, (Py_ssize_t)n, "strict");
        if (doc == NULL) {
            PyErr_Clear();
        } else {
            pos = utf8_chars(src, off);
        }
    }
    isojson_raise_decode_error(st, err->msg, doc, pos);
    Py_XDECREF(doc);
}
