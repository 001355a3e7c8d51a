/* Loading the Go engine (libisojson_engine.so.0), and again in a
 * fork()ed child.
 *
 * When: the import starts it in the background (isojson_engine_preload), so
 * that the first call finds the Go runtime started instead of waiting the
 * 5-10 ms its start takes; the first call then resolves the engine's
 * functions and reads ISOJSON_BACKEND and ISOJSON_WRITER (cheap). The import
 * itself only creates that thread. ISOJSON_PRELOAD=0 keeps the whole load for
 * the first call, for a process that wants no Go runtime until it uses
 * isojson. A fork during the background load waits for it (atfork_prepare).
 *
 * Why a fresh copy after fork: a Go runtime does not survive fork(). The
 * child inherits the parent's engine mapping but none of its threads, and the
 * first call into that copy hangs. So the pthread_atfork child handler marks
 * the inherited engine stale, and the child's next call loads a private copy
 * of the library: memfd_create + the .so bytes + dlopen("/proc/self/fd/N").
 * The dynamic loader sees a new path, so it maps and initialises a second,
 * independent Go runtime; the stale copy stays mapped and is never called
 * again. Grandchildren repeat this.
 *
 * Nothing here holds a Python object: the engine is process-wide, shared by
 * every interpreter, and its state is plain C behind one mutex.
 */
#define _GNU_SOURCE
#include "isojson.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Not "*.so": a file with an extension module's suffix in the package would
 * be listed by pkgutil and pydoc as a submodule that fails to import. */
#define ENGINE_FILE "libisojson_engine.so.0"

/* The engine in use: published with release order once fully resolved. */
static _Atomic(const isojson_engine_api *) current;
static atomic_int current_backend = -1;
static atomic_int current_writer = -1;
/* 1 when the writer chosen is the fast one (the default): only then may
 * dumps write a small tape itself (dumps_small.c), whose bytes are the fast
 * writer's; any other writer, or a failed choice, sees every write. */
static atomic_int fast_writer_chosen = 0;

/* Guards every load and the fields below. The atfork handlers take it around
 * fork() so that a child never inherits it locked by a thread that the
 * child does not have. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static char *engine_path;      /* where the first copy was found (malloc) */
static int engine_fd = -1;     /* that file, kept open to copy it after fork */
static struct stat engine_stat; /* its identity, to notice a descriptor reused for another file */
static int stale;              /* set in a fork()ed child: `current` is unusable */
static void *preloaded;        /* the library opened by the background load, until the first call */
static atomic_int preload_started;
/* A call has tried to load: the background load, if it has not run yet, then
 * has nothing to do. Without it, a preload thread that ran after a failed
 * first call (its file no engine) mapped that file again and kept it, since
 * no later call closed it (tests/test_engine_loader.py). */
static int call_tried;

static void atfork_prepare(void) { pthread_mutex_lock(&load_lock); }
static void atfork_parent(void) { pthread_mutex_unlock(&load_lock); }
static void atfork_child(void)
{
    /* The child has one thread: re-initialise instead of unlocking a mutex
     * that another thread of the parent may have owned. */
    pthread_mutex_init(&load_lock, NULL);
    if (atomic_load_explicit(&current, memory_order_relaxed) != NULL || preloaded != NULL) {
        /* A preloaded library is the parent's started runtime too: just as
         * dead here (and never closed: its runtime cannot run its exit). */
        stale = 1;
        preloaded = NULL;
        atomic_store_explicit(&current, NULL, memory_order_release);
    }
}

static void register_atfork(void) { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); }

/* The engine's file: $ISOJSON_ENGINE, else next to this extension's .so. */
static char *find_engine_path(char *why, size_t whylen)
{
    const char *env = getenv("ISOJSON_ENGINE");
    if (env != NULL && env[0] != '\0')
        return strdup(env);
    Dl_info info;
    if (dladdr((void *)&isojson_engine, &info) == 0 || info.dli_fname == NULL) {
        snprintf(why, whylen, "cannot locate the isojson extension module to find " ENGINE_FILE
                              " next to it; set ISOJSON_ENGINE to its path");
        return NULL;
    }
    const char *slash = strrchr(info.dli_fname, '/');
    size_t dir = slash ? (size_t)(slash - info.dli_fname) + 1 : 0;
    char *p = malloc(dir + sizeof(ENGINE_FILE));
    if (p == NULL)
        return NULL;
    memcpy(p, info.dli_fname, dir);
    memcpy(p + dir, ENGINE_FILE, sizeof(ENGINE_FILE));
    return p;
}

