/* Fragment → Raw entry: its contents, exact bytes or exact str as in orjson,
 * are written verbatim, unchecked, as orjson does. bytes are referenced in
 * place; a str's UTF-8 is its own data (ASCII), its cached UTF-8, or a UTF-8
 * copy that the context keeps (never cached on the caller's str). */
#include "dumps.h"
#include "cpython/cpython_str.h"

static int raw(dumps_ctx *c, const void *data, size_t n)
{
    return dumps_ref(c, ISOJSON_RAW, ISOJSON_ASCII, ISOJSON_UTF8, data, n, 0);
}

int dumps_fragment(dumps_ctx *c, PyObject *frag)
{
    PyObject *contents = isojson_fragment_contents(frag);
    /* Exact types only, as orjson: a subclass may override anything. */
    if (PyBytes_CheckExact(contents)) {
        if (raw(c, PyBytes_AS_STRING(contents), (size_t)PyBytes_GET_SIZE(contents)) < 0)
            return -1;
        return dumps_keep_borrowed(c, contents);
    }
    if (!PyUnicode_CheckExact(contents)) {
        PyErr_Format(PyExc_TypeError, "%s's content is not of type bytes or str", Py_TYPE(frag)->tp_name);
        return -1;
    }
    if (PyUnicode_IS_ASCII(contents)) {
        if (raw(c, PyUnicode_DATA(contents), (size_t)PyUnicode_GET_LENGTH(contents)) < 0)
            return -1;
        return dumps_keep_borrowed(c, contents);
    }
    size_t utf8_len;
    const char *utf8_cached = isojson_str_cached_utf8(contents, &utf8_len);
    if (utf8_cached != NULL) {
        if (raw(c, utf8_cached, utf8_len) < 0)
            return -1;
        return dumps_keep_borrowed(c, contents);
    }
    PyObject *utf8 = PyUnicode_AsUTF8String(contents);
    if (utf8 == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return -1;
        PyErr_Clear();
        return dumps_error("str is not valid UTF-8: surrogates not allowed");
    }
    if (dumps_keep_owned(c, utf8) < 0)
        return -1;
    return raw(c, PyBytes_AS_STRING(utf8), (size_t)PyBytes_GET_SIZE(utf8));
}
