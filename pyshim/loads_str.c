/* str objects from the parser's strings, allocated once at their final size
 * and width: the tape says how many code points a string has and the widest
 * one (its Class), so there is no second scan and no generic UTF-8 decode.
 * The bytes were validated by the parser; the loops still never write past
 * the object they were given, so a wrong count from a buggy backend raises
 * instead of corrupting memory.
 */
#include "loads.h"

#include <string.h>

static PyObject *bad_count(PyObject *u)
{
    Py_DECREF(u);
    PyErr_SetString(PyExc_RuntimeError, "isojson engine: string length does not match its text");
    return NULL;
}

/* Copies the ASCII run at the start of s[0:n) to the 1-byte out, 8 bytes at a
 * time, and returns how many bytes it copied. */
static size_t ascii_run(const uint8_t *s, size_t n, Py_UCS1 *out, size_t room)
{
    size_t i = 0, lim = n < room ? n : room;
    while (i + 8 <= lim) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ULL)
            break;
        memcpy(out + i, &w, 8);
        i += 8;
    }
    while (i < lim && s[i] < 0x80) {
        out[i] = s[i];
        i++;
    }
    return i;
}

static PyObject *latin1(const uint8_t *s, size_t n, size_t chars)
{
    PyObject *u = PyUnicode_New((Py_ssize_t)chars, 0xff);
    if (u == NULL)
        return NULL;
    Py_UCS1 *out = ISOJSON_COMPACT_DATA(u);
    size_t i = 0, o = 0;
    while (i < n) {
        size_t k = ascii_run(s + i, n - i, out + o, chars - o);
        i += k;
        o += k;
        if (i >= n)
            break;
        /* C2 or C3 lead byte: U+0080..U+00FF. */
        if (o >= chars || i + 1 >= n)
            return bad_count(u);
        out[o++] = (Py_UCS1)(((s[i] & 0x1f) << 6) | (s[i + 1] & 0x3f));
        i += 2;
    }
    if (o != chars)
        return bad_count(u);
    return u;
}

/* Decodes one non-ASCII UTF-8 sequence at s[*i]; advances *i. */
static inline Py_UCS4 decode_one(const uint8_t *s, size_t n, size_t *i)
{
    size_t j = *i;
    uint8_t b = s[j];
    if (b < 0xe0) {
        if (j + 1 >= n)
            return 0xffffffff;
        *i = j + 2;
        return ((Py_UCS4)(b & 0x1f) << 6) | (s[j + 1] & 0x3f);
    }
    if (b < 0xf0) {
        if (j + 2 >= n)
            return 0xffffffff;
        *i = j + 3;
        return ((Py_UCS4)(b & 0x0f) << 12) | ((Py_UCS4)(s[j + 1] & 0x3f) << 6) | (s[j + 2] & 0x3f);
    }
    if (j + 3 >= n)
        return 0xffffffff;
    *i = j + 4;
    return ((Py_UCS4)(b & 0x07) << 18) | ((Py_UCS4)(s[j + 1] & 0x3f) << 12) | ((Py_UCS4)(s[j + 2] & 0x3f) << 6) |
           (s[j + 3] & 0x3f);
}

/* Widens the ASCII run at the start of s[0:n) into out (room code units), 8
 * bytes at a time, and returns how many bytes it consumed. Mostly-ASCII text
 * with a few wide characters (quotes, dashes, emoji) spends its time here. */
#define WIDEN_ASCII_RUN(name, T)                                                         \
    static inline size_t name(const uint8_t *s, size_t n, T *out, size_t room)           \
    {                                                                                    \
        size_t i = 0, lim = n < room ? n : room;                                         \
        while (i + 8 <= lim) {                                                           \
            uint64_t w;                                                                  \
            memcpy(&w, s + i, 8);                                                        \
            if (w & 0x8080808080808080ULL)                                               \
                break;                                                                   \
            for (int k = 0; k < 8; k++)                                                  \
                out[i + k] = s[i + k];                                                   \
            i += 8;                                                                      \
        }                                                                                \
        while (i < lim && s[i] < 0x80) {                                                 \
            out[i] = s[i];                                                               \
            i++;                                                                         \
        }                                                                                \
        return i;                                                                        \
    }
WIDEN_ASCII_RUN(ascii_run2, Py_UCS2)
WIDEN_ASCII_RUN(ascii_run4, Py_UCS4)

static PyObject *ucs2(const uint8_t *s, size_t n, size_t chars)
{
    PyObject *u = PyUnicode_New((Py_ssize_t)chars, 0xffff);
    if (u == NULL)
        return NULL;
    Py_UCS2 *out = ISOJSON_COMPACT_DATA(u);
    size_t i = 0, o = 0;
    while (i < n) {
        if (o >= chars)
            return bad_count(u);
        if (s[i] < 0x80) {
            size_t k = ascii_run2(s + i, n - i, out + o, chars - o);
            i += k;
            o += k;
            continue;
        }
        Py_UCS4 c = decode_one(s, n, &i);
        if (c > 0xffff)
            return bad_count(u);
        out[o++] = (Py_UCS2)c;
    }
    if (o != chars)
        return bad_count(u);
    return u;
}

static PyObject *ucs4(const uint8_t *s, size_t n, size_t chars)
{
    PyObject *u = PyUnicode_New((Py_ssize_t)chars, 0x10ffff);
    if (u == NULL)
        return NULL;
    Py_UCS4 *out = ISOJSON_COMPACT_DATA(u);
    size_t i = 0, o = 0;
    while (i < n) {
        if (o >= chars)
            return bad_count(u);
        if (s[i] < 0x80) {
            size_t k = ascii_run4(s + i, n - i, out + o, chars - o);
            i += k;
            o += k;
            continue;
        }
        Py_UCS4 c = decode_one(s, n, &i);
        if (c > 0x10ffff)
            return bad_count(u);
        out[o++] = c;
    }
    if (o != chars)
        return bad_count(u);
    return u;
}

PyObject *isojson_str_from_utf8(const uint8_t *s, size_t n, size_t chars, int cls)
{
    if (cls == ISOJSON_ASCII) {
        if (n == 1)
            return PyUnicode_FromOrdinal(s[0]);   /* CPython's cached 1-char str */
        PyObject *u = PyUnicode_New((Py_ssize_t)n, 0x7f);
        if (u != NULL && n > 0)
            memcpy(ISOJSON_ASCII_DATA(u), s, n);
        return u;
    }
    if (chars == 1 && n >= 2 && s[0] >= 0xc2) {
        /* One character: CPython's cached str for Latin-1 ones, as its own
         * decoder gives. */
        size_t i = 0;
        Py_UCS4 c = decode_one(s, n, &i);
        if (i == n && c <= 0x10ffff)
            return PyUnicode_FromOrdinal((int)c);
    }
    switch (cls) {
    case ISOJSON_LATIN1:
        return latin1(s, n, chars);
    case ISOJSON_BMP:
        return ucs2(s, n, chars);
    default:
        return ucs4(s, n, chars);
    }
}
