/* The C ABI of the isojson Go engine (libisojson_engine.so, built with
 * `go build -buildmode=c-shared ./pyshim/engine`). The engine knows nothing
 * of CPython; the extension module dlopen()s it at first use and calls these
 * through function pointers (pyshim/engine_loader.c).
 *
 * Memory: every buffer here is C memory. The engine grows a caller's tape or
 * output buffer with the libc's realloc (the caller owns it and frees it with
 * free()), except in isojson_engine_write_into, where the caller's callback
 * grows the output (so that it can be the storage of the caller's final
 * object). No Go pointer crosses the ABI.
 * The tape layout is documented in backend/tape.go.
 *
 * What C and Go share here (the tape layout, the option bits, the return
 * codes) is defined on both sides: the Go definitions in backend/tape.go and
 * api/options.go, their C mirror below. pyshim/engine/abi_check.go compares
 * every mirrored constant with its Go definition when the engine is built,
 * so a change on one side that the other misses fails the build; the Go side
 * uses the return codes from here (C.ISOJSON_OK...), so they have one source.
 */
#ifndef ISOJSON_ENGINE_H
#define ISOJSON_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* 2: isojson_engine_write_into and isojson_grow_fn. 3: isojson_engine_yield. */
#define ISOJSON_ENGINE_ABI 3

typedef struct isojson_tape {
    uint64_t *words;       /* entries; len used, cap allocated (in words) */
    size_t len, cap;
    uint8_t *arena;        /* unescaped string bytes of StorageArena refs */
    size_t arena_len, arena_cap;
} isojson_tape;

typedef struct isojson_buf {
    uint8_t *data;
    size_t len, cap;
} isojson_buf;

typedef struct isojson_error {
    int64_t offset;        /* byte offset into the input where the error was found */
    char msg[160];         /* NUL-terminated plain sentence (orjson's wording) */
} isojson_error;

/* Return codes. */
#define ISOJSON_OK 0
#define ISOJSON_SYNTAX 1   /* err filled: invalid JSON */
#define ISOJSON_NOMEM 2    /* realloc failed */
#define ISOJSON_FAIL 3     /* anything else; err->msg says what */

/* The caller's growth of an output buffer (isojson_engine_write_into): make
 * out->cap at least need, keeping out->data[0:out->len), and update out->data
 * and out->cap. Returns 0, or nonzero when it cannot (out of memory); then
 * out->data must not be used again. It runs on the thread that called the
 * engine, inside that call. */
typedef int (*isojson_grow_fn)(void *ctx, isojson_buf *out, size_t need);

/* Functions exported by the engine (names as in the .so). The engine's own Go
 * files define ISOJSON_ENGINE_NO_PROTOTYPES: cgo declares its exports itself,
 * without const, and the two declarations would conflict. */
#ifndef ISOJSON_ENGINE_NO_PROTOTYPES
int isojson_engine_abi(void);                     /* ISOJSON_ENGINE_ABI */
const char *isojson_engine_version(void);         /* static string */
/* Backends compiled in, comma separated, in rank order (static string). */
const char *isojson_engine_backends(void);
/* Index of the backend to use: name NULL or "" = the default for this CPU.
 * Returns -1 and fills err->msg (naming the choices) when unknown/unsupported. */
int isojson_engine_backend(const char *name, isojson_error *err);
/* The name of backend index i (static string). */
const char *isojson_engine_backend_name(int i);

/* Parse src[0:n) with backend index `backend` into t (reset first). Unescaped
 * strings in the tape are offsets into src (StorageInput). */
int isojson_engine_parse(int backend, const uint8_t *src, size_t n, isojson_tape *t, isojson_error *err);

/* Write the tape as JSON into out (appended after out->len). input is the
 * document StorageInput refs point into (NULL if none). opts are orjson's
 * OPT_* bits; the writer uses OPT_INDENT_2, OPT_SORT_KEYS, OPT_APPEND_NEWLINE. */
