/* datetime.datetime, datetime.date and datetime.time → their RFC 3339 text
 * as orjson writes it, formatted here into the scratch arena and appended as
 * a clean String entry (the same for a value and for a dict key).
 *
 *   datetime  YYYY-MM-DDTHH:MM:SS[.ffffff][+HH:MM|-HH:MM|Z]
 *   date      YYYY-MM-DD
 *   time      HH:MM:SS[.ffffff]          (an aware time is refused)
 *
 * Microseconds are written when non-zero, unless OPT_OMIT_MICROSECONDS. A
 * naive datetime has no offset unless OPT_NAIVE_UTC. An aware one has the
 * offset orjson asks for: tzinfo.utcoffset(dt) (datetime.timezone, zoneinfo,
 * dateutil, any tzinfo), dt.utcoffset() for pendulum (a tzinfo with
 * convert), tzinfo.normalize(dt).utcoffset() for pytz; written as orjson does: seconds are rounded
 * to the nearest minute (without carrying into the hour), the sign comes from the timedelta's days (-1 means negative), a zero offset
 * is +00:00, or Z under OPT_UTC_Z. The fields are read with the datetime
 * header's macros, which need no import of the datetime C API. */
#include "dumps.h"
#include "dumps_types.h"

#include "datetime.h"

#define MSG_TZ_LIBRARY \
    "datetime's timezone library is not supported: use datetime.timezone.utc, pendulum, pytz, or dateutil"

/* Two digits a store, from a table: the per-digit divisions cost more than
 * everything else in formatting a date. */
static inline char *put2(char *p, int v)
{
    memcpy(p, dumps_digit_pairs + 2 * v, 2);
    return p + 2;
}

static inline char *put_date(char *p, int y, int m, int d)
{
    p = put2(p, y / 100);
    p = put2(p, y % 100);
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    return put2(p, d);
}

static inline char *put_time(char *p, int h, int mi, int s, int us, uint32_t opts)
{
    p = put2(p, h);
    *p++ = ':';
    p = put2(p, mi);
    *p++ = ':';
    p = put2(p, s);
    if (us != 0 && !(opts & ISOJSON_OPT_OMIT_MICROSECONDS)) {
        *p++ = '.';
        p = put2(p, us / 10000);
        p = put2(p, us / 100 % 100);
        p = put2(p, us % 100);
    }
    return p;
}

/* The cached type `which` of the datetime group. The locked walk of 3.14t
 * (dumps_ft.h) reaches here only once its datetime type has been found, and
 * must not look one up (a lookup may run Python code): a slot another thread
 * is still filling reads as not found. */
static PyObject *datetime_type(dumps_ctx *c, enum isojson_cached_type which)
{
#ifdef Py_GIL_DISABLED
    if (c->ft_locked)
        return dumps_type_slot(c->st, which);
#endif
    return dumps_type(c->st, which);
}

/* The offset of an aware datetime: 0 with *seconds and *negative set, or -1
 * with an exception. */
