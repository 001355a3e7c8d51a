/* Tape → Python objects, in one forward pass over the tape with an explicit
 * stack of open containers (no C recursion: 1024 levels work on a thread
 * with a small stack). Lists are created at their final size and filled with
 * PyList_SET_ITEM; dicts take their members in document order, so a repeated
 * key keeps its first position and its last value, as in orjson: into a
 * hash table filled directly (loads_dict.h) or, when that is off, through
 * PyDict_SetItem. Every container is created when its entry is met, before
 * its members, as the garbage collector's scan prefers (loads_dict.h). A
 * directly filled dict whose first key and size have a shape (a record
 * seen before: loads_shapes.h) takes its keys by comparing bytes with the
 * predicted ones, until one differs.
 */
#include "loads.h"
#include "cpython/loads_dict.h"
#include "loads_ints.h"
#include "loads_shapes.h"

#include <stdlib.h>
#include <string.h>

static PyObject *bad_tape(void)
{
    PyErr_SetString(PyExc_RuntimeError, "isojson engine: malformed tape");
    return NULL;
}

/* The text of a ref entry: in the input or in the tape's arena; NULL when
 * it is not inside either (a malformed tape). */
static inline const uint8_t *ref_text(const isojson_tape *t, const uint8_t *input, size_t input_len, uint64_t h,
                                      uint64_t where, size_t n)
{
    unsigned storage = (unsigned)(h >> ISOJSON_STORAGE_SHIFT) & 0xf;
    if (storage == ISOJSON_INPUT)
        return where <= input_len && n <= input_len - where ? input + where : NULL;
    if (storage == ISOJSON_ARENA && where <= t->arena_len && n <= t->arena_len - where)
        return t->arena + where;
    return NULL;
}

/* The text of the key entry at e: NULL unless it is a String entry inside
 * the tape whose text is where its header says (a malformed tape). */
static inline const uint8_t *key_text(const isojson_tape *t, const uint8_t *input, size_t input_len,
                                      const uint64_t *e, const uint64_t *wend)
{
    if (wend - e < 3 || (e[0] >> ISOJSON_KIND_SHIFT) != ISOJSON_STRING)
        return NULL;
    return ref_text(t, input, input_len, e[0], e[1], (size_t)(e[0] & ISOJSON_LEN_MASK));
}

/* The key cache's str for the key entry at e, whose text is p (key_text). */
static inline PyObject *cached_key(const loads_caches *lc, const uint8_t *p, const uint64_t *e)
{
    return loads_key(lc, p, (size_t)(e[0] & ISOJSON_LEN_MASK), (size_t)e[2], (int)(e[0] >> ISOJSON_CLASS_SHIFT) & 3);
}

/* An integer beyond 64 bits from its decimal digits, through CPython's own
 * conversion so that sys.set_int_max_str_digits applies (ValueError). */
static PyObject *big_int(const uint8_t *digits, size_t n)
{
    char small[128];
    char *buf = n < sizeof small ? small : malloc(n + 1);
    if (buf == NULL)
        return PyErr_NoMemory();
    memcpy(buf, digits, n);
    buf[n] = '\0';
    PyObject *v = PyLong_FromString(buf, NULL, 10);
    if (buf != small)
        free(buf);
    return v;
}

/* Releases what an open container holds. */
static void frame_free(loads_frame *f)
{
    Py_XDECREF(f->key);
    Py_XDECREF(f->obj);
#if LOADS_DICT_DIRECT
    if (f->table != NULL) {
        if (f->shape != NULL)   /* filled by its shape: pos entries are in */
            loads_dict_set_count(f->table, f->pos);
        loads_dict_keys_free(f->table);
    }
    if (f->shape != NULL)
        loads_shape_release(f->shape);
#endif
}

