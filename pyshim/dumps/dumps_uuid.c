/* uuid.UUID (the exact type) → its canonical text, 8-4-4-4-12 lowercase hex
 * digits, from the 128-bit `int` attribute, as orjson writes it. The int's
 * digits are read from its header (cpython/cpython_long.h), the int itself
 * from UUID's slot (uuid_int). */
#include "dumps.h"
#include "dumps_types.h"
#include "cpython/cpython_long.h"

/* The 8 lowercase hex digits of x, the first (most significant) in the low
 * byte, as a little-endian store writes them: each nibble spread to a byte,
 * then '0' added, and 'a' - '0' - 10 more where the nibble is 10 or more
 * (its byte plus 6 carries into bit 4). About 15 instructions for 8 digits,
 * where a table of digit pairs took a load, a shift and a store for each
 * byte. */
static inline uint64_t hex8(uint32_t x)
{
    uint64_t n = x;
    n = (n | n << 16) & 0x0000FFFF0000FFFFull;
    n = (n | n << 8) & 0x00FF00FF00FF00FFull;
    n = (n | n << 4) & 0x0F0F0F0F0F0F0F0Full; /* byte k: nibble k from the bottom */
    uint64_t letters = ((n + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
    n += 0x3030303030303030ull + letters * ('a' - '0' - 10);
    return __builtin_bswap64(n);
}

static inline void store32(char *p, uint64_t v)
{
    uint32_t w = (uint32_t)v;
    memcpy(p, &w, 4);
}

/* The int's high and low 64 bits: 0, or -1 with an exception. */
static int uuid_bits(PyObject *value, uint64_t *hi, uint64_t *lo)
{
    /* A negative int, one of 2^128 or more, or no int: only an int set past
     * UUID's constructor (orjson writes zeros for the first two). */
    static const char msg[] = "UUID.int is not a 128-bit integer";
    if (!PyLong_Check(value))
        return dumps_error(msg);
    if (isojson_long_u128(value, hi, lo) == 0)
        return 0;
    /* Another int layout than 3.14's, or out of range: the public API. */
    if (PyLong_IsNegative(value))
        return dumps_error(msg);
    uint8_t bytes[16];
    Py_ssize_t n = PyLong_AsNativeBytes(value, bytes, 16, Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (n == -1)
        return -1;
    if (n > 16)
        return dumps_error(msg);
    *hi = dumps_load_be64(bytes);
    *lo = dumps_load_be64(bytes + 8);
    return 0;
}

/* Finds where UUID (the exact type t) keeps `int`, for uuid_int: a slot
 * (a member descriptor of an object), met by the generic getattr. Anything
 * else (a property, a __getattribute__, a metaclass) leaves it unknown. */
static void uuid_int_learn(isojson_dumps_state *st, PyTypeObject *t)
{
    if (Py_TYPE(t) != &PyType_Type || t->tp_getattro != PyObject_GenericGetAttr)
        return;
    /* The class attribute of a member descriptor is the descriptor. The
     * lookup gives the type a version tag if it can have one (0 otherwise,
     * which matches nothing); the tag must still be the same after the
     * descriptor is read (3.14t: another thread may change the class). */
    PyObject *d;
    if (PyObject_GetOptionalAttr((PyObject *)t, st->str_int, &d) <= 0) {
        PyErr_Clear();
        return;
    }
    unsigned tag = __atomic_load_n(&t->tp_version_tag, __ATOMIC_ACQUIRE);
    if (Py_TYPE(d) == &PyMemberDescr_Type) {
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type == Py_T_OBJECT_EX && !(m->flags & Py_AUDIT_READ) && m->offset > 0 && m->offset < INT32_MAX &&
            _PyType_Lookup(t, st->str_int) == d)
            dumps_tagged_put(&st->uuid_int_slot, t, tag, (uint32_t)m->offset);
    }
    Py_DECREF(d);
}

/* o.int, a new reference (NULL with an exception). The generic getattr
 * (about 130 instructions: the type's lookup, the descriptor's call) is
 * replaced by a read of the slot while the type is as it was when the slot
 * was found: a type's version tag changes with any change to it or to its
 * bases (the offset is kept by that tag: dumps_tagged_get). With the GIL
 * the slot is loaded (an empty one takes getattr for its AttributeError);
 * on 3.14t, where another thread may store into it meanwhile,
 * PyMember_GetOne reads it as the descriptor itself would (its reference
 * taken safely), and raises the same error. */
static PyObject *uuid_int(dumps_ctx *c, PyObject *o)
{
    isojson_dumps_state *st = c->st;
    PyTypeObject *t = Py_TYPE(o);
    uint32_t offset;
    if (!dumps_tagged_get(&st->uuid_int_slot, dumps_type_tag(t), &offset)) {
        uuid_int_learn(st, t);
        return PyObject_GetAttr(o, st->str_int);
    }
#ifdef Py_GIL_DISABLED
    PyMemberDef m = {"int", Py_T_OBJECT_EX, (Py_ssize_t)offset, 0, NULL};
    return PyMember_GetOne((const char *)o, &m);
#else
    PyObject *v = *(PyObject **)((char *)o + offset);
    return v != NULL ? Py_NewRef(v) : PyObject_GetAttr(o, st->str_int);
#endif
}

int dumps_uuid(dumps_ctx *c, PyObject *o, int as_key)
{
    if (dumps_pin(c) < 0)
        return -1;
    PyObject *value = uuid_int(c, o);
    if (value == NULL)
        return -1;
    uint64_t hi, lo;
    int rc = uuid_bits(value, &hi, &lo);
    Py_DECREF(value);
    if (rc < 0)
        return -1;
    (void)as_key; /* a key and a value are the same String entry */
    char *p = dumps_text_begin(c);
    if (p == NULL)
        return -1;
    /* Digits 0-7, 8-11, 12-15, 16-19, 20-23, 24-31 at 0, 9, 14, 19, 24, 28:
     * 8-byte stores where the next store or a dash overwrites their tail. */
    uint64_t h1 = hex8((uint32_t)hi), l0 = hex8((uint32_t)(lo >> 32));
    uint64_t h0 = hex8((uint32_t)(hi >> 32)), l1 = hex8((uint32_t)lo);
    memcpy(p, &h0, 8);
    store32(p + 9, h1);
    store32(p + 14, h1 >> 32);
    store32(p + 19, l0);
    store32(p + 24, l0 >> 32);
    memcpy(p + 28, &l1, 8);
    p[8] = p[13] = p[18] = p[23] = '-';
    return dumps_text_finish(c, p, p + 36);
}
