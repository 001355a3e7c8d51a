/* uuid.UUID (the exact type) → its canonical text, 8-4-4-4-12 lowercase hex
 * digits, from the 128-bit `int` attribute, as orjson writes it. */
#include "dumps.h"
#include "dumps_types.h"

/* Each byte's two lowercase hex digits: one 2-byte copy per byte instead
 * of two lookups and a branch on the dash positions per byte. */
static const char HEX_PAIRS[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static char *put_hex(char *p, const uint8_t *bytes, int n)
{
    for (int i = 0; i < n; i++)
        memcpy(p + 2 * i, HEX_PAIRS + 2 * bytes[i], 2);
    return p + 2 * n;
}

int dumps_uuid(dumps_ctx *c, PyObject *o, int as_key)
{
    if (dumps_pin(c) < 0)
        return -1;
    PyObject *value = PyObject_GetAttr(o, c->st->str_int);
    if (value == NULL)
        return -1;
    uint8_t bytes[16];
    Py_ssize_t n = PyLong_Check(value)
                       ? PyLong_AsNativeBytes(value, bytes, 16,
                                              Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER)
                       : -2;
    Py_DECREF(value);
    if (n == -1)
        return -1;
    if (n < 0 || n > 16)
        return dumps_error("UUID.int is not a 128-bit integer");
    (void)as_key; /* a key and a value are the same String entry */
    char *start = dumps_text_begin(c), *p = start;
    if (start == NULL)
        return -1;
    p = put_hex(p, bytes, 4);
    *p++ = '-';
    p = put_hex(p, bytes + 4, 2);
    *p++ = '-';
    p = put_hex(p, bytes + 6, 2);
    *p++ = '-';
    p = put_hex(p, bytes + 8, 2);
    *p++ = '-';
    p = put_hex(p, bytes + 10, 6);
    return dumps_text_finish(c, start, p);
}
