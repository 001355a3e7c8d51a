/* str objects from the parser's strings, allocated once at their final size
 * and width: the tape says how many code points a string has and the widest
 * one (its Class), so there is no second scan and no generic UTF-8 decode.
 * The bytes were validated by the parser; the loops still never write past
 * the object they were given, so a wrong count from a buggy backend raises
 * instead of corrupting memory.
 *
 * On x86 with SSSE3 the UCS2 and UCS4 decoders first run the kernel of
 * loads_utf8_simd.c (4 characters or 16 ASCII bytes a step; loads of long
 * Japanese strings 0.52 -> 0.25 ns/byte, the decoders' share of
 * loads(twitter) 8.8% -> 5.5%), which stops fewer than 16 bytes before the
 * end (or when the count runs out, or at a 4-byte sequence in a UCS2 str);
 * the loops below finish from there, and are the whole decoder elsewhere.
 */
#include "loads.h"
#include "loads_bytes.h"
#include "loads_utf8_simd.h"

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

/* UTF-8 → UCS2 or UCS4, one lead byte at a time with the common cases first
 * and no run setup per character: CJK text (3-byte sequences with single
 * ASCII spaces and punctuation between them) paid for an 8-byte run check
 * at every lone ASCII byte in the previous loop (this one decodes twitter's
 * non-ASCII strings ~10% faster: perf share against the parser's scanText
 * as yardstick, 0.69 -> 0.63). Eight ASCII bytes are still
 * widened at once when they come in a run. Every read is inside s[0:n)
 * (a sequence is decoded only when all its bytes are), every write inside
 * out[0:chars); a count that does not match the text raises. */
#define DECODE_WIDE(name, T, maxcp, simd)                                                            \
    static PyObject *name(const uint8_t *s, size_t n, size_t chars)                               \
    {                                                                                             \
        PyObject *u = PyUnicode_New((Py_ssize_t)chars, maxcp);                                    \
        if (u == NULL)                                                                            \
            return NULL;                                                                          \
        T *out = ISOJSON_COMPACT_DATA(u);                                                         \
        size_t i = 0, o = 0;                                                                      \
        if (SIMD_ON)                                                                              \
            simd(s, n, out, chars, &i, &o);                                                       \
        while (i < n) {                                                                           \
            if (o >= chars)                                                                       \
                return bad_count(u);                                                              \
            uint32_t b = s[i];                                                                    \
            if (b < 0x80) {                                                                       \
                if (i + 8 <= n && o + 8 <= chars) {                                               \
                    uint64_t w = loads_bytes_load64(s + i);                                           \
                    if ((w & 0x8080808080808080ULL) == 0) {                                       \
                        for (int k = 0; k < 8; k++)                                               \
                            out[o + k] = s[i + k];                                                \
                        i += 8;                                                                   \
                        o += 8;                                                                   \
                        continue;                                                                 \
                    }                                                                             \
                }                                                                                 \
                out[o++] = (T)b;                                                                  \
                i++;                                                                              \
            } else if (b >= 0xe0 && b < 0xf0 && i + 2 < n) {                                      \
                out[o++] = (T)((b & 0x0f) << 12 | (uint32_t)(s[i + 1] & 0x3f) << 6 | (s[i + 2] & 0x3f)); \
                i += 3;                                                                           \
            } else if (b < 0xe0 && i + 1 < n) {                                                   \
                out[o++] = (T)((b & 0x1f) << 6 | (s[i + 1] & 0x3f));                              \
                i += 2;                                                                           \
            } else if (maxcp > 0xffff && b >= 0xf0 && i + 3 < n) {                                \
                uint32_t c = (b & 0x07) << 18 | (uint32_t)(s[i + 1] & 0x3f) << 12 |               \
                             (uint32_t)(s[i + 2] & 0x3f) << 6 | (s[i + 3] & 0x3f);                \
                if (c > 0x10ffff)                                                                 \
                    return bad_count(u);                                                          \
                out[o++] = (T)c;                                                                  \
                i += 4;                                                                           \
            } else {                                                                              \
                /* Truncated, or beyond the class the tape gave. */                              \
                return bad_count(u);                                                              \
            }                                                                                     \
        }                                                                                         \
        if (o != chars)                                                                           \
            return bad_count(u);                                                                  \
        return u;                                                                                 \
    }
#if ISOJSON_UTF8_SIMD
#define SIMD_ON loads_utf8_simd_on
#else
#define SIMD_ON 0
#define loads_utf8_simd_ucs2(s, n, out, chars, i, o) ((void)0)
#define loads_utf8_simd_ucs4(s, n, out, chars, i, o) ((void)0)
#endif
DECODE_WIDE(ucs2, Py_UCS2, 0xffff, loads_utf8_simd_ucs2)
DECODE_WIDE(ucs4, Py_UCS4, 0x10ffff, loads_utf8_simd_ucs4)

PyObject *loads_str_from_utf8_wide(const uint8_t *s, size_t n, size_t chars, int cls)
{
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