int isojson_engine_write(const isojson_tape *t, const uint8_t *input, size_t input_len, uint32_t opts,
                         isojson_buf *out, isojson_error *err);

/* As isojson_engine_write, but out grows only through grow(ctx, out, need),
 * never with realloc, and only when the text does not fit in out->cap. On
 * ISOJSON_OK, out->data/len/cap describe the text; on any error, out->data
 * and out->cap are what grow last left there (or the caller's own) and
 * out->len is 0. */
int isojson_engine_write_into(const isojson_tape *t, const uint8_t *input, size_t input_len, uint32_t opts,
                              isojson_buf *out, isojson_grow_fn grow, void *ctx, isojson_error *err);
/* Lets the Go scheduler see the calling thread's use of the engine as
 * progress (runtime.Gosched): called every few milliseconds of engine use per
 * thread, it keeps the Go runtime's monitor thread asleep (scheduler.go). */
void isojson_engine_yield(void);
#endif

/* orjson's option bits, as the extension takes them from Python and hands
 * them to isojson_engine_write (the writer reads INDENT_2, SORT_KEYS and
 * APPEND_NEWLINE). The Go definitions are api/options.go. */
#define ISOJSON_OPT_INDENT_2 (1u << 0)
#define ISOJSON_OPT_NAIVE_UTC (1u << 1)
#define ISOJSON_OPT_NON_STR_KEYS (1u << 2)
#define ISOJSON_OPT_OMIT_MICROSECONDS (1u << 3)
#define ISOJSON_OPT_SERIALIZE_NUMPY (1u << 4)
#define ISOJSON_OPT_SORT_KEYS (1u << 5)
#define ISOJSON_OPT_STRICT_INTEGER (1u << 6)
#define ISOJSON_OPT_UTC_Z (1u << 7)
#define ISOJSON_OPT_PASSTHROUGH_SUBCLASS (1u << 8)
#define ISOJSON_OPT_PASSTHROUGH_DATETIME (1u << 9)
#define ISOJSON_OPT_APPEND_NEWLINE (1u << 10)
#define ISOJSON_OPT_PASSTHROUGH_DATACLASS (1u << 11)
#define ISOJSON_OPT_SERIALIZE_DATACLASS 0u   /* always on, kept for compatibility */
#define ISOJSON_OPT_SERIALIZE_UUID 0u        /* always on, kept for compatibility */
/* Every defined bit; orjson rejects an option with other bits. */
#define ISOJSON_OPT_MAX 4095u

/* Tape header layout. The Go definitions are backend/tape.go. */
#define ISOJSON_KIND_SHIFT 56
#define ISOJSON_STORAGE_SHIFT 52
#define ISOJSON_CLASS_SHIFT 50
#define ISOJSON_WIDTH_SHIFT 48
#define ISOJSON_CLEAN_BIT (1ULL << 47)
#define ISOJSON_LEN_MASK (ISOJSON_CLEAN_BIT - 1)
#define ISOJSON_PAYLOAD_MASK ((1ULL << 56) - 1)
enum isojson_kind {
    ISOJSON_NULL = 1, ISOJSON_FALSE, ISOJSON_TRUE, ISOJSON_INT, ISOJSON_UINT, ISOJSON_FLOAT,
    ISOJSON_ARRAY, ISOJSON_OBJECT, ISOJSON_STRING, ISOJSON_BIGINT, ISOJSON_RAW,
    ISOJSON_KIND_LAST = ISOJSON_RAW   /* the highest kind (backend.KindMax) */
};
enum isojson_storage { ISOJSON_INPUT = 0, ISOJSON_ARENA = 1, ISOJSON_EXTERNAL = 2 };
enum isojson_class { ISOJSON_ASCII = 0, ISOJSON_LATIN1 = 1, ISOJSON_BMP = 2, ISOJSON_ASTRAL = 3 };
enum isojson_width { ISOJSON_UTF8 = 0, ISOJSON_UCS1 = 1, ISOJSON_UCS2 = 2, ISOJSON_UCS4 = 3 };

#endif
