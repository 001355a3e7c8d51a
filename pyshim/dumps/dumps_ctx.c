/* The memory of one dumps call: the tape, the output buffer, the reference
 * lists and the scratch arena, all plain C memory.
 *
 * Each thread keeps the buffers of its last call (up to a size cap) so that a
 * call allocates nothing in the common case. A call takes the thread's buffers
 * and gives them back at the end; a nested call (dumps from inside default=)
 * finds none and allocates its own. The cache holds no Python object, so a
 * thread-local is allowed; a pthread key frees it when its thread exits. */
#include "dumps.h"
#include "dumps_ctx.h"
#include "dumps_keycache.h"
#include "dumps_ft.h"
#include "cpython/dumps_dict_read.h"

#include <pthread.h>
#include <stdlib.h>

/* Buffers above these sizes are freed after the call instead of cached. */
#define CACHE_MAX_WORDS ((size_t)1 << 20)   /* 8 MiB of tape */
#define CACHE_MAX_OUT ((size_t)16 << 20)    /* 16 MiB of output */
#define CACHE_MAX_OBJS ((size_t)1 << 16)
#define SCRATCH_CHUNK ((size_t)4096)
/* What a call starts with when nothing is cached. */
#define INITIAL_WORDS ((size_t)1024)
#define INITIAL_OBJS ((size_t)256)

static __thread dumps_buffers *tls_buffers;
/* The buffers buffers_key was last set to on this thread (for its
 * destructor at thread exit): set again only when the cached buffers change,
 * not on every call (pthread_setspecific was some 30 instructions of a
 * dumps(None) of ~600). Both thread-locals share one TLS lookup. */
static __thread dumps_buffers *tls_registered;
static pthread_key_t buffers_key;
static pthread_once_t buffers_once = PTHREAD_ONCE_INIT;

static void free_chunks(dumps_chunk *ch)
{
    while (ch != NULL) {
        dumps_chunk *next = ch->next;
        free(ch);
        ch = next;
    }
}

static void buffers_free(dumps_buffers *b)
{
    if (b == NULL)
        return;
    free(b->tape.words);
    free(b->tape.arena);
    free(b->out.data);
    free(b->borrowed.items);
    free(b->owned.items);
    free_chunks(b->scratch);
    free(b->keys);
#ifdef Py_GIL_DISABLED
    free(b->locks.items);
#endif
    free(b);
}

/* At thread exit; a dumps made later in the exit (another destructor) then
 * starts afresh instead of using what is freed here. */
static void buffers_destructor(void *p)
{
    if (tls_buffers == p)
        tls_buffers = NULL;
    tls_registered = NULL;
    buffers_free(p);
}

static void buffers_key_init(void) { (void)pthread_key_create(&buffers_key, buffers_destructor); }

/* The walk's cursors (dumps_cursor.h) need the tape and the borrowed list
 * (which may trade places with the owned one) allocated: a fresh context, or
 * one whose big arrays were freed instead of cached, gets small ones. */
static int buffers_ready(dumps_buffers *b)
{
    if (b->tape.words == NULL) {
        b->tape.words = malloc(INITIAL_WORDS * sizeof *b->tape.words);
        if (b->tape.words == NULL)
            return -1;
        b->tape.cap = INITIAL_WORDS;
    }
    /* dumps_pin may swap the two lists. */
    dumps_objlist *lists[2] = {&b->borrowed, &b->owned};
    for (int i = 0; i < 2; i++) {
        if (lists[i]->items == NULL) {
            lists[i]->items = malloc(INITIAL_OBJS * sizeof *lists[i]->items);
            if (lists[i]->items == NULL)
                return -1;
            lists[i]->cap = INITIAL_OBJS;
        }
    }
    return 0;
}