static int utc_offset(dumps_ctx *c, PyObject *dt, PyObject *tzinfo, int *seconds, int *negative)
{
    isojson_dumps_state *st = c->st;
    PyObject *off = NULL;
    int has;
    if ((PyObject *)Py_TYPE(tzinfo) == datetime_type(c, ISOJSON_T_TIMEZONE)) {
        /* datetime.timezone (a final type): its utcoffset is C that returns
         * the timedelta it holds, so no Python code runs and nothing needs
         * pinning; the locked walk goes on. */
        off = PyObject_CallMethodOneArg(tzinfo, st->str_utcoffset, dt);
        goto got;
    }
    /* Any other tzinfo's utcoffset may be Python code that changes what is
     * being walked. */
    if (dumps_pin(c) < 0)
        return -1;
    Py_INCREF(tzinfo);
    if (dumps_keep_owned(c, tzinfo) < 0)
        return -1;
    Py_INCREF(dt);
    if (dumps_keep_owned(c, dt) < 0)
        return -1;
    if ((has = PyObject_HasAttrWithError(tzinfo, st->str_convert)) != 0) {
        /* pendulum: the datetime's own utcoffset() */
        off = has < 0 ? NULL : PyObject_CallMethodNoArgs(dt, st->str_utcoffset);
    } else if ((has = PyObject_HasAttrWithError(tzinfo, st->str_normalize)) != 0) {
        /* pytz: the offset of tzinfo.normalize(dt), which corrects a
         * tzinfo attached without localize() */
        PyObject *normal = has < 0 ? NULL : PyObject_CallMethodOneArg(tzinfo, st->str_normalize, dt);
        if (normal != NULL) {
            off = PyObject_CallMethodNoArgs(normal, st->str_utcoffset);
            Py_DECREF(normal);
        }
    } else {
        off = PyObject_CallMethodOneArg(tzinfo, st->str_utcoffset, dt);
    }
got:
    if (off == NULL) {
        PyObject *cause = PyErr_GetRaisedException();
        PyErr_SetString(PyExc_TypeError, MSG_TZ_LIBRARY);
        PyObject *exc = PyErr_GetRaisedException();
        PyException_SetCause(exc, cause);
        PyErr_SetRaisedException(exc);
        return -1;
    }
    *seconds = 0;
    *negative = 0;
    if (off == Py_None) {
        /* orjson writes such a datetime as UTC. */
        Py_DECREF(off);
        return 0;
    }
    PyObject *delta = datetime_type(c, ISOJSON_T_TIMEDELTA);
    if (delta == NULL || !PyObject_TypeCheck(off, (PyTypeObject *)delta)) {
        Py_DECREF(off);
        return dumps_error(MSG_TZ_LIBRARY);
    }
    int days = PyDateTime_DELTA_GET_DAYS(off);
    int secs = PyDateTime_DELTA_GET_SECONDS(off);
    Py_DECREF(off);
    if (days == -1 && secs != 0) {
        *negative = 1;
        secs = 86400 - secs;
    }
    *seconds = secs;
    return 0;
}

/* Values and keys are the same String entry. One function per type: the
 * date's would otherwise pay the datetime's frame (its registers saved and
 * restored, about 10 instructions a value). */
int dumps_date(dumps_ctx *c, PyObject *o)
{
    char *start = dumps_text_begin(c);
    if (start == NULL)
        return -1;
    char *p = put_date(start, PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o));
    return dumps_text_finish(c, start, p);
}

int dumps_time(dumps_ctx *c, PyObject *o)
{
    if (PyDateTime_TIME_GET_TZINFO(o) != Py_None)
        return dumps_error("datetime.time must not have tzinfo set");
    char *start = dumps_text_begin(c);
    if (start == NULL)
        return -1;
    char *p = put_time(start, PyDateTime_TIME_GET_HOUR(o), PyDateTime_TIME_GET_MINUTE(o),
                       PyDateTime_TIME_GET_SECOND(o), PyDateTime_TIME_GET_MICROSECOND(o), c->opts);
    return dumps_text_finish(c, start, p);
}

int dumps_datetime(dumps_ctx *c, PyObject *o)
{
    (void)PyDateTimeAPI; /* declared by datetime.h; the macros used need no C API import */
    uint32_t opts = c->opts;
    char *start, *p;
    /* The offset first: tzinfo.utcoffset is Python code, which must not run
     * while the text is half-formatted in the scratch arena. */
    PyObject *tzinfo = PyDateTime_DATE_GET_TZINFO(o);
    int offset = 0, seconds = 0, negative = 0;
    if (tzinfo == Py_None) {
        offset = (opts & ISOJSON_OPT_NAIVE_UTC) != 0;
    } else {
        if (utc_offset(c, o, tzinfo, &seconds, &negative) < 0)
            return -1;
        offset = 1;
    }
    if ((start = dumps_text_begin(c)) == NULL)
        return -1;
    p = put_date(start, PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o));
    *p++ = 'T';
    p = put_time(p, PyDateTime_DATE_GET_HOUR(o), PyDateTime_DATE_GET_MINUTE(o), PyDateTime_DATE_GET_SECOND(o),
                 PyDateTime_DATE_GET_MICROSECOND(o), opts);
    if (!offset)
        return dumps_text_finish(c, start, p);
    if (seconds == 0 && (opts & ISOJSON_OPT_UTC_Z)) {
        *p++ = 'Z';
    } else {
        /* orjson rounds leftover seconds to the nearest minute without
         * carrying into the hour: 86399 s is "23:60". */
        int hours = seconds / 3600, minutes = seconds / 60 % 60;
        if (seconds - hours * 3600 - minutes * 60 >= 30)
            minutes++;
        *p++ = negative ? '-' : '+';
        p = put2(p, hours % 100);
        *p++ = ':';
        p = put2(p, minutes);
    }
    return dumps_text_finish(c, start, p);
}
