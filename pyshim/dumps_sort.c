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
#include "dumps_internal.h"

#include <stdlib.h>

typedef struct sort_record {
    uint64_t key[3];
    PyObject *value;
    size_t index;
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

static int compare_records(const void *pa, const void *pb)
{
    const sort_record *a = pa, *b = pb;
    int r = compare_keys(a->key, b->key);
    if (r != 0)
        return r;
    return (a->index > b->index) - (a->index < b->index);
}

int dumps_dict_collected(dumps_ctx *c, PyObject *o, int sort)
{
    size_t at, count = 0, n = (size_t)PyDict_GET_SIZE(o);
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    sort_record *recs = NULL;
    if (dumps_enter(c, o, 1) < 0)
        return -1;
    if (dumps_open(c, ISOJSON_OBJECT, &at) < 0)
        goto fail;
    if (n == 0)
        goto done;
    recs = malloc(n * sizeof *recs);
    if (recs == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    while (count < n && PyDict_Next(o, &pos, &key, &value)) {
        /* value is borrowed from the dict, and converting a non-str key
         * may run Python code (utcoffset, Enum.value) that removes it from
         * the dict: hold it first. */
        Py_INCREF(value);
        if (dumps_keep_owned(c, value) < 0)
            goto fail;
        size_t mark = c->tape.len;
        int rc = PyUnicode_CheckExact(key)           ? dumps_str(c, key)
                 : (c->opts & OPT_NON_STR_KEYS) != 0 ? dumps_nonstr_key(c, key)
                                                     : dumps_error("Dict key must be str");
        if (rc < 0)
            goto fail;
        memcpy(recs[count].key, c->tape.words + mark, sizeof recs[count].key);
        c->tape.len = mark;
        recs[count].value = value;
        recs[count].index = count;
        count++;
    }
    if (sort)
        qsort(recs, count, sizeof *recs, compare_records);
    for (size_t i = 0; i < count; i++) {
        if (dumps_reserve(c, 3) < 0)
            goto fail;
        memcpy(c->tape.words + c->tape.len, recs[i].key, sizeof recs[i].key);
        c->tape.len += 3;
        if (dumps_value_inline(c, recs[i].value) < 0)
            goto fail;
    }
done:
    free(recs);
    dumps_close(c, at, count);
    dumps_leave(c);
    return 0;
fail:
    free(recs);
    dumps_leave(c);
    return -1;
}
