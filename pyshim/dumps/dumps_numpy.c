/* numpy under OPT_SERIALIZE_NUMPY, as orjson 3.13 writes it, without
 * importing numpy or using its C API: arrays through the __array_struct__
 * protocol (a PyArrayInterface in a capsule), scalars by their documented
 * object layout (PyObject_HEAD followed by the value).
 *
 * Arrays: C-contiguous, native byte order, at least one dimension, of
 * float64/32/16, int8-64, uint8-64, bool or datetime64[Y..ns]; nested Arrays
 * per dimension. Others raise orjson's error for them, or go to default= when
 * one is given (except a byte-swapped array, which always raises). Values are read with memcpy (arrays may be unaligned).
 * float32 and float16 are printed as float32 (dumps_float32.c); datetime64 as
 * an RFC 3339 datetime (years 0-9999) with the datetime options. Only the
 * exact ndarray and scalar types count; subclasses go to default=. */
#include "dumps.h"
#include "dumps_types.h"
#include "dumps_float32.h"

/* numpy's PyArrayInterface (numpy/ndarraytypes.h), a stable public ABI. */
typedef struct {
    int two;
    int nd;
    char typekind;
    int itemsize;
    int flags;
    Py_intptr_t *shape;
    Py_intptr_t *strides;
    void *data;
    PyObject *descr;
} array_interface;

#define NPY_C_CONTIGUOUS 0x0001
#define NPY_NOTSWAPPED 0x0200

/* numpy's NPY_DATETIMEUNIT values. */
enum { FR_Y = 0, FR_M = 1, FR_W = 2, FR_D = 4, FR_h = 5, FR_m = 6, FR_s = 7, FR_ms = 8, FR_us = 9, FR_ns = 10,
       FR_ps = 11, FR_fs = 12, FR_as = 13, FR_GENERIC = 14 };

static const char *const UNIT_NAMES[] = {"years", "months", "weeks", "", "days", "hours", "minutes", "seconds",
                                         "milliseconds", "microseconds", "nanoseconds", "picoseconds",
                                         "femtoseconds", "attoseconds", "NaT"};

typedef enum { K_F64, K_F32, K_F16, K_I64, K_I32, K_I16, K_I8, K_U64, K_U32, K_U16, K_U8, K_BOOL, K_DT64 } elem_kind;

