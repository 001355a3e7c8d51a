/* str → String entry pointing into the str's own storage.
 *
 * No copy and no PyUnicode_AsUTF8 (which would leave a UTF-8 copy attached to
 * the caller's string): ASCII data is already UTF-8; a non-ASCII str whose
 * UTF-8 form CPython has cached is referenced as UTF-8; any other str is
 * referenced in its own 1-, 2- or 4-byte layout and the writer transcodes it.
 * One scan (dumps_scan.h, its short lengths inline) marks text that needs no escaping as Clean, so the
 * writer copies it blind, and finds lone surrogates in 2- and 4-byte data:
 * JSON (UTF-8) cannot carry them, and orjson refuses them. */
#include "dumps.h"
#include "cpython/cpython_str.h"
#include "dumps_scan.h"

static int surrogate_error(void) { return dumps_error("str is not valid UTF-8: surrogates not allowed"); }

int dumps_str(dumps_ctx *c, PyObject *o)
{
    size_t n = (size_t)PyUnicode_GET_LENGTH(o);
    const void *data = PyUnicode_DATA(o);
    if (PyUnicode_IS_ASCII(o)) {
        int clean = dumps_scan_bytes_inline(data, n) == 0;
        if (dumps_ref_clean(c, ISOJSON_STRING, ISOJSON_ASCII, ISOJSON_UTF8, data, n, n, clean) < 0)
            return -1;
        c->text += n;
        return dumps_keep_borrowed(c, o);
    }
    int kind = PyUnicode_KIND(o);
    enum isojson_class cls = kind == PyUnicode_1BYTE_KIND   ? ISOJSON_LATIN1
                             : kind == PyUnicode_2BYTE_KIND ? ISOJSON_BMP
                                                            : ISOJSON_ASTRAL;
    size_t len;
    const char *utf8 = isojson_str_cached_utf8(o, &len);
    if (utf8 != NULL) {
        /* Valid UTF-8 holds no surrogate. */
        int clean = dumps_scan_bytes_inline((const uint8_t *)utf8, len) == 0;
        if (dumps_ref_clean(c, ISOJSON_STRING, cls, ISOJSON_UTF8, utf8, len, n, clean) < 0)
            return -1;
        c->text += len;
        return dumps_keep_borrowed(c, o);
    }
    enum isojson_width width;
    int found;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        width = ISOJSON_UCS1;
        found = dumps_scan_bytes_inline(data, n);
        break;
    case PyUnicode_2BYTE_KIND:
        width = ISOJSON_UCS2;
        found = dumps_scan_ucs2_inline(data, n);
        break;
    default:
        width = ISOJSON_UCS4;
        found = dumps_scan_ucs4(data, n);
        break;
    }
    if (found & DUMPS_SCAN_SURROGATE)
        return surrogate_error();
    if (dumps_ref_clean(c, ISOJSON_STRING, cls, width, data, n, n, (found & DUMPS_SCAN_ESCAPE) == 0) < 0)
        return -1;
    /* The UTF-8 length is not known without a pass: its bound. */
    c->text += n * (size_t)(kind == PyUnicode_1BYTE_KIND ? 2 : kind == PyUnicode_2BYTE_KIND ? 3 : 4);
    return dumps_keep_borrowed(c, o);
}
