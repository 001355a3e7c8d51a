/* A dict under OPT_SORT_KEYS or OPT_NON_STR_KEYS: orjson converts every key
 * before it serializes any value, and under OPT_SORT_KEYS walks the members
 * in key order, not just writes them so: which error is raised first and the
 * order of default= calls depend on it.
 *
 * Each key is first appended to the tape as usual (that checks it and, under
 * OPT_NON_STR_KEYS, formats it), its three words are saved with the value and
 * the tape is cut back; the records are sorted (if asked) by key text in code point
 * order (UTF-8 byte order), stable for equal texts as orjson; then each key
 * is appended again followed by its value. The writer is then told not to
 * sort again (dumps.c). Values are kept alive across default= (which may
 * mutate the dict) by a reference each. */
#include "dumps.h"
#include "dumps_ft.h"
#include "dumps_dispatch.h"
#include "dumps_keycache.h"

#include <stdlib.h>

typedef struct sort_record {
    /* The first eight bytes of the key's UTF-8 text, big-endian and
     * zero-padded: prefixes order like the keys (UTF-8 byte order is code
     * point order), so most comparisons are one integer compare and only
     * keys with equal prefixes are compared in full. */
    uint64_t prefix;
    uint64_t key[3];
    PyObject *value;
} sort_record;

/* The code points of a key's text, whatever its width. */
typedef struct text_cursor {
    const uint8_t *p;
    size_t i, n;
    unsigned width;
} text_cursor;

static text_cursor cursor_of(const uint64_t *k)
{
    text_cursor t;
    t.p = (const uint8_t *)(uintptr_t)k[1];
    t.i = 0;
    t.n = (size_t)(k[0] & ISOJSON_LEN_MASK);
    t.width = (unsigned)(k[0] >> ISOJSON_WIDTH_SHIFT & 3);
    return t;
}

