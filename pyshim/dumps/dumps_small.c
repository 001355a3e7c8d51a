/* A small tape written as JSON here, in C, instead of by the engine.
 *
 * Why: a call into the Go engine costs about 640 instructions of cgo
 * crossing alone, more than orjson's whole dumps(None); the calls with the
 * shortest tapes (None, {}, a status message) are mostly that fixed cost.
 * So a tape of up to DUMPS_SMALL_MAX_WORDS words that holds only null,
 * booleans, 64-bit ints, containers and UTF-8 strings is written here.
 * Anything else (a float, a big int, a Fragment or numpy row, UCS1/2/4 text)
 * goes to the engine as before: float formatting has one definition, the Go
 * writer's, and is not copied here.
 *
 * The escaping of strings is the Go writer's: dumps_escapes.h is generated
 * from writer/escape.go's escapes table by writer/cheader_test.go, which
 * fails `go test ./writer` when the header and the table differ. The rest
 * is layout that orjson defines and tests/test_dumps_small.py checks byte
 * for byte against orjson at and around the size where this path stops:
 * no whitespace, or OPT_INDENT_2's newline and two spaces per level and
 * ": " after keys, empty containers as [] and {}, a final newline under
 * OPT_APPEND_NEWLINE. Keys arrive sorted already (dumps_sort.c).
 *
 * One pass: each entry is checked for its kind and its room (its text and
 * whatever may follow it) as it is written; a tape of a kind written only
 * by the engine is left to it, whatever was written so far. */
#include "dumps.h"
#include "dumps_small.h"
#include "dumps_escapes.h"

#include <stdlib.h>

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline uint8_t *put_uint(uint8_t *p, uint64_t v)
{
    uint8_t tmp[20];
    uint8_t *end = tmp + sizeof tmp, *s = end;
    while (v >= 100) {
        uint64_t q = v / 100;
        s -= 2;
        memcpy(s, digit_pairs + 2 * (v - 100 * q), 2);
        v = q;
    }
    if (v >= 10) {
        s -= 2;
        memcpy(s, digit_pairs + 2 * v, 2);
    } else {
        *--s = (uint8_t)('0' + v);
    }
    size_t n = (size_t)(end - s);
    memcpy(p, s, n);
    return p + n;
}

/* A String entry's text between quotes, escaped unless marked clean. */
static inline uint8_t *put_text(uint8_t *p, const uint64_t *w)
{
    uint64_t h = w[0];
    size_t n = (size_t)(h & ISOJSON_LEN_MASK);
    const uint8_t *s = (const uint8_t *)(uintptr_t)w[1];
    *p++ = '"';
    if (h & ISOJSON_CLEAN_BIT) {
        memcpy(p, s, n);
        p += n;
    } else {
        for (size_t k = 0; k < n; k++) {
            uint8_t ch = s[k];
            size_t e = dumps_escape_len[ch];
            if (e == 0) {
                *p++ = ch;
            } else {
                memcpy(p, dumps_escape_text[ch], DUMPS_MAX_ESCAPE_LEN);
                p += e;
            }
        }
    }
    *p++ = '"';
    return p;
}

static inline uint8_t *put_newline(uint8_t *p, int depth)
{
    *p++ = '\n';
    memset(p, ' ', 2 * (size_t)depth);
    return p + 2 * (size_t)depth;
}

/* What a String entry's header must have here: UTF-8 text at an address. */
#define TEXT_MASK ((3ULL << ISOJSON_WIDTH_SHIFT) | (0xfULL << ISOJSON_STORAGE_SHIFT))
#define TEXT_UTF8_EXTERNAL ((uint64_t)ISOJSON_UTF8 << ISOJSON_WIDTH_SHIFT | (uint64_t)ISOJSON_EXTERNAL << ISOJSON_STORAGE_SHIFT)

/* The room a scalar or a container's opening takes at most: the longest
 * scalar (-9223372036854775808, 20 bytes), or a bracket and, indented, the
 * newline and indentation of one level more. */
#define VALUE_ROOM 24

/* Makes room for need more bytes at p (the buffer grown to
 * DUMPS_SMALL_MAX_BYTES at once), or leaves the tape to the engine (return
 * 0) when the text could pass that. */
#define ROOM(need)                                                  \
    do {                                                            \
        size_t need_ = (need);                                      \
        if ((size_t)(lim - p) < need_) {                            \
            size_t at_ = (size_t)(p - out->data);                   \
            if (at_ + need_ > DUMPS_SMALL_MAX_BYTES)                \
                return 0;                                           \
            if (out->cap < DUMPS_SMALL_MAX_BYTES) {                 \
                uint8_t *d_ = realloc(out->data, DUMPS_SMALL_MAX_BYTES); \
                if (d_ == NULL)                                     \
                    return (size_t)-1;                              \
                out->data = d_;                                     \
                out->cap = DUMPS_SMALL_MAX_BYTES;                   \
            }                                                       \
            p = out->data + at_;                                    \
            lim = out->data + DUMPS_SMALL_MAX_BYTES;                \
        }                                                           \
    } while (0)

/* The bytes a String entry's text may take with its quotes; 0 when it is
 * not UTF-8 at an address (then the engine writes the tape). */
