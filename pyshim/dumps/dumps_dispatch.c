/* dumps: the walk of the object graph into a tape. It recurses, bounded by
 * orjson's depth limit (254 containers) with a small frame per level; exact
 * types are dispatched by pointer comparison first (dumps_dispatch.h), the
 * rest in orjson's order (dumps_types.c). */
#include "dumps.h"
#include "dumps_dispatch.h"

int dumps_value(dumps_ctx *c, PyObject *o)
{
    return dumps_value_inline(c, o);
}

/* What dumps_value_inline leaves: the exact types that are rare in documents
 * (tuple, Fragment), then every other type (dumps_types.c). */
int dumps_value_slow(dumps_ctx *c, PyObject *o)
{
    if (Py_TYPE(o) == &PyTuple_Type)
        return dumps_tuple(c, o);
    if (Py_TYPE(o) == c->st->FragmentType)
        return dumps_fragment(c, o);
    return dumps_typed_value(c, o);
}