/* Resolves every exported function of handle into a new api table. */
static isojson_engine_api *resolve(void *handle, const char *path, char *why, size_t whylen)
{
    isojson_engine_api api;
#define SYM(field, name)                                                                       \
    do {                                                                                       \
        *(void **)&api.field = dlsym(handle, name);                                            \
        if (api.field == NULL) {                                                               \
            snprintf(why, whylen, "%s: the isojson engine lacks %s", path, name);             \
            return NULL;                                                                       \
        }                                                                                      \
    } while (0)
    /* The ABI first: an engine of another ABI may lack newer symbols, and
     * "rebuild both" is the message that helps. */
    SYM(abi, "isojson_engine_abi");
    if (api.abi() != ISOJSON_ENGINE_ABI) {
        snprintf(why, whylen, "%s: engine ABI %d, the extension needs %d (rebuild both)", path, api.abi(),
                 ISOJSON_ENGINE_ABI);
        return NULL;
    }
    SYM(version, "isojson_engine_version");
    SYM(backends, "isojson_engine_backends");
    SYM(backend, "isojson_engine_backend");
    SYM(backend_name, "isojson_engine_backend_name");
    SYM(parse, "isojson_engine_parse");
    SYM(write, "isojson_engine_write");
    SYM(write_into, "isojson_engine_write_into");
    SYM(yield, "isojson_engine_yield");
    SYM(writers, "isojson_engine_writers");
    SYM(writer, "isojson_engine_writer");
    SYM(writer_name, "isojson_engine_writer_name");
    SYM(use_writer, "isojson_engine_use_writer");
#undef SYM
    isojson_engine_api *out = malloc(sizeof *out);
    if (out == NULL) {
        snprintf(why, whylen, "out of memory loading the isojson engine");
        return NULL;
    }
    *out = api;
    return out;
}

/* The engine file, for copying it after fork: the descriptor opened at the
 * first load when it still refers to that file (a daemon may have closed it,
 * and its number may now be another file), else the path opened anew. */
