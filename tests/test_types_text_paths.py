"""The per-value text that dumps formats itself (dumps_types.h's
dumps_text_begin/finish: datetimes, dates, times, UUIDs, datetime64 and
OPT_NON_STR_KEYS int keys written straight into the scratch arena as clean
String entries, digits two at a time from tables) and the dataclass members'
names through the key cache: byte parity with orjson 3.13 on every digit
width, every layout option, keys and values side by side, many values (the
scratch arena's chunk boundaries) and Python code run between two texts."""

import dataclasses
import datetime
import itertools
import random
import uuid

import pytest

import _util
from _util import isojson, orjson

LAYOUTS = (0, orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS, orjson.OPT_APPEND_NEWLINE)
DT_OPTIONS = [a | b | c for a, b, c in itertools.product(
    (0, orjson.OPT_NAIVE_UTC), (0, orjson.OPT_UTC_Z), (0, orjson.OPT_OMIT_MICROSECONDS))]


def same(obj, option=0, default=None):
    got = _util.outcome(isojson.dumps, obj, option=option, default=default)
    want = _util.outcome(orjson.dumps, obj, option=option, default=default)
    assert got == want, (repr(obj)[:300], option)
    return got


def digit_widths():
    """Integers of every decimal width, both signs, and the 64-bit edges."""
    values = {0, 2**63 - 1, -(2**63), 2**64 - 1, 2**63}
    for width in range(1, 21):
        low = 10 ** (width - 1)
        for v in (low, low + 1, 2 * low - 1, 10 * low - 1, (low * 37) // 10 + 3):
            if v < 2**64:
                values.add(v)
            if v <= 2**63:
                values.add(-v)
    return sorted(values)


@pytest.mark.parametrize("option", LAYOUTS)
def test_int_keys_of_every_width(option):
    keys = digit_widths()
    same({k: k for k in keys}, option | orjson.OPT_NON_STR_KEYS)
    same([{k: None} for k in keys], option | orjson.OPT_NON_STR_KEYS)
    # Beside str keys that read the same: orjson keeps both.
    same({1: "int", "1": "str", -5: 0, True: 1, None: 2}, option | orjson.OPT_NON_STR_KEYS)


def test_int_keys_out_of_range():
    for k in (2**64, -(2**63) - 1, 10**30):
        same({k: 1}, orjson.OPT_NON_STR_KEYS)


def test_many_int_keys_cross_scratch_chunks():
    rng = random.Random(3)
    d = {rng.randrange(-(2**63), 2**64): i for i in range(20000)}
    same(d, orjson.OPT_NON_STR_KEYS)
    same(d, orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)


def datetime_values():
    rng = random.Random(5)
    out = []
    for us in (0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999, 123456, 500000):
        out.append(datetime.datetime(2026, 1, 2, 3, 4, 5, us))
    for year in (1, 9, 10, 99, 100, 999, 1000, 1999, 2000, 9999):
        out.append(datetime.datetime(year, 12, 31, 23, 59, 59, 999999))
        out.append(datetime.datetime(year, 1, 1))
    for _ in range(200):
        out.append(datetime.datetime(rng.randrange(1, 10000), rng.randrange(1, 13), rng.randrange(1, 29),
                                     rng.randrange(24), rng.randrange(60), rng.randrange(60),
                                     rng.choice((0, rng.randrange(1000000)))))
    return out


@pytest.mark.parametrize("option", DT_OPTIONS)
def test_datetimes_dates_times_of_every_width(option):
    naive = datetime_values()
    zones = [datetime.timezone.utc, datetime.timezone(datetime.timedelta(hours=-3, minutes=-30)),
             datetime.timezone(datetime.timedelta(hours=14)), datetime.timezone(datetime.timedelta(seconds=59))]
    aware = [d.replace(tzinfo=zones[i % len(zones)]) for i, d in enumerate(naive)]
    dates = [d.date() for d in naive]
    # orjson 3.13 drops a time's leading zero of microseconds 10000-99999
    # (see test_types_datetime.py): those are checked against isoformat.
    times = [d.time() for d in naive if not 10000 <= d.microsecond <= 99999]
    if not option & orjson.OPT_OMIT_MICROSECONDS:
        every_time = [d.time() for d in naive]
        assert isojson.dumps(every_time) == orjson.dumps([t.isoformat() for t in every_time])
    for layout in LAYOUTS:
        same([naive, aware, dates, times], option | layout)
        same({"n": naive[:20], "a": aware[:20]}, option | layout)
    keys = naive[:50] + aware[:50] + dates[:50] + times[:50]
    same({k: i for i, k in enumerate(keys)}, option | orjson.OPT_NON_STR_KEYS)
    # Sorted, keys whose texts coincide (a naive and an aware datetime under
    # OPT_NAIVE_UTC, microseconds omitted) may come in either order: keep
    # one key per text.
    unique = {orjson.dumps(k, option=option): k for k in keys}
    same({k: i for i, k in enumerate(unique.values())}, option | orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)


def test_many_datetimes_cross_scratch_chunks():
    base = datetime.datetime(2026, 11, 29, 23, 15, 0, 1)
    values = [base + datetime.timedelta(seconds=7 * i, microseconds=i) for i in range(30000)]
    same(values)
    same([d.date() for d in values[::7]])


class ReentrantOffset(datetime.tzinfo):
    """A utcoffset that itself calls dumps with texts of its own, between
    two datetimes of the outer call."""

    def utcoffset(self, dt):
        inner = [datetime.datetime(1999, 1, 1, 1, 1, 1, 1), uuid.UUID(int=7), {123: 4}]
        self.last = isojson.dumps(inner, option=isojson.OPT_NON_STR_KEYS)
        return datetime.timedelta(hours=1, minutes=30)

    def dst(self, dt):
        return None


def test_python_code_between_texts():
    tz = ReentrantOffset()
    values = []
    for i in range(300):
        values.append(datetime.datetime(2020, 1, 1, 0, 0, i % 60, i))
        values.append(datetime.datetime(2020, 1, 1, 0, 0, i % 60, i, tzinfo=tz))
        values.append(uuid.UUID(int=i * 7919))
    got = isojson.dumps(values)
    expected = orjson.dumps(values)
    assert got == expected
    assert tz.last == orjson.dumps(
        [datetime.datetime(1999, 1, 1, 1, 1, 1, 1), uuid.UUID(int=7), {123: 4}], option=orjson.OPT_NON_STR_KEYS)


@pytest.mark.parametrize("option", LAYOUTS)
def test_uuids(option):
    rng = random.Random(11)
    values = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(500)]
    values += [uuid.UUID(int=0), uuid.UUID(int=2**128 - 1), uuid.UUID(int=0x0123456789ABCDEF0123456789ABCDEF)]
    same(values, option)
    same({u: str(u) for u in values}, option | orjson.OPT_NON_STR_KEYS)


@dataclasses.dataclass
class Point:
    id: int
    name: str
    x: float


@dataclasses.dataclass
class Other:
    # Same names as Point and as dict keys around it, other order and values.
    x: list
    id: str
    _hidden: int = 0


@dataclasses.dataclass(slots=True)
class Slotted:
    id: int
    name: str
    _skip: int = 1


@pytest.mark.parametrize("option", LAYOUTS)
def test_dataclass_names_through_the_key_cache(option):
    items = []
    for i in range(2000):
        items.append(Point(i, f"p{i}", i / 4))
        items.append(Other([i], str(i), i))
        items.append(Slotted(i, "s"))
        items.append({"id": i, "x": None, "name": "dict"})
    same(items, option)


def test_dataclass_names_that_are_str_subclasses():
    class Name(str):
        pass

    p = Point(1, "a", 0.5)
    p.__dict__[Name("sub")] = 2  # a non-exact str key in the instance dict
    same([p, {"sub": 1}])
