/* The buffers one dumps call owns (dumps_ctx.c), cached per thread. */
#ifndef ISOJSON_DUMPS_CTX_H
#define ISOJSON_DUMPS_CTX_H

#include "dumps.h"

#pragma GCC visibility push(hidden)

typedef struct dumps_buffers {
    isojson_tape tape;
    isojson_buf out;
    dumps_objlist borrowed, owned;
    dumps_chunk *scratch;
    dumps_keycache *keys;  /* the key cache (dumps_keycache.h) */
#ifdef Py_GIL_DISABLED
    dumps_objlist locks;       /* the locked walk's held containers (dumps_ft.h) */
    unsigned snapshot_calls;   /* calls left that take snapshots after an abort */
#endif
} dumps_buffers;

/* Takes this thread's cached buffers, or fresh empty ones (NULL with
 * MemoryError). */
dumps_buffers *dumps_buffers_take(void);
/* Empties the buffers and caches them for the thread's next call. */
void dumps_buffers_give(dumps_buffers *b);
/* Releases every reference the context owns. */
void dumps_release(dumps_ctx *c);

#ifdef Py_GIL_DISABLED
/* After an aborted locked walk (dumps_ft.h): every lock released, every
 * reference dropped, the tape, the key cache and the counts emptied, for
 * the walk again with snapshots. */
void dumps_ft_restart(dumps_ctx *c);
#endif

#pragma GCC visibility pop

#endif