/* Words per entry, by kind (0: not a kind loads accepts). */
static const uint8_t entry_words[16] = {
    [ISOJSON_NULL] = 1,  [ISOJSON_FALSE] = 1,  [ISOJSON_TRUE] = 1,   [ISOJSON_INT] = 2,
    [ISOJSON_UINT] = 2,  [ISOJSON_FLOAT] = 2,  [ISOJSON_ARRAY] = 2,  [ISOJSON_OBJECT] = 2,
    [ISOJSON_STRING] = 3, [ISOJSON_BIGINT] = 3,
};

PyObject *loads_build(isojson_state *st, loads_scratch *s, const uint8_t *input, size_t input_len)
{
    const isojson_tape *t = &s->tape;
    loads_caches caches;
    loads_caches_begin(st, &caches, t->len != 0 ? t->words[0] : 0);
    /* The next entry, and the tape's end: pointers rather than a base and
     * an index, so that fewer values stay live across the calls that make
     * objects (github: fewer spills and reloads). */
    const uint64_t *e = t->words;
    const uint64_t *const wend = t->words + t->len;
    size_t sp = 0;
    /* The innermost open container, frames[sp - 1] (NULL at the top): in a
     * register, not reloaded from sp at every member. */
    loads_frame *f = NULL;
    PyObject *v, *key;
    /* Dicts filled directly (loads_dict.h) once the check has passed. */
    PyObject *const constants[3] = {Py_None, Py_False, Py_True};
    const int direct = loads_dict_direct_check();
    (void)direct;  /* unused where LOADS_DICT_DIRECT is 0 */
#if LOADS_DICT_DIRECT
    const size_t direct_max = direct ? LOADS_DICT_DIRECT_MAX : 0;   /* the most members filled directly */
#endif
    /* The container being opened: its member count, and its table and
     * the table's entries when it is a dict filled directly. */
    Py_ssize_t cn;
    void *ctable, *centries;
    Py_ssize_t leaf_pos = 0;   /* the items a list opened with (its leading leaves) */
    loads_int_cache *ints = &s->ints;   /* repeated ints share one object (loads_ints.h) */
    loads_int_cache_start(ints, st);

    /* e <= wend throughout: an entry is consumed only once it is known to
     * be inside the tape (a backend bug must raise, not read past the end). */
    if (e == wend)
        return bad_tape();
    for (;;) {
        /* One test while the longest entry (3 words) fits; the exact one
         * near the end. A kind loads does not accept (0 words) passes it
         * and falls to the switch's default. */
        if (__builtin_expect(wend - e < 3, 0)) {
            if (e >= wend)
                goto malformed;
            unsigned k = (unsigned)(e[0] >> ISOJSON_KIND_SHIFT);
            if (k < 16 && entry_words[k] > wend - e)
                goto malformed;
        }
        uint64_t h = e[0];
        unsigned kind = (unsigned)(h >> ISOJSON_KIND_SHIFT);
        switch (kind) {
        case ISOJSON_NULL:
        case ISOJSON_FALSE:
        case ISOJSON_TRUE:
            /* One case for the three, by table: the switch's indirect
             * jump then has one target for all of them, where three are
             * mispredicted as often as null, false and true alternate (a
             * list of 50000 random ones: 45% of loads in this function). */
            v = Py_NewRef(constants[kind - ISOJSON_NULL]);
            e += 1;
            break;
        case ISOJSON_INT:
            v = loads_int(ints, (int64_t)e[1]);
            e += 2;
            break;
        case ISOJSON_UINT:
            v = PyLong_FromUnsignedLongLong((unsigned long long)e[1]);
            e += 2;
            break;
        case ISOJSON_FLOAT: {
            double d;
            memcpy(&d, &e[1], sizeof d);
            v = PyFloat_FromDouble(d);
            e += 2;
            break;
        }
        case ISOJSON_STRING: {
            size_t n = (size_t)(h & ISOJSON_LEN_MASK);
            const uint8_t *p = ref_text(t, input, input_len, h, e[1], n);
            if (p == NULL)
                goto malformed;
            v = loads_str_from_utf8(p, n, (size_t)e[2], (int)(h >> ISOJSON_CLASS_SHIFT) & 3);
            e += 3;
            break;
        }
        case ISOJSON_BIGINT: {
            size_t n = (size_t)(h & ISOJSON_LEN_MASK);
            const uint8_t *p = ref_text(t, input, input_len, h, e[1], n);
            if (p == NULL)
                goto malformed;
            v = big_int(p, n);
            e += 3;
            break;
        }
        /* Containers: lists and dicts apart (citm_catalog opens 21,000 a
         * loads, most of one or two members), then one push. */
        case ISOJSON_ARRAY: {
            cn = (Py_ssize_t)(h & ISOJSON_PAYLOAD_MASK);
            e += 2;
            v = PyList_New(cn);
            if (v == NULL || cn == 0)
                break;
            /* Its leading run of leaves (null, false, true, Int, Float,
             * String: most lists are all leaves) goes straight into
             * its items, in a loop of its own: no frame, no pass through
             * the value switch and the placing below for each. It stops at
             * the first other entry, and within 3 words of the tape's end
             * (the general loop checks those); the rest of the list goes
             * member by member. A NULL item left by a failure is fine for
             * the list's deallocation. */
#ifndef Py_GIL_DISABLED
            PyObject **items = ((PyListObject *)v)->ob_item;   /* kept in a register across the calls */
#endif
            Py_ssize_t pos = 0;
            while (wend - e >= 3) {
                uint64_t lh = e[0];
                unsigned lk = (unsigned)(lh >> ISOJSON_KIND_SHIFT);
                PyObject *x;
                if (lk - ISOJSON_NULL <= ISOJSON_TRUE - ISOJSON_NULL) {
                    x = Py_NewRef(constants[lk - ISOJSON_NULL]);
                    e += 1;
                } else if (lk == ISOJSON_INT) {
                    x = loads_int(ints, (int64_t)e[1]);
                    e += 2;
                } else if (lk == ISOJSON_STRING) {
                    size_t n = (size_t)(lh & ISOJSON_LEN_MASK);
                    const uint8_t *p = ref_text(t, input, input_len, lh, e[1], n);
                    if (p == NULL) {
                        Py_DECREF(v);
                        goto malformed;
                    }
                    x = loads_str_from_utf8(p, n, (size_t)e[2], (int)(lh >> ISOJSON_CLASS_SHIFT) & 3);
                    e += 3;
                } else if (lk == ISOJSON_FLOAT) {
                    double d;
                    memcpy(&d, &e[1], sizeof d);
                    x = PyFloat_FromDouble(d);
                    e += 2;
                } else {
                    break;
                }
                if (x == NULL) {
                    Py_DECREF(v);
                    goto fail;
                }
#ifdef Py_GIL_DISABLED
                PyList_SET_ITEM(v, pos, x);   /* 3.14t: its release store, as everywhere else */
#else
                items[pos] = x;   /* what PyList_SET_ITEM stores, without reloading ob_item */
#endif
                if (++pos == cn)
                    goto place;   /* v, the list, is complete */
            }
            ctable = centries = NULL;
            leaf_pos = pos;
            goto push;
        }
        case ISOJSON_OBJECT:
            cn = (Py_ssize_t)(h & ISOJSON_PAYLOAD_MASK);
            e += 2;
            ctable = centries = NULL;
#if LOADS_DICT_DIRECT
            if ((size_t)cn - 1 < direct_max) {   /* 1 <= cn <= direct_max */
                /* The dict takes its table when the table is full. Its
                 * index slots are set at its first key, unless a shape
                 * then provides them all. */
                v = PyDict_New();
                if (v == NULL)
                    break;
                ctable = loads_dict_keys_new_bare(cn);
                if (ctable == NULL) {
                    Py_DECREF(v);
                    goto fail;
                }
                centries = loads_dict_entries(ctable);
                goto push;
            }
#endif
#ifdef ISOJSON_NO_PRESIZE
            v = PyDict_New();
#else
            v = cn > 5 ? _PyDict_NewPresized(cn) : PyDict_New();
#endif
            if (v == NULL || cn == 0)
                break;
        push:
            if (sp == s->nframes && loads_scratch_frames(s, sp + 1) < 0) {
                frame_free(&(loads_frame){.obj = v, .table = ctable, .shape = NULL});
                goto fail;
            }
            f = &s->frames[sp++];
            *f = (loads_frame){.obj = v, .table = ctable, .entries = centries, .shape = NULL, .pos = leaf_pos,
                                 .n = cn, .key = NULL};
            leaf_pos = 0;
            if (kind == ISOJSON_ARRAY)
                continue;
            goto first_key;
        default:
            goto malformed;
        }
        if (v == NULL)
            goto fail;

    place:
        /* Place v in its container; close every container it completes. */
        if (f == NULL) {
            loads_int_cache_end(ints);
            return v;
        }
        if (f->key == NULL) {   /* a list */
            PyList_SET_ITEM(f->obj, f->pos, v);
            if (++f->pos < f->n)
                continue;
            v = f->obj;
#if LOADS_DICT_DIRECT
            if (f->shape != NULL) {
                loads_shape_release(f->shape);
                f->shape = NULL;
            }
#endif
            goto pop;
        }
#if LOADS_DICT_DIRECT
        if (f->table != NULL) {
            key = f->key;
            f->key = NULL;
            if (f->shape != NULL)
                loads_dict_store_at(f->entries, f->pos, key, v);   /* no probe: the indexes come at the end */
            else if (loads_dict_put(f->table, key, v) < 0)
                goto fail;
            if (++f->pos < f->n)
                goto read_key;
            goto dict_done;
        }
#endif
        {
            int r = PyDict_SetItem(f->obj, f->key, v);
            Py_DECREF(v);
            Py_CLEAR(f->key);
            if (r < 0)
                goto fail;
            if (++f->pos < f->n)
                goto read_key;
            v = f->obj;
            goto pop;
        }

#if LOADS_DICT_DIRECT
    dict_done: {
        /* f, a dict filled directly, has all its members. */
        loads_shape *done = f->shape;   /* the reference moves here */
        f->shape = NULL;
        if (done != NULL) {
            loads_dict_set_count(f->table, f->n);
            loads_dict_take_indices(f->table, done->indices, done->index_bytes);
            loads_shape_matched(done);
        } else if (f->n >= 2 && f->n <= LOADS_SHAPE_MAX) {
            done = loads_shape_offer(&caches, f->table, f->n);
            if (done != NULL)
                loads_shape_hold(done);
        }
        if (done != NULL) {
            /* The parent is a list (it has no key waiting): its next dict
             * is predicted to be like this one. */
            loads_frame *parent = sp >= 2 ? f - 1 : NULL;
            loads_shape *old = parent != NULL && parent->key == NULL ? parent->shape : done;
            if (old != done) {
                parent->shape = done;
                done = old;
            }
            if (done != NULL)
                loads_shape_release(done);
        }
        loads_dict_take_keys(f->obj, f->table);
        f->table = NULL;
        v = f->obj;
    }
#endif
    pop:
        sp--;
        f = sp > 0 ? f - 1 : NULL;
        goto place;

    first_key: {
        /* The first key of the dict f just opened. A dict filled directly
         * looks for a shape: the list's last dict predicts it (no key
         * cache lookup, no shape lookup), else the key cache's str and the
         * member count find one. Without a shape its index slots are set
         * empty here (loads_dict_keys_new_bare). */
        const uint8_t *p = key_text(t, input, input_len, e, wend);
        if (p == NULL)
            goto malformed;
#if LOADS_DICT_DIRECT
        uint64_t kh = e[0];
        if (f->table != NULL) {
            loads_frame *parent = sp >= 2 ? f - 1 : NULL;
            loads_shape *sh;
            if (parent != NULL && parent->key == NULL && (sh = parent->shape) != NULL && sh->n == f->n &&
                loads_shape_key_is(sh, 0, kh, p)) {
                /* A first key only differs from a list's prediction in a
                 * list of two kinds of records, not a sign that the shape
                 * is out of date: no miss counted. */
                f->shape = loads_shape_hold(sh);
                key = Py_NewRef(sh->keys[0].str);
                goto shaped_value;
            }
            key = cached_key(&caches, p, e);
            if (key == NULL)
                goto fail;
            /* Only if something besides the key cache and this dict holds
             * the str, as a shape would: a key seen for the first time (a
             * document of ever new keys) skips the table. */
            if (f->n >= 2 && f->n <= LOADS_SHAPE_MAX && Py_REFCNT(key) > 2 &&
                (sh = loads_shape_find(&caches, key, f->n)) != NULL) {
                f->shape = loads_shape_hold(sh);   /* its first key is this str */
                goto shaped_value;
            }
            loads_dict_clear_indices(f->table);
            f->key = key;
            e += 3;
            continue;
        }
#endif
        key = cached_key(&caches, p, e);
        if (key == NULL)
            goto fail;
        f->key = key;
        e += 3;
        continue;
    }

    read_key: {
        /* The next member's key of dict f: the shape's prediction, else
         * through the interpreter's key cache. */
        const uint8_t *p = key_text(t, input, input_len, e, wend);
        if (p == NULL)
            goto malformed;
#if LOADS_DICT_DIRECT
        uint64_t kh = e[0];
        loads_shape *sh = f->shape;
        if (sh != NULL) {
            if (loads_shape_key_is(sh, f->pos, kh, p)) {
                key = Py_NewRef(sh->keys[f->pos].str);
                goto shaped_value;
            }
            /* Not the predicted key: the entries so far get their
             * indexes, and the rest goes member by member. */
            loads_shape_missed(sh);
            loads_dict_set_count(f->table, f->pos);
            loads_dict_index_entries(f->table);
            f->shape = NULL;
            loads_shape_release(sh);
        }
#endif
        key = cached_key(&caches, p, e);
        if (key == NULL)
            goto fail;
        f->key = key;
        e += 3;
        continue;
    }

#if LOADS_DICT_DIRECT
    shaped_value: {
        /* key (a new reference), the tape key at e, is the one f's shape
         * predicts at f->pos. A value that is a str, an int, null, false
         * or true (most of a record's) goes straight to its entry: not
         * through the value switch and the placing above. Others, and a
         * value near the tape's end, take the general way with the key
         * waiting in the frame. */
        e += 3;
        if (__builtin_expect(wend - e >= 3, 1)) {
            uint64_t vh = e[0];
            unsigned vkind = (unsigned)(vh >> ISOJSON_KIND_SHIFT);
            if (vkind == ISOJSON_STRING) {
                size_t n = (size_t)(vh & ISOJSON_LEN_MASK);
                const uint8_t *p = ref_text(t, input, input_len, vh, e[1], n);
                if (p == NULL) {
                    Py_DECREF(key);
                    goto malformed;
                }
                v = loads_str_from_utf8(p, n, (size_t)e[2], (int)(vh >> ISOJSON_CLASS_SHIFT) & 3);
                e += 3;
            } else if (vkind == ISOJSON_INT) {
                v = loads_int(ints, (int64_t)e[1]);
                e += 2;
            } else if (vkind - ISOJSON_NULL <= ISOJSON_TRUE - ISOJSON_NULL) {
                v = Py_NewRef(constants[vkind - ISOJSON_NULL]);
                e += 1;
            } else {
                f->key = key;
                continue;
            }
            if (v == NULL) {
                Py_DECREF(key);
                goto fail;
            }
            loads_dict_store_at(f->entries, f->pos, key, v);
            if (++f->pos < f->n)
                goto read_key;
            goto dict_done;
        }
        f->key = key;
        continue;
    }
#endif
    }

malformed:
    bad_tape();
fail:
    loads_int_cache_end(ints);
    while (sp > 0)
        frame_free(&s->frames[--sp]);
    return NULL;
}