static int engine_source(struct stat *st_out)
{
    struct stat st;
    if (engine_fd >= 0 && fstat(engine_fd, &st) == 0 && st.st_dev == engine_stat.st_dev &&
        st.st_ino == engine_stat.st_ino) {
        *st_out = st;
        return dup(engine_fd);
    }
    int fd = open(engine_path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && fstat(fd, st_out) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Copies the whole of file src to dst; 0 on success, else errno. */
static int copy_file(int src, int dst)
{
    char buf[1 << 16];
    off_t off = 0;
    for (;;) {
        ssize_t n = pread(src, buf, sizeof buf, off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return 0;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(dst, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0)
                return errno;
            done += w;
        }
        off += n;
    }
}

/* Whether a library of this name is loaded. The dynamic loader returns a
 * loaded library whose name equals the path given to dlopen without opening
 * the file: a grandchild's "/proc/self/fd/4" would be its parent's copy,
 * inherited and stale, whenever the descriptor numbers repeat (they do: the
 * lowest free one, in the same descriptor table). */
static int name_loaded(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (h == NULL)
        return 0;
    dlclose(h);   /* the reference RTLD_NOLOAD took */
    return 1;
}

/* A private copy of the engine file for a fork()ed child: an anonymous memory
 * file with the same bytes, so that dlopen maps it as a new library, under a
 * name no loaded library has (the memory file moves to another descriptor
 * number until its /proc path is new). Where memfd_create or /proc is
 * unavailable, a temporary file (unlinked once mapped) does the same. */
static void *open_private_copy(char *why, size_t whylen)
{
    struct stat st;
    int src = engine_source(&st);
    if (src < 0) {
        snprintf(why, whylen, "reopening %s after fork: %s", engine_path, strerror(errno));
        return NULL;
    }
    void *h = NULL;
    int err;
    char path[4096];
    /* memfd_create and fcntl through syscall(2): their glibc wrappers
     * (memfd_create@GLIBC_2.27, fcntl64@GLIBC_2.28) would raise the glibc
     * the wheel needs from 2.17 to 2.28. */
    int mfd = (int)syscall(SYS_memfd_create, "isojson_engine", MFD_CLOEXEC);
    if (mfd >= 0) {
        err = copy_file(src, mfd);
        snprintf(path, sizeof path, "/proc/self/fd/%d", mfd);
        for (int tries = 0; err == 0 && mfd >= 0 && name_loaded(path) && tries < 1024; tries++) {
            int next = (int)syscall(SYS_fcntl, mfd, F_DUPFD_CLOEXEC, mfd + 1);
            close(mfd);
            mfd = next;
            snprintf(path, sizeof path, "/proc/self/fd/%d", mfd);
        }
        if (err == 0 && mfd >= 0 && access(path, R_OK) == 0 && !name_loaded(path))
            h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        /* The mapping keeps the memory file alive; the descriptor is not needed. */
        if (mfd >= 0)
            close(mfd);
        if (h != NULL) {
            close(src);
            return h;
        }
    }
    const char *dir = getenv("TMPDIR");
    int tfd = -1;
    /* A second name when the first is one an ancestor's copy had. */
    for (int tries = 0; tries < 2; tries++) {
        if (tfd >= 0) {
            close(tfd);
            unlink(path);
        }
        snprintf(path, sizeof path, "%s/isojson_engine_XXXXXX", dir && dir[0] ? dir : "/tmp");
        tfd = mkostemp(path, O_CLOEXEC);
        if (tfd < 0 || !name_loaded(path))
            break;
    }
    if (tfd < 0) {
        snprintf(why, whylen, "no private copy of %.200s after fork: memfd and %.200s: %s", engine_path, path,
                 strerror(errno));
        close(src);
        return NULL;
    }
    err = copy_file(src, tfd);
    close(src);
    close(tfd);
    if (err == 0) {
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL)
            snprintf(why, whylen, "loading a private copy of %s after fork: %s", engine_path, dlerror());
    } else {
        snprintf(why, whylen, "copying %s after fork: %s", engine_path, strerror(err));
    }
    unlink(path);
    return h;
}

/* Keeps the engine's file open, to copy it in a forked child (engine_source). */
static void remember_engine_file(void)
{
    if (engine_fd >= 0)
        return;
    engine_fd = open(engine_path, O_RDONLY | O_CLOEXEC);
    if (engine_fd >= 0 && fstat(engine_fd, &engine_stat) != 0) {
        close(engine_fd);
        engine_fd = -1;
    }
}

/* Loads (or reloads, in a forked child) the engine. Called with load_lock held. */
static const isojson_engine_api *load_engine(char *why, size_t whylen)
{
    void *h;
    const char *name;
    if (stale) {
        h = open_private_copy(why, whylen);
        name = engine_path;
    } else {
        if (engine_path == NULL) {
            engine_path = find_engine_path(why, whylen);
            if (engine_path == NULL) {
                if (why[0] == '\0')
                    snprintf(why, whylen, "out of memory loading the isojson engine");
                return NULL;
            }
        }
        name = engine_path;
        h = dlopen(engine_path, RTLD_NOW | RTLD_LOCAL);
        /* The background load's reference, if any, is this one's now: a
         * failed resolve below then unmaps what is no engine. */
        if (preloaded != NULL) {
            dlclose(preloaded);
            preloaded = NULL;
        }
        if (h == NULL) {
            snprintf(why, whylen, "cannot load the isojson engine: %s", dlerror());
            return NULL;
        }
        remember_engine_file();
    }
    if (h == NULL)
        return NULL;
    isojson_engine_api *api = resolve(h, name, why, whylen);
    if (api == NULL) {
        /* A wrong or incomplete engine file is never used: release it. An
         * engine of another ABI is a Go c-shared library, linked NODELETE, so
         * its running Go runtime stays mapped; anything else is unmapped. */
        dlclose(h);
        return NULL;
    }
    /* The backend choice is made once per process and engine copy. */
    isojson_error err = {0};
    const char *choice = getenv("ISOJSON_BACKEND");
    int idx = api->backend(choice, &err);
    atomic_store_explicit(&current_backend, idx, memory_order_relaxed);
    if (idx < 0) {
        snprintf(why, whylen, "ISOJSON_BACKEND: %s", err.msg);
        /* The engine itself is usable; isojson_backend_index reports this. */
    }
    /* The writer is chosen once too, and told to the engine, whose writes
     * then use it (or fail, saying why, when ISOJSON_WRITER names no usable
     * writer; isojson_writer_index reports it as ValueError). */
    isojson_error werr = {0};
    int widx = api->writer(getenv("ISOJSON_WRITER"), &werr);
    char wwhy[sizeof werr.msg + 32];
    snprintf(wwhy, sizeof wwhy, "ISOJSON_WRITER: %s", werr.msg);
    api->use_writer(widx, widx < 0 ? wwhy : NULL);
    atomic_store_explicit(&current_writer, widx, memory_order_relaxed);
    const char *wname = widx >= 0 ? api->writer_name(widx) : NULL;
    atomic_store_explicit(&fast_writer_chosen, wname != NULL && strcmp(wname, "fast") == 0, memory_order_relaxed);
    stale = 0;
    atomic_store_explicit(&current, api, memory_order_release);
    return api;
}

/* The timer slack of the Go runtime's own threads (see load_locked). */
#define GO_THREADS_TIMER_SLACK_NS 5000000UL

/* Loads the engine so that the Go runtime's own threads get a timer slack
 * of GO_THREADS_TIMER_SLACK_NS. Called with load_lock held.
 *
 * Why: the runtime's monitor thread (sysmon) polls with usleep(20) fifty
 * times in a row each time a call arrives after a pause of more than 10 ms
 * (it deep-sleeps when no thread runs Go code, and the next call wakes it
 * with a bet that work has resumed: runtime/proc.go, sysmon). On these
 * machines each wake-up costs about 15 us of CPU time (a timer and a
 * context switch in a virtual machine): about 1 ms per resumption, 4% of a
 * 25 ms burst of github.json loads, counted in the caller's process time.
 * The kernel rounds a sleep up by at most the thread's timer slack and lets
 * it end together with other timers; with 5 ms, those fifty polls spread
 * over the burst and most never happen before sysmon sleeps again: 77 Go
 * thread switches per burst of 700 github loads after a 30 ms pause became
 * 26, and the burst's CPU time per call equals that of an unbroken loop
 * (tests/test_engine_pace.py).
 *
 * The runtime has no setting for this, but a new thread inherits its
 * creator's timer slack (Linux, fork.c), and dlopen starts the runtime on a
 * thread created by this one, which creates sysmon and the runtime's other
 * threads. So the slack is set around the load and the caller's own is
 * restored. What sysmon does late by up to 5 ms does not matter here: it
 * preempts goroutines that run 10 ms (the engine's yield first:
 * engine_pace.c), retakes a P held 10 ms by a thread outside Go, polls a
 * network the engine does not use, and starts a forced GC every two
 * minutes. */
static const isojson_engine_api *load_locked(char *why, size_t whylen)
{
#ifdef PR_SET_TIMERSLACK
    int old = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    int set = old > 0 && prctl(PR_SET_TIMERSLACK, GO_THREADS_TIMER_SLACK_NS, 0, 0, 0) == 0;
#endif
    const isojson_engine_api *api = load_engine(why, whylen);
#ifdef PR_SET_TIMERSLACK
    if (set)
        prctl(PR_SET_TIMERSLACK, (unsigned long)old, 0, 0, 0);
#endif
    return api;
}

/* The background load: dlopen of the engine, which starts its Go runtime,
 * on a thread of its own with the Go threads' timer slack (they inherit it;
 * see load_locked). Nothing is resolved or chosen here: a failure is left to
 * the first call to find again and report. */
static void *preload_main(void *unused)
{
    (void)unused;
#ifdef PR_SET_TIMERSLACK
    prctl(PR_SET_TIMERSLACK, GO_THREADS_TIMER_SLACK_NS, 0, 0, 0);
#endif
    char why[512];
    why[0] = '\0';
    pthread_mutex_lock(&load_lock);
    if (atomic_load_explicit(&current, memory_order_acquire) == NULL && !stale && preloaded == NULL &&
        !call_tried) {
        if (engine_path == NULL)
            engine_path = find_engine_path(why, sizeof why);
        if (engine_path != NULL) {
            preloaded = dlopen(engine_path, RTLD_NOW | RTLD_LOCAL);
            if (preloaded == NULL)
                (void)dlerror();
            else
                remember_engine_file();
        }
    }
    pthread_mutex_unlock(&load_lock);
    return NULL;
}

void isojson_engine_preload(void)
{
    if (atomic_exchange_explicit(&preload_started, 1, memory_order_relaxed))
        return;
    if (atomic_load_explicit(&current, memory_order_acquire) != NULL)
        return;
    const char *env = getenv("ISOJSON_PRELOAD");
    if (env != NULL && strcmp(env, "0") == 0)
        return;
    /* Before the thread exists: a fork from now on waits for its load. */
    pthread_once(&atfork_once, register_atfork);
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    (void)pthread_create(&thread, &attr, preload_main, NULL); /* without it, the first call loads */
    pthread_attr_destroy(&attr);
}

const isojson_engine_api *isojson_engine(void)
{
    const isojson_engine_api *api = atomic_load_explicit(&current, memory_order_acquire);
    if (api != NULL)
        return api;
    pthread_once(&atfork_once, register_atfork);
    char why[512];
    why[0] = '\0';
    /* dlopen runs the Go runtime's initialisation, which takes milliseconds:
     * when the caller holds the GIL, let other threads run meanwhile (and
     * never wait for load_lock while holding it). */
    PyThreadState *ts = PyThreadState_GetUnchecked();
    if (ts != NULL)
        PyEval_SaveThread();
    pthread_mutex_lock(&load_lock);
    api = atomic_load_explicit(&current, memory_order_acquire);
    if (api == NULL) {
        call_tried = 1;
        api = load_locked(why, sizeof why);
    }
    pthread_mutex_unlock(&load_lock);
    if (ts != NULL) {
        PyEval_RestoreThread(ts);
        if (api == NULL)
            PyErr_SetString(PyExc_RuntimeError, why[0] ? why : "cannot load the isojson engine");
    }
    return api;
}

int isojson_backend_index(void)
{
    const isojson_engine_api *api = isojson_engine();
    if (api == NULL)
        return -1;
    int idx = atomic_load_explicit(&current_backend, memory_order_relaxed);
    if (idx >= 0)
        return idx;
    /* ISOJSON_BACKEND named something unusable: say so on every call. */
    isojson_error err = {0};
    if (api->backend(getenv("ISOJSON_BACKEND"), &err) < 0)
        PyErr_Format(PyExc_ValueError, "ISOJSON_BACKEND: %s", err.msg);
    else
        PyErr_SetString(PyExc_RuntimeError, "isojson: no backend chosen");
    return -1;
}

int isojson_fast_writer_chosen(void)
{
    return atomic_load_explicit(&fast_writer_chosen, memory_order_relaxed);
}

int isojson_writer_index(void)
{
    const isojson_engine_api *api = isojson_engine();
    if (api == NULL)
        return -1;
    int idx = atomic_load_explicit(&current_writer, memory_order_relaxed);
    if (idx >= 0)
        return idx;
    isojson_error err = {0};
    if (api->writer(getenv("ISOJSON_WRITER"), &err) < 0)
        PyErr_Format(PyExc_ValueError, "ISOJSON_WRITER: %s", err.msg);
    else
        PyErr_SetString(PyExc_RuntimeError, "isojson: no writer chosen");
    return -1;
}
