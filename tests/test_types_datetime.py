"""datetime.datetime/date/time: byte parity with orjson 3.13 under every
combination of the options that affect them (NAIVE_UTC, OMIT_MICROSECONDS,
UTC_Z, PASSTHROUGH_DATETIME, plus NON_STR_KEYS and SORT_KEYS for keys), naive
and aware with datetime.timezone, zoneinfo, and tzinfo subclasses written in
Python (the way pytz and dateutil work: one utcoffset(dt) call)."""

import datetime
import itertools
import random
import zoneinfo

import pytest

import _util
from _util import isojson, orjson

DT = datetime.datetime
TZ = datetime.timezone
TD = datetime.timedelta

DATETIME_BITS = (orjson.OPT_NAIVE_UTC, orjson.OPT_OMIT_MICROSECONDS, orjson.OPT_UTC_Z,
                 orjson.OPT_PASSTHROUGH_DATETIME)
KEY_BITS = (orjson.OPT_NAIVE_UTC, orjson.OPT_OMIT_MICROSECONDS, orjson.OPT_UTC_Z,
            orjson.OPT_PASSTHROUGH_DATETIME, orjson.OPT_SORT_KEYS)


def combinations(bits):
    out = []
    for mask in range(1 << len(bits)):
        out.append(sum(b for i, b in enumerate(bits) if mask >> i & 1))
    return out


class PyOffset(datetime.tzinfo):
    """A tzinfo in Python, as pytz and dateutil are."""

    def __init__(self, minutes):
        self.minutes = minutes

    def utcoffset(self, dt):
        return TD(minutes=self.minutes)

    def dst(self, dt):
        return TD(0)

    def tzname(self, dt):
        return "py"


class NoneOffset(datetime.tzinfo):
    def utcoffset(self, dt):
        return None


def zones():
    out = [TZ.utc, TZ(TD(hours=-5, minutes=-30)), TZ(TD(hours=5, minutes=45)), TZ(TD(seconds=3661)),
           TZ(TD(hours=23, minutes=59)), TZ(TD(seconds=-1)), TZ(TD(microseconds=-1)), TZ(TD(microseconds=5)),
           TZ(TD(hours=-23, minutes=-59, seconds=-59)), PyOffset(0), PyOffset(-90), PyOffset(600), NoneOffset()]
    for name in ("America/New_York", "Asia/Kolkata", "Europe/Amsterdam", "Australia/Lord_Howe", "UTC",
                 "Pacific/Kiritimati", "America/St_Johns"):
        out.append(zoneinfo.ZoneInfo(name))
    return out


def datetimes():
    rng = random.Random(7)
    out = [DT(2020, 1, 2, 3, 4, 5), DT(2020, 1, 2, 3, 4, 5, 123), DT(1, 1, 1), DT(9999, 12, 31, 23, 59, 59, 999999),
           DT(999, 5, 6, 7, 8, 9, 10), DT(1900, 1, 1), DT(2000, 2, 29, 12, 0, 0, 500000)]
    for _ in range(30):
        out.append(DT(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                      rng.randint(0, 59), rng.randint(0, 59), rng.choice((0, rng.randint(0, 999999)))))
    aware = []
    for dt, tz in zip(itertools.cycle(out), zones() * 3):
        if dt.year < 2 or dt.year > 9998:
            dt = dt.replace(year=2001)
        aware.append(dt.replace(tzinfo=tz))
    return out + aware


def orjson_time_bug(obj):
    """orjson 3.13 writes a time's microseconds 10000-99999 without their
    leading zero (time(1, 2, 3, 17710) as "01:02:03.17710", which means
    177100); isojson writes the correct "01:02:03.017710"."""
    return type(obj) is datetime.time and 10000 <= obj.microsecond <= 99999


def same(obj, option):
    got = _util.outcome(isojson.dumps, obj, option=option)
    want = _util.outcome(orjson.dumps, obj, option=option)
    if isinstance(obj, list) and any(orjson_time_bug(v) for v in obj):
        obj = [v for v in obj if not orjson_time_bug(v)]
        return same(obj, option)
    if orjson_time_bug(obj) and not option & orjson.OPT_PASSTHROUGH_DATETIME:
        us = "" if option & orjson.OPT_OMIT_MICROSECONDS else ".%06d" % obj.microsecond
        assert got == ("ok", obj.strftime("\"%H:%M:%S").encode() + us.encode() + b'"')
        return
    assert got == want, (obj, option)


@pytest.mark.parametrize("option", combinations(DATETIME_BITS))
def test_datetimes_every_option_combination(option):
    values = datetimes()
    for v in values:
        same(v, option)
    same(values, option | orjson.OPT_INDENT_2)
    same({"d": values, "x": [values[0]]}, option | orjson.OPT_SORT_KEYS)


@pytest.mark.parametrize("option", combinations(DATETIME_BITS))
def test_dates_and_times(option):
    rng = random.Random(11)
    values = [datetime.date(1, 1, 1), datetime.date(9999, 12, 31), datetime.date(5, 6, 7), datetime.date(2024, 2, 29),
              datetime.time(0, 0), datetime.time(23, 59, 59, 999999), datetime.time(1, 2, 3, 4),
              datetime.time(12, 30, 0, 100000)]
    values += [datetime.date(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28)) for _ in range(20)]
    values += [datetime.time(rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 999999))
               for _ in range(20)]
    for v in values:
        same(v, option)
    same(values, option)