static inline size_t text_room(uint64_t h)
{
    if ((h & TEXT_MASK) != TEXT_UTF8_EXTERNAL)
        return 0;
    size_t len = (size_t)(h & ISOJSON_LEN_MASK);
    return (h & ISOJSON_CLEAN_BIT ? len : DUMPS_MAX_ESCAPE_LEN * len) + 2;
}

size_t dumps_write_small(const isojson_tape *t, uint32_t opts, isojson_buf *out)
{
    const uint64_t *w = t->words;
    size_t n = t->len;
    if (n == 0 || n > DUMPS_SMALL_MAX_WORDS)
        return 0;
    int indent = (opts & ISOJSON_OPT_INDENT_2) != 0;
    /* What may follow a value at depth levels: every closing bracket with
     * its newline and indentation, a comma or the final newline. */
#define TAIL_ROOM(depth) (indent ? ((size_t)(depth) + 1) * (3 + 2 * (size_t)(depth)) : (size_t)(depth) + 2)

    /* The open containers: their ends and whether each is an object. */
    size_t ends[DUMPS_SMALL_MAX_WORDS / 2];
    uint8_t is_obj[DUMPS_SMALL_MAX_WORDS / 2];
    int depth = 0;
    /* The text stays within DUMPS_SMALL_MAX_BYTES even when the buffer
     * (which the engine's writes share) is bigger. */
    uint8_t *p = out->data;
    uint8_t *lim = p + (out->cap < DUMPS_SMALL_MAX_BYTES ? out->cap : DUMPS_SMALL_MAX_BYTES);
    size_t i = 0;
    for (;;) {
        uint64_t h = w[i];
        enum isojson_kind k = (enum isojson_kind)(h >> ISOJSON_KIND_SHIFT);
        switch (k) {
        case ISOJSON_NULL:
            ROOM(VALUE_ROOM + TAIL_ROOM(depth));
            memcpy(p, "null", 4);
            p += 4;
            i += 1;
            break;
        case ISOJSON_TRUE:
            ROOM(VALUE_ROOM + TAIL_ROOM(depth));
            memcpy(p, "true", 4);
            p += 4;
            i += 1;
            break;
        case ISOJSON_FALSE:
            ROOM(VALUE_ROOM + TAIL_ROOM(depth));
            memcpy(p, "false", 5);
            p += 5;
            i += 1;
            break;
        case ISOJSON_INT: {
            ROOM(VALUE_ROOM + TAIL_ROOM(depth));
            int64_t v = (int64_t)w[i + 1];
            if (v < 0) {
                *p++ = '-';
                p = put_uint(p, (uint64_t)0 - (uint64_t)v);
            } else {
                p = put_uint(p, (uint64_t)v);
            }
            i += 2;
            break;
        }
        case ISOJSON_UINT:
            ROOM(VALUE_ROOM + TAIL_ROOM(depth));
            p = put_uint(p, w[i + 1]);
            i += 2;
            break;
        case ISOJSON_STRING: {
            size_t r = text_room(h);
            if (r == 0)
                return 0;
            ROOM(r + TAIL_ROOM(depth));
            p = put_text(p, w + i);
            i += 3;
            break;
        }
        case ISOJSON_ARRAY:
        case ISOJSON_OBJECT: {
            size_t end = (size_t)w[i + 1];
            /* An end outside the tape is never made by the walk; the
             * engine reports it. */
            if (end > n || end < i + 2)
                return 0;
            ROOM(VALUE_ROOM + TAIL_ROOM(depth + 1));
            int obj = k == ISOJSON_OBJECT;
            uint8_t open = obj ? '{' : '[';
            i += 2;
            *p++ = open;
            if (end <= i) {
                *p++ = (uint8_t)(open + 2); /* ']' is '[' + 2, '}' is '{' + 2 */
                break;
            }
            ends[depth] = end;
            is_obj[depth] = (uint8_t)obj;
            depth++;
            if (indent)
                p = put_newline(p, depth);
            if (obj)
                goto key;
            continue;
        }
        default:
            return 0; /* a float, a big int, a Fragment: the engine's */
        }
        /* Close the containers that end here (TAIL_ROOM has room). */
        while (depth > 0 && i >= ends[depth - 1]) {
            depth--;
            if (indent)
                p = put_newline(p, depth);
            *p++ = is_obj[depth] ? '}' : ']';
        }
        if (depth == 0)
            break;
        *p++ = ',';
        if (indent)
            p = put_newline(p, depth);
        if (!is_obj[depth - 1])
            continue;
    key: {
        /* The walk writes every key as a String entry. */
        uint64_t kh = w[i];
        size_t r = text_room(kh);
        if ((enum isojson_kind)(kh >> ISOJSON_KIND_SHIFT) != ISOJSON_STRING || r == 0)
            return 0;
        ROOM(r + 2);
        p = put_text(p, w + i);
        i += 3;
        *p++ = ':';
        if (indent)
            *p++ = ' ';
    }
    }
    if (i != n)
        return 0;
    if (opts & ISOJSON_OPT_APPEND_NEWLINE)
        *p++ = '\n';
    return (size_t)(p - out->data);
#undef TAIL_ROOM
}
