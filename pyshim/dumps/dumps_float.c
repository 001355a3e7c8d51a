/* float → Float entry with the IEEE-754 bits. The writer prints the shortest
 * round-trip digits in orjson's format and writes NaN and ±Infinity as null,
 * as orjson does. Only the exact float type comes here: orjson does not
 * serialize float subclasses (they go to default=). */
#include "dumps.h"

int dumps_float(dumps_ctx *c, PyObject *o)
{
    double d = PyFloat_AS_DOUBLE(o);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return dumps_number(c, ISOJSON_FLOAT, bits);
}
