/* str → String entry pointing into the str's own storage.
 *
 * No copy and no PyUnicode_AsUTF8 (which would leave a UTF-8 copy attached to
 * the caller's string): ASCII data is already UTF-8; a non-ASCII str whose
 * UTF-8 form CPython has cached is referenced as UTF-8; any other str is
 * referenced in its own 1-, 2- or 4-byte layout and the writer transcodes it.
 * JSON (UTF-8) cannot carry a lone surrogate, so 2- and 4-byte data is checked
 * for one while building, as orjson refuses them. */
#include "dumps_internal.h"

static int has_surrogate_ucs2(const uint16_t *s, size_t n)
{
    size_t i = 0;
    /* Four code units at a time: a lane is a surrogate when its top five bits
     * are 11011. */
    for (; i + 4 <= n; i += 4) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        uint64_t y = (x & 0xF800F800F800F800ull) ^ 0xD800D800D800D800ull;
        if ((y - 0x0001000100010001ull) & ~y & 0x8000800080008000ull)
            return 1;
    }
    for (; i < n; i++)
        if ((s[i] & 0xF800) == 0xD800)
            return 1;
    return 0;
}

static int has_surrogate_ucs4(const uint32_t *s, size_t n)
{
    uint32_t found = 0;
    for (size_t i = 0; i < n; i++)
        found |= (s[i] - 0xD800u) < 0x800u;
    return found != 0;
}

int dumps_str(dumps_ctx *c, PyObject *o)
{
    size_t n = (size_t)PyUnicode_GET_LENGTH(o);
    const void *data = PyUnicode_DATA(o);
    if (PyUnicode_IS_ASCII(o)) {
        if (dumps_ref(c, ISOJSON_STRING, ISOJSON_ASCII, ISOJSON_UTF8, data, n, n) < 0)
            return -1;
        return dumps_keep_borrowed(c, o);
    }
    int kind = PyUnicode_KIND(o);
    enum isojson_class cls = kind == PyUnicode_1BYTE_KIND   ? ISOJSON_LATIN1
                             : kind == PyUnicode_2BYTE_KIND ? ISOJSON_BMP
                                                            : ISOJSON_ASTRAL;
    const PyCompactUnicodeObject *cu = (const PyCompactUnicodeObject *)o;
    if (cu->utf8 != NULL) {
        if (dumps_ref(c, ISOJSON_STRING, cls, ISOJSON_UTF8, cu->utf8, (size_t)cu->utf8_length, n) < 0)
            return -1;
        return dumps_keep_borrowed(c, o);
    }
    enum isojson_width width;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        width = ISOJSON_UCS1;
        break;
    case PyUnicode_2BYTE_KIND:
        if (has_surrogate_ucs2(data, n))
            return dumps_error("str is not valid UTF-8: surrogates not allowed");
        width = ISOJSON_UCS2;
        break;
    default:
        if (has_surrogate_ucs4(data, n))
            return dumps_error("str is not valid UTF-8: surrogates not allowed");
        width = ISOJSON_UCS4;
        break;
    }
    if (dumps_ref(c, ISOJSON_STRING, cls, width, data, n, n) < 0)
        return -1;
    return dumps_keep_borrowed(c, o);
}
