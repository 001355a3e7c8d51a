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
 * Two passes: the first checks every entry's kind and bounds the text's
 * length, so that the second writes with no room checks. */
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

/* The room every entry may take beyond its text: a comma, the longest
 * scalar (-9223372036854775808, 20 bytes) or the quotes of a string, and a
 * key's ": ". */
#define ENTRY_ROOM 25

/* The first pass: the bound of the text's length, or 0 when an entry is of
 * a kind written only by the engine. */
static size_t text_bound(const uint64_t *w, size_t n, int indent)
{
    size_t i = 0, entries = 0, containers = 0, text = 0;
    while (i < n) {
        uint64_t h = w[i];
        switch ((enum isojson_kind)(h >> ISOJSON_KIND_SHIFT)) {
        case ISOJSON_NULL:
        case ISOJSON_FALSE:
        case ISOJSON_TRUE:
            i += 1;
            break;
        case ISOJSON_INT:
        case ISOJSON_UINT:
            i += 2;
            break;
        case ISOJSON_ARRAY:
        case ISOJSON_OBJECT:
            /* An end outside the tape is never made by the walk; the
             * engine reports it. */
            if (w[i + 1] > n || w[i + 1] < i + 2)
                return 0;
            containers++;
            i += 2;
            break;
        case ISOJSON_STRING: {
            if ((h & TEXT_MASK) != TEXT_UTF8_EXTERNAL)
                return 0;
            size_t len = (size_t)(h & ISOJSON_LEN_MASK);
            text += h & ISOJSON_CLEAN_BIT ? len : DUMPS_MAX_ESCAPE_LEN * len;
            i += 3;
            break;
        }
        default:
            return 0;
        }
        entries++;
    }
    if (i != n)
        return 0;
    size_t room = text + entries * ENTRY_ROOM + 1;
    /* At most two newlines an entry (before it, before a closing bracket),
     * each indented by at most one level per container. */
    if (indent)
        room += entries * 2 * (1 + 2 * containers);
    return room;
}

size_t dumps_write_small(const isojson_tape *t, uint32_t opts, isojson_buf *out)
{
    const uint64_t *w = t->words;
    size_t n = t->len;
    if (n == 0 || n > DUMPS_SMALL_MAX_WORDS)
        return 0;
    int indent = (opts & ISOJSON_OPT_INDENT_2) != 0;
    size_t room = text_bound(w, n, indent);
    if (room == 0 || room > DUMPS_SMALL_MAX_BYTES)
        return 0;
    if (out->cap < room) {
        uint8_t *d = realloc(out->data, room);
        if (d == NULL)
            return (size_t)-1;
        out->data = d;
        out->cap = room;
    }

    /* The open containers: their ends and whether each is an object. */
    size_t ends[DUMPS_SMALL_MAX_WORDS / 2];
    uint8_t is_obj[DUMPS_SMALL_MAX_WORDS / 2];
    int depth = 0;
    uint8_t *p = out->data;
    size_t i = 0;
    for (;;) {
        uint64_t h = w[i];
        enum isojson_kind k = (enum isojson_kind)(h >> ISOJSON_KIND_SHIFT);
        switch (k) {
        case ISOJSON_NULL:
            memcpy(p, "null", 4);
            p += 4;
            i += 1;
            break;
        case ISOJSON_TRUE:
            memcpy(p, "true", 4);
            p += 4;
            i += 1;
            break;
        case ISOJSON_FALSE:
            memcpy(p, "false", 5);
            p += 5;
            i += 1;
            break;
        case ISOJSON_INT: {
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
            p = put_uint(p, w[i + 1]);
            i += 2;
            break;
        case ISOJSON_STRING:
            p = put_text(p, w + i);
            i += 3;
            break;
        case ISOJSON_ARRAY:
        case ISOJSON_OBJECT: {
            size_t end = (size_t)w[i + 1];
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
            return 0; /* never: text_bound has seen every entry */
        }
        /* Close the containers that end here. */
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
    key:
        /* The walk writes every key as a String entry. */
        if ((enum isojson_kind)(w[i] >> ISOJSON_KIND_SHIFT) != ISOJSON_STRING)
            return 0;
        p = put_text(p, w + i);
        i += 3;
        *p++ = ':';
        if (indent)
            *p++ = ' ';
    }
    if (opts & ISOJSON_OPT_APPEND_NEWLINE)
        *p++ = '\n';
    return (size_t)(p - out->data);
}