static uint32_t next_code_point(text_cursor *t)
{
    switch (t->width) {
    case ISOJSON_UCS1:
        return t->p[t->i++];
    case ISOJSON_UCS2: {
        uint16_t u;
        memcpy(&u, t->p + 2 * t->i++, 2);
        return u;
    }
    case ISOJSON_UCS4: {
        uint32_t u;
        memcpy(&u, t->p + 4 * t->i++, 4);
        return u;
    }
    default: {
        /* Valid UTF-8 (CPython's own encoding). */
        const uint8_t *s = t->p + t->i;
        uint32_t b = s[0];
        if (b < 0x80) {
            t->i += 1;
            return b;
        }
        if (b < 0xE0) {
            t->i += 2;
            return (b & 0x1F) << 6 | (s[1] & 0x3F);
        }
        if (b < 0xF0) {
            t->i += 3;
            return (b & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
        }
        t->i += 4;
        return (b & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 | (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
    }
    }
}

/* utf8_prefix is key_prefix of n bytes of UTF-8 at p, read with loads
 * that stay inside the text (CPython's storage has no slack after it) and
 * that overlap for short texts: byte j lands at bits 56-8j either way.
 * Loads, not byte stores into a buffer read back as a word, which stall. */
static inline uint64_t utf8_prefix(const uint8_t *p, size_t n)
{
    if (n >= 8)
        return dumps_load_be64(p);
    if (n >= 4)
        return dumps_load_be32(p) << 32 | dumps_load_be32(p + n - 4) << (8 * (8 - n));
    if (n > 0)
        return (uint64_t)p[0] << 56 | (uint64_t)p[n / 2] << (56 - 8 * (n / 2)) |
               (uint64_t)p[n - 1] << (56 - 8 * (n - 1));
    return 0;
}

/* key_prefix returns the first eight bytes of the key's UTF-8 text as a
 * big-endian number, zero-padded (see sort_record). */
static uint64_t key_prefix(const uint64_t *k)
{
    uint8_t b[12] = {0}; /* room for the last character's overflow */
    size_t n = 0;
    text_cursor t = cursor_of(k);
    if (t.width == ISOJSON_UTF8)
        return utf8_prefix(t.p, t.n);
    while (n < 8 && t.i < t.n) {
        uint32_t u = next_code_point(&t);
        if (u < 0x80) {
            b[n++] = (uint8_t)u;
        } else if (u < 0x800) {
            b[n++] = (uint8_t)(0xC0 | u >> 6);
            b[n++] = (uint8_t)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            b[n++] = (uint8_t)(0xE0 | u >> 12);
            b[n++] = (uint8_t)(0x80 | (u >> 6 & 0x3F));
            b[n++] = (uint8_t)(0x80 | (u & 0x3F));
        } else {
            b[n++] = (uint8_t)(0xF0 | u >> 18);
            b[n++] = (uint8_t)(0x80 | (u >> 12 & 0x3F));
            b[n++] = (uint8_t)(0x80 | (u >> 6 & 0x3F));
            b[n++] = (uint8_t)(0x80 | (u & 0x3F));
        }
    }
    return dumps_load_be64(b);
}

static int compare_keys(const uint64_t *a, const uint64_t *b)
{
    text_cursor x = cursor_of(a), y = cursor_of(b);
    if (x.width == ISOJSON_UTF8 && y.width == ISOJSON_UTF8) {
        size_t n = x.n < y.n ? x.n : y.n;
        int r = memcmp(x.p, y.p, n);
        if (r != 0)
            return r;
        return (x.n > y.n) - (x.n < y.n);
    }
    while (x.i < x.n && y.i < y.n) {
        uint32_t u = next_code_point(&x), v = next_code_point(&y);
        if (u != v)
            return u < v ? -1 : 1;
    }
    return (x.i < x.n) - (y.i < y.n);
}

static inline int record_less(const sort_record *a, const sort_record *b)
{
    if (a->prefix != b->prefix)
        return a->prefix < b->prefix;
    return compare_keys(a->key, b->key) < 0;
}

/* Runs this long are sorted by insertion: stable, and the fastest for the
 * objects that documents are made of. */
#define SORT_RUN 16

/* Dicts of up to this many members sort in a buffer on the C stack (small:
 * one per nesting level). */
#define SORT_LOCAL 4

static void insertion_sort(sort_record *r, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (!record_less(&r[i], &r[i - 1]))
            continue;
        sort_record x = r[i];
        size_t j = i;
        do {
            r[j] = r[j - 1];
            j--;
        } while (j > 0 && record_less(&x, &r[j - 1]));
        r[j] = x;
    }
}

/* sort_records sorts r[0:n] stably (equal keys, possible under
 * OPT_NON_STR_KEYS, keep dict order as in orjson): insertion-sorted runs
 * merged bottom-up through tmp (n records). qsort is not stable and calls
 * its comparison through a pointer. */
static void sort_records(sort_record *r, sort_record *tmp, size_t n)
{
    for (size_t i = 0; i < n; i += SORT_RUN)
        insertion_sort(r + i, n - i < SORT_RUN ? n - i : SORT_RUN);
    sort_record *from = r, *to = tmp;
    for (size_t w = SORT_RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                to[k++] = record_less(&from[b], &from[a]) ? from[b++] : from[a++];
            while (a < mid)
                to[k++] = from[a++];
            while (b < hi)
                to[k++] = from[b++];
        }
        sort_record *t = from;
        from = to;
        to = t;
    }
    if (from != r)
        memcpy(r, from, n * sizeof *r);
}

int dumps_dict_collected(dumps_ctx *c, PyObject *o, int sort)
{
    size_t at, count = 0, n = (size_t)PyDict_GET_SIZE(o);
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    /* Most dicts are small (citm_catalog.json: 9592 of its 10935 have two
     * members): their records live on the stack, not in a malloc each. */
    sort_record local[SORT_LOCAL];
    sort_record *recs = local;
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    if (dumps_open(c, ISOJSON_OBJECT, &at) < 0)
        goto fail;
#ifdef Py_GIL_DISABLED
    /* One snapshot of the members (dumps_ft.h): it holds every key and
     * value, and its count is the one written. */
    size_t base;
    Py_ssize_t got = dumps_ft_dict(c, o, &base);
    if (got < 0)
        goto fail;
    n = (size_t)got;
#endif
    if (n == 0)
        goto done;
    /* The records, and as many again as merge scratch for a large dict. */
    if (n > SORT_LOCAL)
        recs = malloc((n > SORT_RUN && sort ? 2 * n : n) * sizeof *recs);
    if (recs == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
#ifdef Py_GIL_DISABLED
    (void)pos;
    for (size_t j = 0; count < n; j++) {
        dumps_ft_pair(c, base, j, &key, &value);
#else
    while (count < n && PyDict_Next(o, &pos, &key, &value)) {
        /* value is borrowed from the dict, and converting a non-str key
         * may run Python code (utcoffset, Enum.value) that removes it from
         * the dict: hold it first. */
        Py_INCREF(value);
        if (dumps_keep_owned(c, value) < 0)
            goto fail;
#endif
        size_t mark = c->tape.len;
        /* str keys through the key cache (dumps_keycache.h): a key met
         * before in this call is three words copied, not scanned again. */
        int rc = PyUnicode_CheckExact(key)           ? dumps_key(c, key)
                 : (c->opts & ISOJSON_OPT_NON_STR_KEYS) != 0 ? dumps_nonstr_key(c, key)
                                                     : dumps_error("Dict key must be str");
        if (rc < 0)
            goto fail;
        /* Word by word: the key's words were just stored one by one, and
         * a wider load across two of them (what memcpy compiles to) waits
         * for both stores to retire instead of taking their values. The
         * relaxed atomic loads are plain loads that cannot be merged. */
        const uint64_t *kw = c->tape.words + mark;
        for (int w = 0; w < 3; w++)
            recs[count].key[w] = __atomic_load_n(&kw[w], __ATOMIC_RELAXED);
        c->tape.len = mark;
        recs[count].value = value;
        if (sort)
            recs[count].prefix = n > 1 ? key_prefix(recs[count].key) : 0;
        count++;
    }
    if (sort)
        sort_records(recs, recs + n, count);
    for (size_t i = 0; i < count; i++) {
        if (dumps_reserve(c, 3) < 0)
            goto fail;
        memcpy(c->tape.words + c->tape.len, recs[i].key, sizeof recs[i].key);
        c->tape.len += 3;
        if (dumps_value_inline(c, recs[i].value) < 0)
            goto fail;
    }
done:
    if (recs != local)
        free(recs);
    dumps_close(c, at, count);
    dumps_leave(c);
    return 0;
fail:
    if (recs != local)
        free(recs);
    dumps_leave(c);
    return -1;
}
