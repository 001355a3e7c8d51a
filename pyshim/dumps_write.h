/* The end of a dumps call: the tape written as JSON into the bytes object
 * returned (dumps_write.c). */
#ifndef ISOJSON_DUMPS_WRITE_H
#define ISOJSON_DUMPS_WRITE_H

#include "dumps_internal.h"

#pragma GCC visibility push(hidden)

/* Writes c's finished tape as JSON and returns it as a new bytes object, or
 * NULL with an exception set. small is the thread's cached C buffer, used
 * (and grown) for short text. May release the GIL during the write (after
 * pinning what the tape points into). */
PyObject *dumps_write_bytes(dumps_ctx *c, isojson_buf *small);

#pragma GCC visibility pop

#endif
