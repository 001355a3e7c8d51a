/* uuid.UUID (the exact type) → its canonical text, 8-4-4-4-12 lowercase hex
 * digits, from the 128-bit `int` attribute, as orjson writes it. */
#include "dumps_internal.h"
#include "dumps_types.h"

int dumps_uuid(dumps_ctx *c, PyObject *o, int as_key)
{
    static const char hex[] = "0123456789abcdef";
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
    char text[36], *p = text;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *p++ = '-';
        *p++ = hex[bytes[i] >> 4];
        *p++ = hex[bytes[i] & 15];
    }
    return dumps_plain_text(c, text, sizeof text, as_key);
}
