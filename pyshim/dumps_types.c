/* The order in which dumps tries the types that have no exact-type fast path
 * in dumps_value, as orjson decides them: subclasses of str, int, list and
 * dict are serialized as their base type unless OPT_PASSTHROUGH_SUBCLASS;
 * float and tuple subclasses are not (orjson sends them to default=). */
#include "dumps_internal.h"
#include "dumps_types.h"

int dumps_other(dumps_ctx *c, PyObject *o)
{
    unsigned long flags = Py_TYPE(o)->tp_flags;
    if (!(c->opts & OPT_PASSTHROUGH_SUBCLASS)) {
        if (flags & Py_TPFLAGS_UNICODE_SUBCLASS)
            return dumps_str(c, o);
        if (flags & Py_TPFLAGS_LONG_SUBCLASS)
            return dumps_int(c, o);
        if (flags & Py_TPFLAGS_LIST_SUBCLASS)
            return dumps_list(c, o);
        if (flags & Py_TPFLAGS_DICT_SUBCLASS)
            return dumps_dict(c, o);
    }
    return dumps_default(c, o);
}

int dumps_typed_key(dumps_ctx *c, PyObject *key)
{
    (void)c;
    (void)key;
    return DUMPS_NOT_MINE;
}
