/* The types dumps serializes without an exact-type fast path (dumps_types.c
 * dispatches them in orjson's order): datetime, UUID, Enum, subclasses of the
 * builtins, dataclasses, numpy. Their types live in other modules and are
 * found in the calling interpreter's sys.modules (dumps_types.c). */
#ifndef ISOJSON_DUMPS_TYPES_H
#define ISOJSON_DUMPS_TYPES_H

#include "dumps_internal.h"

#pragma GCC visibility push(hidden)

/* Returned by a serializer that does not handle the object it was given. */
#define DUMPS_NOT_MINE 1

/* The cached type `which`, looking for its module in sys.modules first when
 * it has not been found yet; NULL (no error) while that module is not
 * imported: then no instance of it can exist. */
PyObject *dumps_type(isojson_dumps_state *st, enum isojson_cached_type which);

/* A datetime/date/time, UUID or Enum dict key under OPT_NON_STR_KEYS:
 * appends its String entry (0), fails (-1) or is not one (DUMPS_NOT_MINE). */
int dumps_typed_key(dumps_ctx *c, PyObject *key);

/* dumps_datetime.c: kind is ISOJSON_T_DATETIME, _DATE or _TIME. as_key
 * appends a String entry instead of a Plain one. */
int dumps_datetime(dumps_ctx *c, PyObject *o, enum isojson_cached_type kind, int as_key);
/* dumps_uuid.c */
int dumps_uuid(dumps_ctx *c, PyObject *o, int as_key);
/* dumps_enum.c: the member's value, as a value or as a key. */
int dumps_enum(dumps_ctx *c, PyObject *o);
int dumps_enum_key(dumps_ctx *c, PyObject *o);
/* dumps_dataclass.c */
int dumps_is_dataclass(dumps_ctx *c, PyTypeObject *t);
int dumps_dataclass(dumps_ctx *c, PyObject *o);
/* dumps_numpy.c: DUMPS_NOT_MINE when o is no numpy array or scalar. */
int dumps_numpy(dumps_ctx *c, PyObject *o);

/* Appends a Plain (value) or String (key) entry for ASCII text that needs
 * no escaping, stored in the scratch arena. */
int dumps_plain_text(dumps_ctx *c, const char *text, size_t n, int as_key);

#pragma GCC visibility pop

#endif
