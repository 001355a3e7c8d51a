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

/* The string whose opening quote is at p: its String entry at w, and the
 * byte after its closing quote; NULL when it is not the path's. */
static inline const uint8_t *loads_tiny_string(const uint8_t *p, const uint8_t *base, uint64_t *w)
{
    const uint8_t *q = ++p;
    while (loads_tiny_plain[*p])   /* the sentinel (0) stops it */
        p++;
    if (*p != '"')
        return NULL;
    uint64_t k = (uint64_t)(p - q);
    w[0] = (uint64_t)ISOJSON_STRING << ISOJSON_KIND_SHIFT | ISOJSON_CLEAN_BIT | k;
    w[1] = (uint64_t)(q - base);
    w[2] = k;
    return p + 1;
}

/* dst[0:n) = src[0:n) for 1 <= n <= 64 in overlapping moves, no byte loop
 * (GCC expands a memcpy bounded by 64 into one) and no read outside src. */
static inline void loads_tiny_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n >= 16) {
        if (n >= 32) {
            memcpy(dst, src, 32);
            memcpy(dst + n - 32, src + n - 32, 32);
        } else {
            memcpy(dst, src, 16);
            memcpy(dst + n - 16, src + n - 16, 16);
        }
    } else if (n >= 4) {
        if (n >= 8) {
            memcpy(dst, src, 8);
            memcpy(dst + n - 8, src + n - 8, 8);
        } else {
            memcpy(dst, src, 4);
            memcpy(dst + n - 4, src + n - 4, 4);
        }
    } else {
        dst[0] = src[0];
        dst[n >> 1] = src[n >> 1];
        dst[n - 1] = src[n - 1];
    }
}

/* Parses src[0:n) into w[0:cap) as backend/scalar would and returns the
 * number of words, or 0 when it gives up (then w holds nothing of use).
 * Strings are StorageInput refs: offsets into src. */
static inline size_t loads_tiny_parse(const uint8_t *src, size_t n, uint64_t *w, size_t cap)
{
    if (n == 0 || n > LOADS_TINY_MAX || cap < 2 * n)
        return 0;
    /* A copy ended by 8 zero bytes: a 0 is in no token and no white space,
     * so every scan stops at the end without a test of its own (a 0 inside
     * the input stops them the same way, and is an error there), and the
     * literals' 4- and 5-byte compares stay inside the buffer. */
    uint8_t buf[LOADS_TINY_MAX + 8];
    loads_tiny_copy(buf, src, n);
    memset(buf + n, 0, 8);
    const uint8_t *p = buf, *const end = buf + n;
    size_t len = 0;
    /* The innermost open container: its tape index and its header, kind
     * and count, kept here and stored when a child opens or it closes. As
     * in backend/scalar, the second word of an open container's header
     * holds its parent's index until it is closed (then its end). */
    size_t at = 0;
    uint64_t head = 0;
    unsigned depth = 0;
    const uint64_t object = (uint64_t)ISOJSON_OBJECT << ISOJSON_KIND_SHIFT;
    const uint64_t kind_mask = ~ISOJSON_PAYLOAD_MASK;

value:
    switch (*p) {
    case ' ': case '\t': case '\n': case '\r':
        p++;
        goto value;
    case '"':
        if ((p = loads_tiny_string(p, buf, w + len)) == NULL)
            return 0;
        len += 3;
        break;
    case '[':
    case '{':
        if (depth++)
            w[at] = head;   /* the parent's count so far */
        head = (uint64_t)(*p == '{' ? ISOJSON_OBJECT : ISOJSON_ARRAY) << ISOJSON_KIND_SHIFT;
        w[len] = head;
        w[len + 1] = at;
        at = len;
        len += 2;
        while (loads_tiny_space(*++p))
            ;
        if (head == object) {
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
        if (memcmp(p, "true", 4) != 0)
            return 0;
        w[len++] = (uint64_t)ISOJSON_TRUE << ISOJSON_KIND_SHIFT;
        p += 4;
        break;
    case 'f':
        if (memcmp(p, "false", 5) != 0)
            return 0;
        w[len++] = (uint64_t)ISOJSON_FALSE << ISOJSON_KIND_SHIFT;
        p += 5;
        break;
    case 'n':
        if (memcmp(p, "null", 4) != 0)
            return 0;
        w[len++] = (uint64_t)ISOJSON_NULL << ISOJSON_KIND_SHIFT;
        p += 4;
        break;
    case '-':
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
        int neg = *p == '-';
        p += neg;
        const uint8_t *q = p;
        uint64_t v = 0;
        while ((unsigned)(*p - '0') < 10)
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
    if (depth == 0) {
        while (loads_tiny_space(*p))
            p++;
        return p == end ? len : 0;
    }
    head++;   /* its count, in the header's low bits */
    while (loads_tiny_space(*p))
        p++;
    if ((head & kind_mask) == object) {
        if (*p == '}') {
            p++;
            goto close;
        }
        if (*p != ',')
            return 0;
        while (loads_tiny_space(*++p))
            ;
        if (*p != '"')
            return 0;
        goto key;
    }
    if (*p == ']') {
        p++;
        goto close;
    }
    if (*p != ',')
        return 0;
    p++;
    goto value;

key: /* *p == '"' */
    if ((p = loads_tiny_string(p, buf, w + len)) == NULL)
        return 0;
    len += 3;
    while (loads_tiny_space(*p))
        p++;
    if (*p != ':')
        return 0;
    p++;
    goto value;

close: /* the container at tape index at ended just before p */
    {
        size_t parent = (size_t)w[at + 1];
        w[at] = head;
        w[at + 1] = len;
        at = parent;
        if (--depth)
            head = w[at];
    }
    goto next;
}

#endif