def test_time_microseconds_are_zero_padded():
    for us in (4, 40, 400, 4000, 10000, 17710, 40000, 99999, 100000, 999999):
        t = datetime.time(1, 2, 3, us)
        assert isojson.dumps(t) == ('"01:02:03.%06d"' % us).encode()
        assert isojson.dumps(t) == b'"' + t.isoformat().encode() + b'"'


def test_aware_time_is_refused():
    for option in (0, orjson.OPT_UTC_Z, orjson.OPT_NON_STR_KEYS):
        same(datetime.time(1, 2, tzinfo=TZ.utc), option)
        same([1, datetime.time(1, 2, tzinfo=PyOffset(5))], option)
        same({datetime.time(1, tzinfo=TZ.utc): 1}, option | orjson.OPT_NON_STR_KEYS)


def test_passthrough_datetime_uses_default():
    values = [DT(2020, 1, 1, tzinfo=TZ.utc), datetime.date(2020, 1, 1), datetime.time(1)]
    for default in (None, str, lambda o: o.isoformat()):
        got = _util.outcome(isojson.dumps, values, option=orjson.OPT_PASSTHROUGH_DATETIME, default=default)
        want = _util.outcome(orjson.dumps, values, option=orjson.OPT_PASSTHROUGH_DATETIME, default=default)
        assert got == want


def test_subclasses_are_not_datetimes():
    class MyDT(DT):
        pass

    class MyDate(datetime.date):
        pass

    for v in (MyDT(2020, 1, 1), MyDate(2020, 1, 1)):
        same(v, 0)
        got = isojson.dumps(v, default=lambda o: "d")
        assert got == orjson.dumps(v, default=lambda o: "d")


@pytest.mark.parametrize("option", combinations(KEY_BITS))
def test_datetime_keys(option):
    values = datetimes()[::3] + [datetime.date(2020, 1, 2), datetime.date(1, 1, 1), datetime.time(1, 2, 3, 4)]
    doc = {v: i for i, v in enumerate(values)}
    doc["plain"] = -1
    same(doc, option | orjson.OPT_NON_STR_KEYS)


def test_failing_utcoffset():
    """orjson itself crashes on a utcoffset that raises; isojson raises
    JSONEncodeError with the exception as __cause__ (and refuses results
    that are not timedeltas)."""

    class Raising(datetime.tzinfo):
        def utcoffset(self, dt):
            raise ValueError("nope")

    class Wrong(datetime.tzinfo):
        def utcoffset(self, dt):
            return 5

    with pytest.raises(isojson.JSONEncodeError) as info:
        isojson.dumps([DT(2020, 1, 1, tzinfo=Raising())])
    assert isinstance(info.value.__cause__, ValueError)
    assert "timezone library is not supported" in str(info.value)
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps(DT(2020, 1, 1, tzinfo=Wrong()))


def test_utcoffset_that_mutates_the_document():
    """utcoffset is Python code: the document may change under the walk."""
    doc = {}

    class Mutating(datetime.tzinfo):
        def utcoffset(self, dt):
            doc.clear()
            return TD(hours=1)

    doc.update({"".join(["k", str(i)]): "".join(["v", "x" * 40, str(i)]) for i in range(20)})
    doc["dt"] = DT(2020, 1, 1, tzinfo=Mutating())
    got = orjson.loads(isojson.dumps(doc))
    assert got["dt"] == "2020-01-01T00:00:00+01:00"
    assert got["k3"] == "v" + "x" * 40 + "3"


def test_utcoffset_that_grows_the_document():
    """A utcoffset that adds to the list and the dict being written: they are
    written with the members they had when their walk began, the bytes orjson
    writes (which reads each size once)."""
    box = ["x", [1, 2]]
    doc = {"a": 1, "box": box}

    class Growing(datetime.tzinfo):
        def utcoffset(self, dt):
            box.append("late")
            doc["late"] = 2
            return TD(hours=1)

    box.append(DT(2026, 12, 4, tzinfo=Growing()))
    doc["z"] = 3
    assert isojson.dumps(doc) == b'{"a":1,"box":["x",[1,2],"2026-12-04T00:00:00+01:00"],"z":3}'
    assert box[3:] == ["late"] and list(doc)[3:] == ["late"]


def test_pytz_and_dateutil_zones():
    """The timezone libraries orjson names: pytz (localized datetimes) and
    dateutil, through their own utcoffset."""
    import pytz
    from dateutil import tz as dtz

    values = []
    for name in ("America/New_York", "Europe/Amsterdam", "Asia/Kathmandu", "UTC", "Australia/Adelaide"):
        z = pytz.timezone(name)
        values += [z.localize(DT(2020, m, 15, 12, 30, 45, us)) for m, us in ((1, 0), (7, 123456))]
        values.append(DT(2020, 1, 1, tzinfo=z))  # unlocalized: pytz's LMT offset, as orjson writes it
        d = dtz.gettz(name)
        values += [DT(2020, m, 15, 12, 30, 45, tzinfo=d) for m in (1, 7)]
    values += [DT(2020, 1, 1, tzinfo=dtz.tzutc()), DT(2020, 1, 1, tzinfo=dtz.tzoffset(None, -3600 * 3 - 1800)),
               DT(2020, 1, 1, tzinfo=dtz.tzlocal()), DT(2020, 1, 1, tzinfo=pytz.utc),
               DT(2020, 1, 1, tzinfo=pytz.FixedOffset(-90))]
    for option in combinations(DATETIME_BITS):
        for v in values:
            same(v, option)
        same({v: i for i, v in enumerate(values)}, option | orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)