/* ---- datetime64 ---- */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* a mod b, in [0, b) for b > 0 (C's % takes the sign of a). */
static int64_t floor_mod(int64_t a, int64_t b)
{
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

/* Days since 1970-01-01 → civil date (Howard Hinnant's algorithm). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = floor_div(z, 146097);
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static int dt64_error_unit(int unit)
{
    PyErr_Format(PyExc_TypeError, "unsupported numpy.datetime64 unit: %s",
                 unit >= 0 && unit <= FR_GENERIC ? UNIT_NAMES[unit] : "unknown");
    return -1;
}

static int dt64_unrepresentable(int64_t v, int unit)
{
    PyErr_Format(PyExc_TypeError, "unrepresentable numpy.datetime64: %lld %s", (long long)v, UNIT_NAMES[unit]);
    return -1;
}

/* The representable range, as orjson (through jiff) has it: years 0-9999
 * and timestamps up to 9999-12-30T22:00:00.999999999Z. */
#define DT64_MIN_SECONDS (-62167219200LL) /* 0000-01-01T00:00:00Z */
#define DT64_MAX_SECONDS 253402207200LL   /* 9999-12-30T22:00:00Z */

/* Appends a datetime64 value as text: a clean String entry, for a value and
 * for a key alike. */
static int dumps_dt64(dumps_ctx *c, int64_t v, int unit, int as_key)
{
    int64_t days, secs = 0, us = 0, year, total;
    int month, day;
    switch (unit) {
    case FR_Y:
        if (v > 10000 || v < -10000 || v + 1970 < 0 || v + 1970 > 9999)
            return dt64_unrepresentable(v, unit);
        year = 1970 + v;
        month = 1;
        day = 1;
        goto have_date;
    case FR_M:
        /* orjson divides with truncation: a negative count that is not a
         * whole number of years gives a month outside 1..12, refused (orjson
         * itself aborts on some of them). */
        year = v / 12 + 1970;
        month = (int)(v % 12) + 1;
        if (year < 0 || year > 9999 || month < 1 || month > 12)
            return dt64_unrepresentable(v, unit);
        day = 1;
        goto have_date;
    case FR_W:
    case FR_D:
    case FR_h:
    case FR_m:
    case FR_s: {
        static const int64_t factor[] = {[FR_W] = 604800, [FR_D] = 86400, [FR_h] = 3600, [FR_m] = 60, [FR_s] = 1};
        if (__builtin_mul_overflow(v, factor[unit], &total))
            return dt64_unrepresentable(v, unit);
        break;
    }
    /* The remainders by floor_mod, not v - total * k: near INT64_MIN that
     * product overflows (UBSan: -9223372036854776 * 1000). */
    case FR_ms:
        total = floor_div(v, 1000);
        us = floor_mod(v, 1000) * 1000;
        break;
    case FR_us:
        total = floor_div(v, 1000000);
        us = floor_mod(v, 1000000);
        break;
    case FR_ns: {
        int64_t u = floor_div(v, 1000);
        total = floor_div(u, 1000000);
        us = floor_mod(u, 1000000);
        break;
    }
    default:
        return dt64_error_unit(unit);
    }
    if (total < DT64_MIN_SECONDS || total > DT64_MAX_SECONDS)
        return dt64_unrepresentable(v, unit);
    days = floor_div(total, 86400);
    secs = total - days * 86400;
    civil_from_days(days, &year, &month, &day);
have_date:
    (void)as_key; /* a key and a value are the same String entry */
    char *start = dumps_text_begin(c), *p = start;
    if (start == NULL)
        return -1;
    int y = (int)year;
    *p++ = (char)('0' + y / 1000);
    *p++ = (char)('0' + y / 100 % 10);
    *p++ = (char)('0' + y / 10 % 10);
    *p++ = (char)('0' + y % 10);
    int parts[5] = {month, day, (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60)};
    const char seps[5] = {'-', '-', 'T', ':', ':'};
    for (int i = 0; i < 5; i++) {
        *p++ = seps[i];
        *p++ = (char)('0' + parts[i] / 10);
        *p++ = (char)('0' + parts[i] % 10);
    }
    if (us != 0 && !(c->opts & ISOJSON_OPT_OMIT_MICROSECONDS)) {
        *p++ = '.';
        for (int div = 100000; div >= 1; div /= 10)
            *p++ = (char)('0' + us / div % 10);
    }
    if (c->opts & ISOJSON_OPT_NAIVE_UTC) {
        if (c->opts & ISOJSON_OPT_UTC_Z) {
            *p++ = 'Z';
        } else {
            memcpy(p, "+00:00", 6);
            p += 6;
        }
    }
    return dumps_text_finish(c, start, p);
}

/* ---- one element ---- */

static int dumps_f32_text(dumps_ctx *c, float f)
{
    char buf[24];
    size_t n = dumps_format_f32(f, buf);
    if (n == 4 && memcmp(buf, "null", 4) == 0)
        return dumps_scalar(c, ISOJSON_NULL);
    uint8_t *p = dumps_scratch(c, n);
    if (p == NULL)
        return -1;
    memcpy(p, buf, n);
    return dumps_ref(c, ISOJSON_RAW, ISOJSON_ASCII, ISOJSON_UTF8, p, n, 0);
}

static int dumps_element(dumps_ctx *c, elem_kind kind, const uint8_t *src, int unit)
{
    switch (kind) {
    case K_F64: {
        uint64_t bits;
        memcpy(&bits, src, 8);
        return dumps_number(c, ISOJSON_FLOAT, bits);
    }
    case K_F32: {
        float f;
        memcpy(&f, src, 4);
        return dumps_f32_text(c, f);
    }
    case K_F16: {
        uint16_t h;
        memcpy(&h, src, 2);
        return dumps_f32_text(c, dumps_f16_to_f32(h));
    }
    case K_I64: {
        int64_t v;
        memcpy(&v, src, 8);
        return dumps_number(c, ISOJSON_INT, (uint64_t)v);
    }
    case K_I32: {
        int32_t v;
        memcpy(&v, src, 4);
        return dumps_number(c, ISOJSON_INT, (uint64_t)(int64_t)v);
    }
    case K_I16: {
        int16_t v;
        memcpy(&v, src, 2);
        return dumps_number(c, ISOJSON_INT, (uint64_t)(int64_t)v);
    }
    case K_I8:
        return dumps_number(c, ISOJSON_INT, (uint64_t)(int64_t)(int8_t)src[0]);
    case K_U64: {
        uint64_t v;
        memcpy(&v, src, 8);
        return dumps_number(c, v > INT64_MAX ? ISOJSON_UINT : ISOJSON_INT, v);
    }
    case K_U32: {
        uint32_t v;
        memcpy(&v, src, 4);
        return dumps_number(c, ISOJSON_INT, v);
    }
    case K_U16: {
        uint16_t v;
        memcpy(&v, src, 2);
        return dumps_number(c, ISOJSON_INT, v);
    }
    case K_U8:
        return dumps_number(c, ISOJSON_INT, src[0]);
    case K_BOOL:
        return dumps_scalar(c, src[0] ? ISOJSON_TRUE : ISOJSON_FALSE);
    case K_DT64: {
        int64_t v;
        memcpy(&v, src, 8);
        return dumps_dt64(c, v, unit, 0);
    }
    }
    return dumps_error("unsupported datatype in numpy array");
}

/* ---- arrays ---- */

static int kind_of(char typekind, int itemsize, elem_kind *kind)
{
    switch (typekind) {
    case 'f':
        if (itemsize == 8)
            *kind = K_F64;
        else if (itemsize == 4)
            *kind = K_F32;
        else if (itemsize == 2)
            *kind = K_F16;
        else
            return 0;
        return 1;
    case 'i':
    case 'u': {
        static const elem_kind s[] = {K_I8, K_I16, K_I32, K_I64}, u[] = {K_U8, K_U16, K_U32, K_U64};
        int idx = itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2 : itemsize == 8 ? 3 : -1;
        if (idx < 0)
            return 0;
        *kind = typekind == 'i' ? s[idx] : u[idx];
        return 1;
    }
    case 'b':
        if (itemsize != 1)
            return 0;
        *kind = K_BOOL;
        return 1;
    case 'M':
        if (itemsize != 8)
            return 0;
        *kind = K_DT64;
        return 1;
    }
    return 0;
}

/* The unit of a datetime64 array from its dtype string ("<M8[ns]"): the
 * NPY_DATETIMEUNIT, or -1 with an error raised. */
static int dt64_array_unit(dumps_ctx *c, PyObject *array)
{
    static const struct {
        const char *name;
        int unit;
    } units[] = {{"Y", FR_Y}, {"M", FR_M}, {"W", FR_W}, {"D", FR_D}, {"h", FR_h}, {"m", FR_m}, {"s", FR_s},
                 {"ms", FR_ms}, {"us", FR_us}, {"ns", FR_ns}, {"ps", FR_ps}, {"fs", FR_fs}, {"as", FR_as}};
    PyObject *dtype = PyObject_GetAttr(array, c->st->str_dtype);
    if (dtype == NULL)
        return -1;
    PyObject *s = PyObject_GetAttr(dtype, c->st->str_str);
    Py_DECREF(dtype);
    if (s == NULL)
        return -1;
    if (!PyUnicode_Check(s)) {
        Py_DECREF(s);
        return dumps_error("unsupported datatype in numpy array");
    }
    const char *text = PyUnicode_AsUTF8(s);
    int unit = -1;
    if (text != NULL) {
        const char *open = strchr(text, '[');
        if (open == NULL) {
            unit = FR_GENERIC;
        } else {
            size_t n = strcspn(open + 1, "]");
            for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
                if (strlen(units[i].name) == n && memcmp(open + 1, units[i].name, n) == 0)
                    unit = units[i].unit;
        }
    }
    if (unit < 0) {
        if (text != NULL)
            PyErr_Format(PyExc_TypeError, "unsupported numpy.datetime64 unit: %s", text);
        Py_DECREF(s);
        return -1;
    }
    Py_DECREF(s);
    if (unit == FR_GENERIC || unit >= FR_ps)
        return dt64_error_unit(unit);
    return unit;
}

/* Longest float32 text dumps_format_f32 writes ("-0.00000117549435"),
 * plus its comma. */
#define F32_TEXT_MAX 18

/* The last dimension of a float32/float16 array in compact output, written
 * here as one Raw entry holding the whole "[v,v,...]": one tape entry and
 * one copy in the writer per row instead of one per value (orjson's own
 * float32 path is a tight format loop; per-value entries cost more than the
 * formatting). Under OPT_INDENT_2 every value needs its own line, so this
 * is not used there. The row is formatted straight into the scratch arena
 * and what it did not use is handed back. */
static int dumps_f32_row(dumps_ctx *c, PyObject *array, const array_interface *ai, int dim, const uint8_t *data,
                         elem_kind kind)
{
    Py_intptr_t n = ai->shape[dim], stride = ai->strides[dim];
    if (dumps_enter(c, array, 0) < 0)
        return -1;
    if ((size_t)n > (SIZE_MAX - 2) / F32_TEXT_MAX) {
        dumps_leave(c);
        PyErr_NoMemory();
        return -1;
    }
    size_t cap = (size_t)n * F32_TEXT_MAX + 2;
    uint8_t *start = dumps_scratch(c, cap);
    if (start == NULL) {
        dumps_leave(c);
        return -1;
    }
    char *p = (char *)start;
    *p++ = '[';
    for (Py_intptr_t i = 0; i < n; i++) {
        const uint8_t *src = data + i * stride;
        float f;
        if (kind == K_F32) {
            memcpy(&f, src, 4);
        } else {
            uint16_t h;
            memcpy(&h, src, 2);
            f = dumps_f16_to_f32(h);
        }
        if (i != 0)
            *p++ = ',';
        p += dumps_format_f32(f, p);
    }
    *p++ = ']';
    size_t used = (size_t)(p - (char *)start);
    dumps_text_trim(c, cap - used);
    dumps_leave(c);
    return dumps_ref(c, ISOJSON_RAW, ISOJSON_ASCII, ISOJSON_UTF8, start, used, 0);
}

/* The nested Arrays of dimension dim starting at data. */
static int dumps_dims(dumps_ctx *c, PyObject *array, const array_interface *ai, int dim, const uint8_t *data,
                      elem_kind kind, int unit)
{
    size_t at;
    Py_intptr_t n = ai->shape[dim];
    if (dim + 1 == ai->nd && (kind == K_F32 || kind == K_F16) && !(c->opts & ISOJSON_OPT_INDENT_2))
        return dumps_f32_row(c, array, ai, dim, data, kind);
    if (dumps_enter(c, array, 0) < 0)
        return -1;
    if (dumps_open(c, ISOJSON_ARRAY, &at) < 0)
        goto fail;
    for (Py_intptr_t i = 0; i < n; i++) {
        const uint8_t *p = data + i * ai->strides[dim];
        int rc = dim + 1 < ai->nd ? dumps_dims(c, array, ai, dim + 1, p, kind, unit)
                                  : dumps_element(c, kind, p, unit);
        if (rc < 0)
            goto fail;
    }
    dumps_close(c, at, (size_t)n);
    dumps_leave(c);
    return 0;
fail:
    dumps_leave(c);
    return -1;
}

/* An array orjson refuses: to default= if there is one, else its error. */
static int refuse(dumps_ctx *c, PyObject *array, const char *msg)
{
    if (c->default_fn != NULL)
        return dumps_default(c, array);
    return dumps_error(msg);
}

static int dumps_ndarray(dumps_ctx *c, PyObject *array)
{
    if (dumps_pin(c) < 0)
        return -1;
    PyObject *capsule = PyObject_GetAttr(array, c->st->str_array_struct);
    if (capsule == NULL)
        return -1;
    if (dumps_keep_owned(c, capsule) < 0)
        return -1;
    array_interface *ai = PyCapsule_IsValid(capsule, NULL) ? PyCapsule_GetPointer(capsule, NULL) : NULL;
    if (ai == NULL || ai->two != 2) {
        PyErr_Clear();
        return refuse(c, array, "unsupported datatype in numpy array");
    }
    /* orjson raises for byte order first, even with default=. */
    if (!(ai->flags & NPY_NOTSWAPPED) && ai->itemsize > 1)
        return dumps_error("numpy array is not native-endianness");
    elem_kind kind;
    if (ai->nd == 0 || !kind_of(ai->typekind, ai->itemsize, &kind))
        return refuse(c, array, "unsupported datatype in numpy array");
    if (!(ai->flags & NPY_C_CONTIGUOUS))
        return refuse(c, array, "numpy array is not C contiguous; use ndarray.tolist() in default");
    int unit = 0;
    if (kind == K_DT64 && (unit = dt64_array_unit(c, array)) < 0)
        return -1;
    /* Datetime errors can stop the array half-written: cut the tape back. */
    size_t mark = c->tape.len;
    if (dumps_dims(c, array, ai, 0, ai->data, kind, unit) < 0) {
        c->tape.len = mark;
        return -1;
    }
    return 0;
}

/* ---- scalars ---- */

static const void *scalar_value(PyObject *o) { return (const uint8_t *)o + sizeof(PyObject); }

int dumps_numpy(dumps_ctx *c, PyObject *o)
{
    static const struct {
        enum isojson_cached_type type;
        elem_kind kind;
    } scalars[] = {{ISOJSON_T_NP_FLOAT64, K_F64}, {ISOJSON_T_NP_FLOAT32, K_F32}, {ISOJSON_T_NP_INT64, K_I64},
                   {ISOJSON_T_NP_INT32, K_I32},   {ISOJSON_T_NP_UINT8, K_U8},    {ISOJSON_T_NP_BOOL, K_BOOL},
                   {ISOJSON_T_NP_UINT64, K_U64},  {ISOJSON_T_NP_UINT32, K_U32},  {ISOJSON_T_NP_INT16, K_I16},
                   {ISOJSON_T_NP_INT8, K_I8},     {ISOJSON_T_NP_UINT16, K_U16},  {ISOJSON_T_NP_FLOAT16, K_F16}};
    PyObject *t = (PyObject *)Py_TYPE(o);
    isojson_dumps_state *st = c->st;
    if (t == dumps_type(st, ISOJSON_T_NDARRAY))
        return dumps_ndarray(c, o);
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (t == dumps_type(st, scalars[i].type))
            return dumps_element(c, scalars[i].kind, scalar_value(o), 0);
    if (t == dumps_type(st, ISOJSON_T_NP_DATETIME64)) {
        /* PyDatetimeScalarObject: the value, then {unit, multiplier}. */
        const uint8_t *p = scalar_value(o);
        int64_t v;
        int meta[2];
        memcpy(&v, p, 8);
        memcpy(meta, p + 8, sizeof meta);
        if (meta[0] == FR_GENERIC || meta[0] >= FR_ps || meta[0] == 3 || meta[0] < 0)
            return dt64_error_unit(meta[0]);
        if (meta[1] != 1) {
            PyErr_Format(PyExc_TypeError, "unsupported numpy.datetime64 unit: %d %s", meta[1], UNIT_NAMES[meta[0]]);
            return -1;
        }
        return dumps_dt64(c, v, meta[0], 0);
    }
    return DUMPS_NOT_MINE;
}
