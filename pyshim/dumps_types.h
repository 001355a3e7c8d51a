/* The types dumps serializes without an exact-type fast path (dumps_types.c
 * dispatches them): subclasses, datetime, UUID, Enum, dataclasses, numpy. */
#ifndef ISOJSON_DUMPS_TYPES_H
#define ISOJSON_DUMPS_TYPES_H

#include "dumps_internal.h"

/* Returned by a serializer that does not handle the object it was given. */
#define DUMPS_NOT_MINE 1

/* A datetime/date/time, UUID or Enum dict key under OPT_NON_STR_KEYS:
 * appends its String entry (0), fails (-1) or is not one (DUMPS_NOT_MINE). */
int dumps_typed_key(dumps_ctx *c, PyObject *key);

#endif
