/* The tape of a dumps call, written as JSON into the bytes object returned.
 *
 * Text of a few KiB or more is written by the engine straight into the
 * storage of that bytes object: created at an estimated size, grown through a
 * callback when the estimate falls short, cut to the written length at the
 * end, so there is no intermediate buffer to copy from. Shorter text goes
 * through the thread's cached C buffer and one copy into a bytes object of
 * the exact size: there the copy costs less than the resize would, and the
 * writer's reservations (it wants up to 77 bytes of room ahead of every
 * member) would otherwise leave a short bytes object largely empty. */
#include "dumps.h"
#include "dumps_write.h"
#include "dumps_ft.h"

#include <stdatomic.h>

/* Tapes from this size on are written without the GIL, so that other threads
 * of the interpreter run meanwhile, when taking a reference to every object
 * the tape points into (so that those threads cannot free them) costs little
 * beside the write: few borrowed strings for the tape's size. */
#define WRITE_UNLOCKED_MIN_WORDS 65536


/* ---- the size estimate ---- */

/* The last long dumps (of any thread), for compact [0] and indented [1]
 * output: its bytes of text per tape word, in 1/16ths (0: none yet), and its
 * number of tape words. A program tends to dump documents of one shape again
 * and again, for which words times that ratio is nearly exact, even when a
 * few long strings make most of the text. The ratio is trusted in full only
 * for a tape of about the same size (half to twice as many words); for any
 * other it is capped at 16 bytes a word, which bounds the slack when the
 * shape changes. A far-off guess is safe either way: too small costs
 * regrowth (a realloc, as orjson's own writer does), too big costs slack that
 * the final resize gives back in place.
 * Process-wide relaxed atomics rather than thread-locals: a thread-local
 * lookup in a dlopen()ed library is a call, and threads that overwrite each
 * other's figures only make the guess worse. Only calls of 2 KB of text or
 * more store. */
typedef struct last_text {
    _Atomic size_t per_word16, words;
} last_text;
static last_text last[2];
#define PER_WORD16_FIRST_COMPACT (8 * 16)
#define PER_WORD16_FIRST_INDENT (12 * 16)
#define PER_WORD16_MIN 16                 /* 1 byte a word */
#define PER_WORD16_CAP (16 * 16)          /* 16 bytes a word, for another shape */
#define PER_WORD16_MAX ((size_t)1 << 32)  /* keeps words * ratio from overflowing */

/* The estimate's 1/8 of headroom, and the room the writer reserves ahead of
 * a member (a comma, a short key and the longest scalar: 77 bytes). */
static size_t with_headroom(size_t n) { return n + n / 8 + 128; }

static size_t estimate_text(const dumps_ctx *c, int indent)
{
    size_t r = atomic_load_explicit(&last[indent].per_word16, memory_order_relaxed);
    size_t last_words = atomic_load_explicit(&last[indent].words, memory_order_relaxed);
    size_t words = c->tape.len;
    if (r == 0)
        r = indent ? PER_WORD16_FIRST_INDENT : PER_WORD16_FIRST_COMPACT;
    else if (r > PER_WORD16_CAP && (words / 2 > last_words || words < last_words / 2))
        r = PER_WORD16_CAP;
    size_t est;
    if (__builtin_mul_overflow(words, r, &est))
        est = (size_t)PY_SSIZE_T_MAX / 2;
    return with_headroom(est / 16 + c->tape.arena_len);
}

static void learn_text(const dumps_ctx *c, int indent, size_t text_len)
{
    if (c->tape.len == 0)
        return;
    size_t r = text_len / c->tape.len < PER_WORD16_MAX / 16 ? (text_len * 16 + c->tape.len - 1) / c->tape.len
                                                             : PER_WORD16_MAX;
    if (r < PER_WORD16_MIN)
        r = PER_WORD16_MIN;
    atomic_store_explicit(&last[indent].per_word16, r, memory_order_relaxed);
    atomic_store_explicit(&last[indent].words, c->tape.len, memory_order_relaxed);
}

