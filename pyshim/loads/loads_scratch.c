/* Per-thread scratch memory for loads(): the tape the engine fills and the
 * stack of open containers. It is plain C memory in a thread-local variable
 * (no Python object, so sharing it between interpreters on one thread is
 * fine), freed by a pthread key destructor when the thread exits. Memory
 * beyond the caps is returned after each call so that one huge document does
 * not pin megabytes on a thread forever.
 */
#include "loads.h"

#include <pthread.h>
#include <stdlib.h>

#define KEEP_WORDS (1u << 19)     /* 4 MiB of tape words */
#define KEEP_ARENA (1u << 20)     /* 1 MiB of unescaped strings */
#define INITIAL_FRAMES 64

static __thread loads_scratch thread_scratch;
static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(loads_scratch *s)
{
    free(s->tape.words);
    free(s->tape.arena);
    free(s->frames);
    memset(&s->tape, 0, sizeof s->tape);
    s->frames = NULL;
    s->nframes = 0;
}

static void thread_exit(void *p) { scratch_free((loads_scratch *)p); }
static void make_key(void) { pthread_key_create(&scratch_key, thread_exit); }

loads_scratch *loads_scratch_acquire(void)
{
    loads_scratch *s = &thread_scratch;
    if (!s->busy) {
        if (!s->cached) {
            pthread_once(&scratch_once, make_key);
            pthread_setspecific(scratch_key, s);
            s->cached = 1;
        }
        s->busy = 1;
        return s;
    }
    /* Re-entered on this thread (a __del__ run by the garbage collector
     * while we build objects can call loads): use a one-off scratch. */
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    s->busy = 1;
    return s;
}

void loads_scratch_release(loads_scratch *s)
{
    if (!s->cached) {
        scratch_free(s);
        free(s);
        return;
    }
    if (s->tape.cap > KEEP_WORDS) {
        free(s->tape.words);
        s->tape.words = NULL;
        s->tape.cap = 0;
    }
    if (s->tape.arena_cap > KEEP_ARENA) {
        free(s->tape.arena);
        s->tape.arena = NULL;
        s->tape.arena_cap = 0;
    }
    s->tape.len = s->tape.arena_len = 0;
    s->busy = 0;
}

int loads_scratch_frames(loads_scratch *s, size_t n)
{
    if (n <= s->nframes)
        return 0;
    size_t c = s->nframes ? s->nframes : INITIAL_FRAMES;
    while (c < n)
        c *= 2;
    loads_frame *f = realloc(s->frames, c * sizeof *f);
    if (f == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->frames = f;
    s->nframes = c;
    return 0;
}
