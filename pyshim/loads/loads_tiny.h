/* The tiny path of loads: a parser in C for documents of at most
 * LOADS_TINY_MAX bytes, so that loads(b"[]") or a 50-byte status message
 * does not cross into Go (the crossing alone is ~640 instructions,
 * docs/performance.md, "Floors").
 *
 * It writes the tape backend/scalar writes, word for word, and nothing else:
 * the kinds, header bits and entry sizes are isojson_engine.h's, which
 * pyshim/engine/abi_check.go holds against backend/tape.go. It accepts a
 * small grammar only: null, true, false, integers of at most 18 digits
 * (always an Int: below 10^18), strings of printable ASCII without escapes,
 * arrays and objects, with JSON's four white-space bytes between tokens.
 * Anything else, and every error, gives up (returns 0) before a word of its
 * tape is used: the caller then parses the input with the engine, so error
 * messages and offsets, floats, escapes, big integers and non-ASCII text
 * keep their one definition in Go.
 *
 * No Python here: the same function is compiled into the Go test package
 * conformance/ctiny through cgo, where conformance.Run and a differential
 * fuzz target against backend/scalar gate it (docs/performance.md, "The
 * tiny path of loads").
 */
#ifndef ISOJSON_LOADS_TINY_H
#define ISOJSON_LOADS_TINY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/isojson_engine.h"

/* The longest input tried, in bytes: api/status-50B is 51. */
#define LOADS_TINY_MAX 64
/* The tape room the caller gives: every byte of input makes at most two
 * words (an Int is 2 words for 1 digit, a container 2 for its 2 brackets, a
 * String 3 for at least its 2 quotes, a literal 1 for 4 letters), also
 * while a container is still open. */
#define LOADS_TINY_WORDS (2 * LOADS_TINY_MAX)

/* Nesting stays below backend.MaxDepth (1024) at any input the path takes,
 * so the depth limit is never this parser's to report. */
_Static_assert(LOADS_TINY_MAX / 2 < 1024, "the tiny path would reach the depth limit");

/* The bytes of a string the path takes: printable ASCII and DEL, but not
 * the quote (its end) or the backslash (an escape: the engine's). */
static const uint8_t loads_tiny_plain[256] = {
    [0x20] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x22: '"' */
    [0x30] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x40] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x50] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,   /* 0x5c: '\\' */
    [0x60] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x70] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