/* ---- the bytes object as the engine's output buffer ---- */

typedef struct out_bytes {
    PyObject *bytes;           /* refcount 1, reachable by nobody else until returned */
    PyThreadState *released;   /* while the write runs without the GIL: its thread state */
} out_bytes;

/* A bytes object of n bytes that is ours alone (n >= 2: PyBytes_FromStringAndSize
 * shares the empty one). Where a learnt estimate cannot be had (a strict-
 * overcommit system), the plain one of 16 bytes a word is tried: growth
 * covers the rest. */
static PyObject *new_output(const dumps_ctx *c, size_t n)
{
    if (n > (size_t)PY_SSIZE_T_MAX / 2)
        n = (size_t)PY_SSIZE_T_MAX / 2;
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    size_t plain = with_headroom(c->tape.len * (PER_WORD16_CAP / 16) + c->tape.arena_len);
    if (b == NULL && plain < n && PyErr_ExceptionMatches(PyExc_MemoryError)) {
        PyErr_Clear();
        b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)plain);
    }
    return b;
}

/* isojson_grow_fn: called by the engine, inside the write, on this thread,
 * when the text outgrows the bytes object. */
static int out_grow(void *ctx, isojson_buf *out, size_t need)
{
    out_bytes *ob = ctx;
    if (need > (size_t)PY_SSIZE_T_MAX / 2)
        return -1;
    /* The object allocator needs the GIL (PYTHONMALLOC=debug checks it, and
     * an own-GIL sub-interpreter has allocator state of its own), so a write
     * without the GIL takes it back for the resize. No Python code runs
     * meanwhile: resizing a bytes object allocates nothing the GC tracks,
     * and nobody else can reach this one. */
    if (ob->released != NULL)
        PyEval_RestoreThread(ob->released);
    int rc = _PyBytes_Resize(&ob->bytes, (Py_ssize_t)need);
    if (ob->released != NULL)
        ob->released = PyEval_SaveThread();
    if (rc < 0)
        return -1;  /* ob->bytes is NULL, MemoryError set */
    out->data = (uint8_t *)PyBytes_AS_STRING(ob->bytes);
    out->cap = need;
    return 0;
}