dumps_buffers *dumps_buffers_take(void)
{
    /* Before the walk: the check builds dicts. */
    dumps_dict_direct_check();
    dumps_buffers *b = tls_buffers;
    if (b != NULL) {
        tls_buffers = NULL;
    } else {
        b = calloc(1, sizeof *b);
        if (b == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        /* Zeroed: every slot empty. */
        b->keys = calloc(1, sizeof *b->keys);
        if (b->keys == NULL) {
            free(b);
            PyErr_NoMemory();
            return NULL;
        }
    }
    if (buffers_ready(b) < 0) {
        if (b == tls_registered) {
            /* The thread's destructor must not free it again. */
            (void)pthread_setspecific(buffers_key, NULL);
            tls_registered = NULL;
        }
        buffers_free(b);
        PyErr_NoMemory();
        return NULL;
    }
    return b;
}

/* Empties the key cache's slots that the call filled: their keys may be
 * freed once the call is over, and their addresses reused. */
static void keys_empty(dumps_keycache *kc)
{
    if (kc->nfilled > DUMPS_KEYSLOTS) {
        memset(kc->slots, 0, sizeof kc->slots);
    } else {
        for (size_t i = 0; i < kc->nfilled; i++) {
            kc->slots[kc->filled[i]].key = NULL;
            kc->slots[kc->filled[i] + 1].key = NULL;
        }
    }
    kc->nfilled = 0;
}

void dumps_buffers_give(dumps_buffers *b)
{
    keys_empty(b->keys);
    if (b->tape.cap > CACHE_MAX_WORDS) {
        free(b->tape.words);
        b->tape.words = NULL;
        b->tape.cap = 0;
    }
    if (b->out.cap > CACHE_MAX_OUT) {
        free(b->out.data);
        b->out.data = NULL;
        b->out.cap = 0;
    }
    if (b->borrowed.cap > CACHE_MAX_OBJS) {
        free(b->borrowed.items);
        b->borrowed.items = NULL;
        b->borrowed.cap = 0;
    }
    if (b->owned.cap > CACHE_MAX_OBJS) {
        free(b->owned.items);
        b->owned.items = NULL;
        b->owned.cap = 0;
    }
#ifdef Py_GIL_DISABLED
    if (b->locks.cap > CACHE_MAX_OBJS) {
        free(b->locks.items);
        b->locks.items = NULL;
        b->locks.cap = 0;
    }
    b->locks.len = 0;
#endif
    /* Keep one scratch chunk of the standard size. */
    dumps_chunk *keep = NULL, *ch = b->scratch;
    while (ch != NULL) {
        dumps_chunk *next = ch->next;
        if (keep == NULL && ch->cap == SCRATCH_CHUNK) {
            keep = ch;
            keep->next = NULL;
            keep->len = 0;
        } else {
            free(ch);
        }
        ch = next;
    }
    b->scratch = keep;
    b->tape.len = b->tape.arena_len = b->out.len = 0;
    b->borrowed.len = b->owned.len = 0;
    if (tls_buffers == NULL) {
        tls_buffers = b;
        if (tls_registered != b) {
            pthread_once(&buffers_once, buffers_key_init);
            (void)pthread_setspecific(buffers_key, b);
            tls_registered = b;
        }
        return;
    }
    buffers_free(b);
}

int dumps_grow_words(dumps_ctx *c, size_t need)
{
    size_t cap = c->tape.cap * 2;
    if (cap < need)
        cap = need;
    if (cap < 1024)
        cap = 1024;
    uint64_t *w = realloc(c->tape.words, cap * sizeof *w);
    if (w == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    c->tape.words = w;
    c->tape.cap = cap;
    return 0;
}

int dumps_objlist_grow(dumps_objlist *l)
{
    size_t cap = l->cap ? l->cap * 2 : 256;
    PyObject **items = realloc(l->items, cap * sizeof *items);
    if (items == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    l->items = items;
    l->cap = cap;
    return 0;
}

int dumps_keep_owned(dumps_ctx *c, PyObject *o)
{
    if (c->owned.len == c->owned.cap && dumps_objlist_grow(&c->owned) < 0) {
        Py_DECREF(o);
        return -1;
    }
    c->owned.items[c->owned.len++] = o;
    return 0;
}

int dumps_pin(dumps_ctx *c)
{
#ifdef Py_GIL_DISABLED
    /* Python code may run next: not while containers are held locked. */
    if (c->ft_locked)
        return dumps_ft_abort(c);
#endif
    if (c->owned.len == 0 && c->borrowed.len != 0) {
        /* The common case before a write without the GIL: nothing owned
         * yet. The borrowed list becomes the owned one as it is, with a
         * reference taken in place, instead of being copied. */
        dumps_objlist tmp = c->owned;
        c->owned = c->borrowed;
        c->borrowed = tmp;
        PyObject **items = c->owned.items;
        for (size_t i = 0, n = c->owned.len; i < n; i++)
            Py_INCREF(items[i]);
    }
    size_t need = c->owned.len + c->borrowed.len + (size_t)(c->depth - c->path_pinned);
    while (c->owned.cap < need)
        if (dumps_objlist_grow(&c->owned) < 0)
            return -1;
    for (size_t i = 0; i < c->borrowed.len; i++) {
        PyObject *o = c->borrowed.items[i];
        Py_INCREF(o);
        c->owned.items[c->owned.len++] = o;
    }
    c->borrowed.len = 0;
    for (int i = c->path_pinned; i < c->depth; i++) {
        PyObject *o = c->path[i];
        Py_INCREF(o);
        c->owned.items[c->owned.len++] = o;
    }
    c->path_pinned = c->depth;
    return 0;
}

void dumps_release(dumps_ctx *c)
{
    /* Python code may run here (a finalizer); the tape is no longer read. */
    for (size_t i = 0; i < c->owned.len; i++)
        Py_DECREF(c->owned.items[i]);
    c->owned.len = 0;
    c->borrowed.len = 0;
}

#ifdef Py_GIL_DISABLED
void dumps_ft_restart(dumps_ctx *c)
{
    dumps_ft_unlock_all(c);
    c->ft_locked = 0;
    c->ft_abort = 0;
    /* Nothing is locked now: a finalizer may run. */
    dumps_release(c);
    keys_empty(c->keys);
    c->tape.len = 0;
    c->tape.arena_len = 0;
    c->text = 0;
    c->depth = 0;
    c->default_calls = 0;
    c->enum_values = 0;
    c->path_pinned = 0;
}
#endif

uint8_t *dumps_scratch(dumps_ctx *c, size_t n)
{
    dumps_chunk *ch = c->scratch;
    if (ch != NULL && ch->cap - ch->len >= n) {
        uint8_t *p = ch->data + ch->len;
        ch->len += n;
        return p;
    }
    /* A new chunk; the old ones stay where they are (the tape points into
     * them). A cached empty chunk at the head is reused first. */
    size_t cap = n > SCRATCH_CHUNK ? n : SCRATCH_CHUNK;
    dumps_chunk *fresh = malloc(sizeof *fresh + cap);
    if (fresh == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    fresh->cap = cap;
    fresh->len = n;
    fresh->next = ch;
    c->scratch = fresh;
    return fresh->data;
}