static inline int loads_tiny_space(uint8_t c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline const uint8_t *loads_tiny_skip(const uint8_t *p, const uint8_t *end)
{
    while (p < end && loads_tiny_space(*p))
        p++;
    return p;
}

/* Parses src[0:n) into w[0:cap) as backend/scalar would and returns the
 * number of words, or 0 when it gives up (then w holds nothing of use).
 * Strings are StorageInput refs: offsets into src. */
static inline size_t loads_tiny_parse(const uint8_t *src, size_t n, uint64_t *w, size_t cap)
{
    if (n == 0 || n > LOADS_TINY_MAX || cap < 2 * n)
        return 0;
    const uint8_t *p = src, *const end = src + n;
    size_t len = 0;
    /* The innermost open container's tape index, and how many are open. As
     * in backend/scalar, the second word of an open container's header
     * holds its parent's index until it is closed (then its end). */
    size_t at = 0;
    unsigned depth = 0;
    const uint8_t *q;

    p = loads_tiny_skip(p, end);
    if (p == end)
        return 0;
value: /* p < end */
    switch (*p) {
    case '"':
        q = ++p;
        while (p < end && loads_tiny_plain[*p])
            p++;
        if (p == end || *p != '"')
            return 0;
        w[len] = (uint64_t)ISOJSON_STRING << ISOJSON_KIND_SHIFT | ISOJSON_CLEAN_BIT | (uint64_t)(p - q);
        w[len + 1] = (uint64_t)(q - src);
        w[len + 2] = (uint64_t)(p - q);
        len += 3;
        p++;
        break;
    case '[':
    case '{':
        w[len] = (uint64_t)(*p == '{' ? ISOJSON_OBJECT : ISOJSON_ARRAY) << ISOJSON_KIND_SHIFT;
        w[len + 1] = at;
        at = len;
        len += 2;
        depth++;
        p = loads_tiny_skip(p + 1, end);
        if (p == end)
            return 0;
        if ((w[at] >> ISOJSON_KIND_SHIFT) == ISOJSON_OBJECT) {
            if (*p == '"')
                goto key;
            if (*p != '}')
                return 0;
            p++;
            goto close;
        }
        if (*p == ']') {
            p++;
            goto close;
        }
        goto value;
    case 't':
        if (end - p < 4 || memcmp(p, "true", 4) != 0)
            return 0;
        w[len++] = (uint64_t)ISOJSON_TRUE << ISOJSON_KIND_SHIFT;
        p += 4;
        break;
    case 'f':
        if (end - p < 5 || memcmp(p, "false", 5) != 0)
            return 0;
        w[len++] = (uint64_t)ISOJSON_FALSE << ISOJSON_KIND_SHIFT;
        p += 5;
        break;
    case 'n':
        if (end - p < 4 || memcmp(p, "null", 4) != 0)
            return 0;
        w[len++] = (uint64_t)ISOJSON_NULL << ISOJSON_KIND_SHIFT;
        p += 4;
        break;
    case '-':
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
        int neg = *p == '-';
        p += neg;
        q = p;
        uint64_t v = 0;
        while (p < end && (unsigned)(*p - '0') < 10)
            v = v * 10 + (unsigned)(*p++ - '0');
        /* No digit, a leading zero, or more than 18 digits (may not be an
         * Int): the engine's. A fraction or an exponent (a float) gives up
         * at next: '.', 'e' and 'E' are not separators. */
        if (p == q || (*q == '0' && p - q > 1) || p - q > 18)
            return 0;
        w[len] = (uint64_t)ISOJSON_INT << ISOJSON_KIND_SHIFT;
        w[len + 1] = neg ? (uint64_t)0 - v : v;
        len += 2;
        break;
    }
    default:
        return 0;
    }

next: /* a value ended just before p */
    if (depth == 0)
        return loads_tiny_skip(p, end) == end ? len : 0;
    w[at]++;   /* its count, in the header's low bits */
    p = loads_tiny_skip(p, end);
    if (p == end)
        return 0;
    if ((w[at] >> ISOJSON_KIND_SHIFT) == ISOJSON_OBJECT) {
        if (*p == '}') {
            p++;
            goto close;
        }
        if (*p != ',')
            return 0;
        p = loads_tiny_skip(p + 1, end);
        if (p == end || *p != '"')
            return 0;
        goto key;
    }
    if (*p == ']') {
        p++;
        goto close;
    }
    if (*p != ',')
        return 0;
    p = loads_tiny_skip(p + 1, end);
    if (p == end)
        return 0;
    goto value;

key: /* *p == '"' */
    q = ++p;
    while (p < end && loads_tiny_plain[*p])
        p++;
    if (p == end || *p != '"')
        return 0;
    w[len] = (uint64_t)ISOJSON_STRING << ISOJSON_KIND_SHIFT | ISOJSON_CLEAN_BIT | (uint64_t)(p - q);
    w[len + 1] = (uint64_t)(q - src);
    w[len + 2] = (uint64_t)(p - q);
    len += 3;
    p = loads_tiny_skip(p + 1, end);
    if (p == end || *p != ':')
        return 0;
    p = loads_tiny_skip(p + 1, end);
    if (p == end)
        return 0;
    goto value;

close: /* the container at tape index at ended just before p */
    {
        size_t parent = (size_t)w[at + 1];
        w[at + 1] = len;
        at = parent;
        depth--;
    }
    goto next;
}

#endif