PyObject *dumps_write_failed(int rc, const isojson_error *err)
{
    if (rc == ISOJSON_NOMEM) {
        /* A failed resize has said so already. */
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    PyErr_Format(PyExc_TypeError, "%s", err->msg[0] ? err->msg : "internal error in the JSON writer");
    return NULL;
}

/* learn: record the text's length for the next estimate (not for a short
 * tape sized from its counted text: its bytes a word say nothing of the next
 * long tape's). */
static PyObject *write_direct(dumps_ctx *c, const isojson_engine_api *engine, uint32_t opts, size_t est, int learn)
{
    out_bytes ob = {new_output(c, est), NULL};
    if (ob.bytes == NULL)
        return NULL;
    isojson_buf out = {(uint8_t *)PyBytes_AS_STRING(ob.bytes), 0, (size_t)PyBytes_GET_SIZE(ob.bytes)};
    isojson_error err;
    err.offset = 0;
    err.msg[0] = '\0';
    int rc;
    if (c->tape.len >= WRITE_UNLOCKED_MIN_WORDS && c->borrowed.len <= c->tape.len / 8) {
        if (dumps_pin(c) < 0) {
            Py_DECREF(ob.bytes);
            return NULL;
        }
#ifdef Py_GIL_DISABLED
        /* The locked walk's locks must not be held without the thread
         * state (dumps_ft.h); pinned, the tape needs them no more. */
        dumps_ft_unlock_all(c);
#endif
        ob.released = PyEval_SaveThread();
        rc = engine->write_into(&c->tape, NULL, 0, opts, &out, out_grow, &ob, &err);
        PyEval_RestoreThread(ob.released);
        ob.released = NULL;
    } else {
        rc = engine->write_into(&c->tape, NULL, 0, opts, &out, out_grow, &ob, &err);
    }
    if (rc != ISOJSON_OK) {
        Py_XDECREF(ob.bytes);
        return dumps_write_failed(rc, &err);
    }
    if (ob.bytes == NULL || out.data != (uint8_t *)PyBytes_AS_STRING(ob.bytes) ||
        out.len > (size_t)PyBytes_GET_SIZE(ob.bytes)) {
        /* Never: the engine broke the write_into contract. */
        Py_XDECREF(ob.bytes);
        PyErr_SetString(PyExc_SystemError, "isojson: the JSON writer lost its output buffer");
        return NULL;
    }
    if (learn)
        learn_text(c, (opts & ISOJSON_OPT_INDENT_2) != 0, out.len);
#ifdef Py_GIL_DISABLED
    /* The free-threaded build allocates with mimalloc, whose realloc moves
     * a large block that shrinks: the whole text copied again (467 KB for
     * twitter.json, 8% of the call's instructions). The bytes object is
     * ours alone, so when the text fills the estimate to within its
     * headroom it keeps the block and only its size is set, as
     * _PyBytes_Resize sets it after a realloc (the block is freed by
     * address; the slack is at most 1/8 of it and 256 bytes). */
    size_t cap = (size_t)PyBytes_GET_SIZE(ob.bytes);
    if (out.len >= 2 && out.len < cap && cap - out.len <= cap / 8 + 256) {
        Py_SET_SIZE(ob.bytes, (Py_ssize_t)out.len);
        PyBytes_AS_STRING(ob.bytes)[out.len] = '\0';
        return ob.bytes;
    }
#endif
    if (_PyBytes_Resize(&ob.bytes, (Py_ssize_t)out.len) < 0)
        return NULL;
    return ob.bytes;
}

PyObject *dumps_write_long(dumps_ctx *c, const isojson_engine_api *engine, uint32_t opts, isojson_buf *small)
{
    size_t est = estimate_text(c, (opts & ISOJSON_OPT_INDENT_2) != 0);
    if (est < DUMPS_DIRECT_MIN_BYTES && c->tape.len < WRITE_UNLOCKED_MIN_WORDS)
        return dumps_write_copied(c, engine, opts, small);
    return write_direct(c, engine, opts, est, 1);
}

PyObject *dumps_write_text(dumps_ctx *c, const isojson_engine_api *engine, uint32_t opts)
{
    size_t nl = (opts & ISOJSON_OPT_APPEND_NEWLINE) != 0;
    uint64_t h = c->tape.words[0];
    const uint64_t shape = (0xffULL << ISOJSON_KIND_SHIFT) | (3ULL << ISOJSON_WIDTH_SHIFT) | ISOJSON_CLEAN_BIT;
    const uint64_t clean_utf8 = dumps_kind(ISOJSON_STRING) | (uint64_t)ISOJSON_UTF8 << ISOJSON_WIDTH_SHIFT |
                                ISOJSON_CLEAN_BIT;
    size_t est;
    if (c->tape.len == 3 && (h & shape) == clean_utf8) {
        /* One clean str: its quotes, its text, the newline. The writer asks
         * for no more room than that for text over 16 bytes. */
        est = (size_t)(h & ISOJSON_LEN_MASK) + 2 + nl;
    } else {
        /* Counted text (short by its escapes and by uncounted strings: then
         * the write grows the bytes object), 16 bytes a word for the rest,
         * and the room the writer reserves ahead of a member. */
        est = c->text + c->tape.len * (PER_WORD16_CAP / 16) + c->tape.arena_len + 128 + nl;
    }
    return write_direct(c, engine, opts, est, 0);
}

void dumps_write_learn(const dumps_ctx *c, uint32_t opts, size_t text_len)
{
    learn_text(c, (opts & ISOJSON_OPT_INDENT_2) != 0, text_len);
}
