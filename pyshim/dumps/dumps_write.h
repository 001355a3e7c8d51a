/* The end of a dumps call: the tape written as JSON into the bytes object
 * returned (dumps_write.c). The short path is inline here: it is the whole
 * write of the shortest, most frequent calls. */
#ifndef ISOJSON_DUMPS_WRITE_H
#define ISOJSON_DUMPS_WRITE_H

#include "dumps.h"
#include "dumps_small.h"

#pragma GCC visibility push(hidden)

/* From this estimated size on, the text is written straight into the bytes
 * object (measured: below it, the copy path is as fast or faster). */
#define DUMPS_DIRECT_MIN_BYTES 4096

/* Tapes shorter than this take the copy path, inline, without an estimate
 * (unless the walk counted DUMPS_DIRECT_MIN_BYTES of text in their strings:
 * dumps_write_text):
 * their calls are the shortest, where even the call to the estimate showed
 * (measured: 3-5% of a 33-word dumps at 32), and only a few long strings
 * could make their text long (then copied once, as it always was). The plain
 * estimate reaches DUMPS_DIRECT_MIN_BYTES at about 450 words anyway. */
#define DUMPS_DIRECT_MIN_WORDS 256

/* The exception for a failed engine write (NULL). */
PyObject *dumps_write_failed(int rc, const isojson_error *err);
/* Records the text length of a long call for the next estimate. */
void dumps_write_learn(const dumps_ctx *c, uint32_t opts, size_t text_len);
/* The write of a tape of DUMPS_DIRECT_MIN_WORDS or more: estimated, then copied or
 * direct; may release the GIL (after pinning what the tape points into). */
PyObject *dumps_write_long(dumps_ctx *c, const isojson_engine_api *engine, uint32_t opts, isojson_buf *small);

/* The write of a short tape with DUMPS_DIRECT_MIN_BYTES or more of counted
 * text (dumps_ctx.text): straight into the bytes object, sized from that
 * text; exactly for a tape of one clean UTF-8 str. */
PyObject *dumps_write_text(dumps_ctx *c, const isojson_engine_api *engine, uint32_t opts);

/* The text written into the thread's cached C buffer small, copied into a
 * bytes object of its exact size. */
static inline PyObject *dumps_write_copied(dumps_ctx *c, const isojson_engine_api *engine, uint32_t opts,
                                           isojson_buf *small)
{
    isojson_error err;
    err.offset = 0;
    err.msg[0] = '\0';
    small->len = 0;
    int rc = engine->write(&c->tape, NULL, 0, opts, small, &err);
    if (rc != ISOJSON_OK)
        return dumps_write_failed(rc, &err);
    /* Short text tells nothing the next call needs: short text again takes
     * this path whatever the estimate, and a long document after it is
     * estimated from the last long one. */
    if (small->len >= DUMPS_DIRECT_MIN_BYTES / 2 && c->tape.len >= DUMPS_DIRECT_MIN_WORDS)
        dumps_write_learn(c, opts, small->len);
    return PyBytes_FromStringAndSize((const char *)small->data, (Py_ssize_t)small->len);
}

/* Writes c's finished tape as JSON and returns it as a new bytes object, or
 * NULL with an exception set. small is the thread's cached C buffer. */
static inline PyObject *dumps_write_bytes(dumps_ctx *c, isojson_buf *small)
{
    /* The walk has put every object's members in key order already
     * (dumps_sort.c), so the writer need not sort again. */
    uint32_t opts = c->opts & ~ISOJSON_OPT_SORT_KEYS;
    /* A small tape of the kinds C writes exactly: no engine call. */
    if (c->tape.len <= DUMPS_SMALL_MAX_WORDS && c->text <= DUMPS_SMALL_MAX_BYTES && isojson_fast_writer_chosen()) {
        size_t n = dumps_write_small(&c->tape, opts, small);
        if (n == (size_t)-1)
            return PyErr_NoMemory();
        if (n != 0)
            return PyBytes_FromStringAndSize((const char *)small->data, (Py_ssize_t)n);
    }
    /* Not the engine of the call's start: Python code run by the walk
     * (default=, utcoffset...) may have fork()ed, and in the child that copy
     * is stale; isojson_engine() loads the child's own (an atomic load
     * otherwise). */
    const isojson_engine_api *engine = isojson_engine();
    if (engine == NULL)
        return NULL;
    isojson_engine_pace(engine, c->tape.len * sizeof(uint64_t));
    if (c->tape.len < DUMPS_DIRECT_MIN_WORDS) {
        if (c->text < DUMPS_DIRECT_MIN_BYTES)
            return dumps_write_copied(c, engine, opts, small);
        return dumps_write_text(c, engine, opts);
    }
    return dumps_write_long(c, engine, opts, small);
}

#pragma GCC visibility pop

#endif
