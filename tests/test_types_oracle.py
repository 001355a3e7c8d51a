"""The Python API as the oracle, independent of orjson's output: what dumps
writes for datetime/date/time, numpy.datetime64, uuid.UUID, enum.Enum and
dataclasses must mean exactly the value that was given.

- datetimes, dates and times (seeded, naive and aware, fixed offsets and
  zoneinfo zones around their DST transitions, years 1..9999) parse back with
  fromisoformat to an equal value with the same utcoffset, and the text equals
  isoformat() wherever orjson's format agrees with it (everywhere but
  offsets with seconds, which +HH:MM cannot hold: there the wall clock is
  isoformat's and the offset orjson's);
- numpy.datetime64 in every unit, for random int64 values: the text is
  epoch + v units computed with Python integers (nanoseconds floored to the
  microsecond, as orjson writes them); values beyond orjson's range raise as
  orjson does;
- UUIDs are str(u); an Enum member is written as its value; a dataclass as
  dataclasses.asdict of it."""

import dataclasses
import datetime
import enum
import random
import re
import uuid
import zoneinfo

import pytest

import _util
from _util import isojson, orjson

np = _util.import_numpy()

DT = datetime.datetime
TZ = datetime.timezone
TD = datetime.timedelta
UTC = TZ.utc

OMIT, NAIVE_UTC, UTC_Z = orjson.OPT_OMIT_MICROSECONDS, orjson.OPT_NAIVE_UTC, orjson.OPT_UTC_Z
OPTIONS = [sum(b for i, b in enumerate((OMIT, NAIVE_UTC, UTC_Z)) if m >> i & 1) for m in range(8)]
ZONE_NAMES = ("America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns", "Asia/Kathmandu",
              "Europe/London", "UTC")


def test_orjson_agrees_with_isoformat_where_this_file_relies_on_it():
    """The claims the expectations below are built on, checked on orjson:
    '.000000' is omitted as isoformat omits it, years below 1000 are padded
    to 4 digits, an offset of whole minutes is written as isoformat writes it."""
    for dt in (DT(2020, 1, 2, 3, 4, 5), DT(999, 1, 2, 3, 4, 5, 6), DT(1, 1, 1, tzinfo=TZ(TD(hours=-5, minutes=-30))),
               DT(2020, 5, 6, 7, 8, 9, 10, tzinfo=TZ(TD(minutes=45)))):
        assert orjson.dumps(dt) == b'"' + dt.isoformat().encode() + b'"'
    assert orjson.dumps(datetime.time(1, 2, 3)) == b'"01:02:03"'
    assert orjson.dumps(datetime.date(5, 6, 7)) == b'"0005-06-07"'


# ---------------------------------------------------------------------------
# datetime, date, time


def _transitions(zone, year):
    """The UTC instants (to the second) in `year` where zone's offset changes."""
    out = []
    t = DT(year, 1, 1, tzinfo=UTC)
    prev = t.astimezone(zone).utcoffset()
    for _ in range(0, 366 * 24, 12):
        n = t + TD(hours=12)
        off = n.astimezone(zone).utcoffset()
        if off != prev:
            lo, hi = t, n  # bisect to the second: offset(lo) == prev != offset(hi)
            while hi - lo > TD(seconds=1):
                mid = lo + (hi - lo) / 2
                mid = mid.replace(microsecond=0)
                if mid.astimezone(zone).utcoffset() == prev:
                    lo = mid
                else:
                    hi = mid
            out.append(hi)
            prev = off
        t = n
    return out


def _micro(rng):
    return rng.choice((0, 0, rng.randint(1, 999999), rng.randint(1, 999), rng.randint(10000, 99999)))


def datetimes(seed):
    rng = random.Random(seed)
    out = [DT(1, 1, 1), DT(9999, 12, 31, 23, 59, 59, 999999), DT(1970, 1, 1), DT(2000, 2, 29, 12, 0, 0, 1)]
    fixed = [UTC, TZ(TD(0)), TZ(TD(hours=-5, minutes=-30)), TZ(TD(minutes=-30)), TZ(TD(minutes=45)),
             TZ(TD(minutes=-1)), TZ(TD(hours=23, minutes=59)), TZ(TD(hours=-23, minutes=-59)), TZ(TD(hours=14))]
    for _ in range(1000):
        dt = DT(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59),
                rng.randint(0, 59), _micro(rng))
        r = rng.random()
        if r < 0.3:
            out.append(dt)
        elif r < 0.65:
            out.append(dt.replace(year=min(max(dt.year, 2), 9998), tzinfo=rng.choice(fixed)))
        else:  # any year: old dates have local mean time offsets with seconds
            out.append(dt.replace(year=min(max(dt.year, 2), 9998), tzinfo=zoneinfo.ZoneInfo(rng.choice(ZONE_NAMES)),
                                  fold=rng.randint(0, 1)))
    for name in ZONE_NAMES:
        zone = zoneinfo.ZoneInfo(name)
        for year in (rng.randint(1970, 2037), rng.randint(1900, 2100)):
            for when in _transitions(zone, year):
                for _ in range(6):
                    # Instants either side of the change (both folds of an
                    # ambiguous hour), and wall times in a gap or a repeat.
                    inst = when + TD(seconds=rng.randint(-7200, 7200), microseconds=_micro(rng))
                    out.append(inst.astimezone(zone))
                    local = (when + rng.choice((TD(hours=-1), TD(0), TD(hours=1)))).astimezone(zone)
                    out.append(local.replace(tzinfo=zone, fold=rng.randint(0, 1)) + TD(minutes=rng.randint(-90, 90)))
    return out


def _check_datetime(dt, option):
    got = isojson.dumps(dt, option=option)
    assert got[:1] == got[-1:] == b'"', (dt, option, got)
    text = got[1:-1].decode()
    want = dt.replace(microsecond=0) if option & OMIT else dt
    if want.tzinfo is None and option & NAIVE_UTC:
        want = want.replace(tzinfo=UTC)
    off = want.utcoffset()
    if off is not None and off % TD(minutes=1):
        # Local mean time offsets with seconds (zoneinfo before ~1900): the
        # +HH:MM format cannot hold them and orjson rounds them in its own
        # way (-00:00:59 as "-00:01", -00:59:59 as "-00:60"); the wall clock
        # is still isoformat's, and the offset orjson's.
        wall = want.replace(tzinfo=None).isoformat()
        assert text[:-6] == wall and text[-6] in "+-", (dt, option, text)
        assert got == orjson.dumps(dt, option=option), (dt, option, text)
        return
    parsed = DT.fromisoformat(text)
    if off is None:
        assert parsed.tzinfo is None and parsed == want, (dt, option, text)
        assert text == want.isoformat(), (dt, option, text)
        return
    # The same wall clock and offset, so the same instant (== between zones
    # is False for a time in a DST gap or fold, PEP 495: compare parts).
    assert parsed.replace(tzinfo=None) == want.replace(tzinfo=None), (dt, option, text)
    assert parsed.utcoffset() == off, (dt, option, text)
    assert parsed.replace(tzinfo=None) - off == want.replace(tzinfo=None) - want.utcoffset()
    iso = want.isoformat()
    if option & UTC_Z and off == TD(0):
        assert iso.endswith("+00:00")
        iso = iso[:-6] + "Z"
    assert text == iso, (dt, option, text)


@pytest.mark.parametrize("option", OPTIONS)
def test_datetimes_parse_back_to_the_same_value(option):
    values = datetimes(501 + option)
    for dt in values:
        _check_datetime(dt, option)
    # In a list and as dict keys: the same text as alone.
    texts = [isojson.dumps(v, option=option)[1:-1].decode() for v in values]
    assert orjson.loads(isojson.dumps(values, option=option)) == texts
    keys = {v: i for i, v in enumerate(values)}
    got = orjson.loads(isojson.dumps(keys, option=option | orjson.OPT_NON_STR_KEYS))
    assert got == {texts[i]: i for i in keys.values()}


@pytest.mark.parametrize("option", OPTIONS)
def test_dates_and_times_parse_back_to_the_same_value(option):
    rng = random.Random(77 + option)
    dates = [datetime.date(1, 1, 1), datetime.date(9999, 12, 31), datetime.date(2024, 2, 29)]
    dates += [datetime.date(1, 1, 1) + TD(days=rng.randint(0, 3652058)) for _ in range(2000)]
    for d in dates:
        text = isojson.dumps(d, option=option)[1:-1].decode()
        assert datetime.date.fromisoformat(text) == d and text == d.isoformat(), (d, text)
    times = [datetime.time(0), datetime.time(23, 59, 59, 999999), datetime.time(1, 2, 3, 17710)]
    times += [datetime.time(rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), _micro(rng))
              for _ in range(2000)]
    for t in times:
        text = isojson.dumps(t, option=option)[1:-1].decode()
        want = t.replace(microsecond=0) if option & OMIT else t
        # isojson zero-pads 10000-99999 microseconds (orjson 3.13 does not:
        # "01:02:03.17710" for 17710); the text is isoformat's exactly.
        assert datetime.time.fromisoformat(text) == want and text == want.isoformat(), (t, option, text)


# ---------------------------------------------------------------------------
# numpy.datetime64

N = orjson.OPT_SERIALIZE_NUMPY
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
UNIT_US = {"W": 7 * 86400 * 10**6, "D": 86400 * 10**6, "h": 3600 * 10**6, "m": 60 * 10**6, "s": 10**6, "ms": 1000,
           "us": 1}
EPOCH_DAYS = 719468  # days from 0000-03-01 to 1970-01-01 in the proleptic Gregorian calendar


def _days_from_civil(y, m, d):
    """Days since 1970-01-01 (H. Hinnant's algorithm; year 0 included)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - EPOCH_DAYS


def _civil_from_days(z):
    z += EPOCH_DAYS
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (m <= 2), m, d


ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{6}))?(Z|\+00:00)?")


def _parse_us(text):
    """Microseconds since the epoch meant by an ISO text (year 0 allowed)."""
    m = ISO.fullmatch(text)
    assert m, text
    y, mo, d, hh, mm, ss = (int(g) for g in m.groups()[:6])
    assert 1 <= mo <= 12 and 1 <= d <= 31 and hh < 24 and mm < 60 and ss < 60, text
    assert _civil_from_days(_days_from_civil(y, mo, d)) == (y, mo, d), text  # a real calendar day
    return ((_days_from_civil(y, mo, d) * 24 + hh) * 60 + mm) * 60 * 10**6 + ss * 10**6 + int(m.group(7) or 0)


def _meaning_us(v, unit):
    """epoch + v units, in microseconds since the epoch, with Python ints;
    None when that instant is not in a year 0..9999."""
    if unit == "Y":
        y = 1970 + v
        us = _days_from_civil(y, 1, 1) * UNIT_US["D"] if 0 <= y <= 9999 else None
    elif unit == "M":
        y, m = 1970 + v // 12, v % 12 + 1
        us = _days_from_civil(y, m, 1) * UNIT_US["D"] if 0 <= y <= 9999 else None
    elif unit == "ns":
        us = v // 1000  # floored: orjson writes microseconds
    else:
        us = v * UNIT_US[unit]
    lo, hi = _days_from_civil(0, 1, 1) * UNIT_US["D"], _days_from_civil(10000, 1, 1) * UNIT_US["D"]
    return us if us is not None and lo <= us < hi else None


YEAR1_US = _days_from_civil(1, 1, 1) * UNIT_US["D"]
YEAR9999_US = _days_from_civil(9999, 1, 1) * UNIT_US["D"]
UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]


def _values(unit, rng):
    """Random int64 values: over the whole range, over the representable
    years, and the edges of both."""
    if unit == "ns":
        span = INT64_MAX
    else:
        us_per = {"Y": 365 * UNIT_US["D"], "M": 30 * UNIT_US["D"]}.get(unit) or UNIT_US[unit]
        span = 12000 * 366 * UNIT_US["D"] // us_per
    out = [0, 1, -1, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, span, -span, span // 2, -span // 2]
    out += [rng.randint(INT64_MIN + 1, INT64_MAX) for _ in range(150)]
    out += [rng.randint(INT64_MIN + 1, INT64_MAX) >> rng.randint(1, 62) for _ in range(150)]
    out += [rng.randint(-span, span) for _ in range(400)]
    if unit in UNIT_US:  # the first and last representable values and their neighbours
        for edge in (YEAR1_US, _days_from_civil(0, 1, 1) * UNIT_US["D"], _days_from_civil(10000, 1, 1) * UNIT_US["D"]):
            q = edge // UNIT_US[unit]
            out += [q - 1, q, q + 1]
    return out


def _orjson_may_abort(v, unit):
    """orjson 3.13 panics (aborts the process) on a negative month count
    that is not whole years (datetime.rs: month = v % 12 + 1 with Rust's
    remainder); isojson raises TypeError for those instead."""
    return unit == "M" and v < 0 and v % 12 != 0


@pytest.mark.parametrize("unit", UNITS)
def test_datetime64_means_epoch_plus_v_units(unit):
    rng = random.Random(UNITS.index(unit) * 1000 + 64)
    bad = []
    for v in _values(unit, rng):
        if not INT64_MIN < v <= INT64_MAX:  # INT64_MIN is NaT
            continue
        x = np.datetime64(v, unit)
        got = _util.outcome(isojson.dumps, x, option=N)
        meaning = _meaning_us(v, unit)
        if got[0] == "ok":
            text = got[1][1:-1].decode()
            if meaning is None or _parse_us(text) != meaning:
                bad.append((v, text, meaning))
                continue
            if meaning >= YEAR1_US:
                want = DT(1970, 1, 1) + TD(microseconds=meaning)
                assert DT.fromisoformat(text) == want, (v, unit, text)
                assert text == want.isoformat(), (v, unit, text)
            # The same array element, with the options, means the same.
            arr = isojson.dumps(np.array([v, v], dtype=f"datetime64[{unit}]"), option=N | NAIVE_UTC | UTC_Z | OMIT)
            assert arr == (b'["%sZ","%sZ"]' % ((text.split(".")[0].encode(),) * 2)), (v, unit, arr)
        else:
            # Refused: never a value of years 1..9998, and as orjson refuses it.
            assert got[1]["is_TypeError"] and f"unrepresentable numpy.datetime64: {v} " in got[1]["str"], got
            if meaning is not None and YEAR1_US <= meaning < YEAR9999_US and not _orjson_may_abort(v, unit):
                bad.append((v, "refused", meaning))
            if not _orjson_may_abort(v, unit):
                want = _util.outcome(orjson.dumps, x, option=N)
                if want[0] == "ok":
                    # orjson 3.13 multiplies without an overflow check and
                    # writes a wrapped-around instant for some huge counts
                    # (datetime64(2**63 - 1, "W") as "1969-12-25T00:00:00");
                    # isojson refuses those. Any other difference fails.
                    assert _parse_us(want[1][1:-1].decode()) != meaning, (v, unit, want)
                else:
                    assert got == want, (v, unit)
    assert not bad, f"{len(bad)} wrong datetime64[{unit}] values, e.g. {bad[:5]}"


def test_negative_months_that_are_not_whole_years():
    """orjson 3.13 aborts the process on these (a Rust panic); isojson
    raises orjson's TypeError for an unrepresentable datetime64 instead."""
    for v in (-1, -11, -13, -23401):
        with pytest.raises(TypeError, match=f"unrepresentable numpy.datetime64: {v} months"):
            isojson.dumps(np.datetime64(v, "M"), option=N)
    assert isojson.dumps(np.datetime64(-12, "M"), option=N) == b'"1969-01-01T00:00:00"'


# ---------------------------------------------------------------------------
# UUID, Enum, dataclasses


def test_uuids_are_their_str():
    rng = random.Random(128)
    values = [uuid.UUID(int=0), uuid.UUID(int=(1 << 128) - 1), uuid.UUID(int=1), uuid.UUID(int=1 << 127),
              uuid.NAMESPACE_DNS, uuid.NAMESPACE_URL]
    values += [uuid.uuid4() for _ in range(300)] + [uuid.uuid1() for _ in range(100)]
    values += [uuid.UUID(int=rng.getrandbits(128)) for _ in range(300)]
    values += [uuid.uuid1(node=rng.getrandbits(48), clock_seq=rng.getrandbits(14)) for _ in range(50)]
    values += [uuid.uuid3(uuid.NAMESPACE_DNS, str(i)) for i in range(20)] + [uuid.uuid5(uuid.NAMESPACE_OID, "x")]
    for u in values:
        assert isojson.dumps(u) == b'"' + str(u).encode() + b'"', u
    assert isojson.dumps(values) == ("[" + ",".join(f'"{u}"' for u in values) + "]").encode()


class Color(enum.Enum):
    RED = 1
    TEXT = "naïve ☃"
    FLOAT = 2.5
    BIG = 2**63
    NONE = None
    LIST = [1, "a", None]
    DICT = {"k": [True]}
    WHEN = DT(2020, 1, 2, 3, 4, 5, 6, tzinfo=TZ(TD(hours=-3)))
    DAY = datetime.date(2020, 2, 29)
    ID = uuid.UUID(int=99)


class Num(enum.IntEnum):
    ZERO = 0
    NEG = -(2**63)
    MAX = 2**64 - 1


class Word(enum.StrEnum):
    A = "a"
    ESC = 'q"\\\n\x00'
    EMOJI = "😀"


class Perm(enum.IntFlag):
    R = 4
    W = 2


class Mode(enum.Flag):
    X = 1
    Y = 2


class Inner(enum.Enum):
    COLOR = Color.RED
    WORD = Word.A


def test_enum_members_are_their_values():
    members = [*Color, *Num, *Word, *Perm, Perm.R | Perm.W, *Mode, Mode.X | Mode.Y, *Inner]
    for option in (0, orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS, orjson.OPT_UTC_Z | orjson.OPT_NAIVE_UTC):
        for m in members:
            assert isojson.dumps(m, option=option) == isojson.dumps(m.value, option=option), (m, option)
        assert isojson.dumps(members, option=option) == isojson.dumps([m.value for m in members], option=option)
        assert isojson.dumps({"m": members}, option=option) == isojson.dumps({"m": [m.value for m in members]},
                                                                              option=option)


@dataclasses.dataclass
class Point:
    x: int
    y: float


@dataclasses.dataclass(slots=True)
class Slotted:
    name: str
    where: Point
    when: datetime.datetime
    id: uuid.UUID


@dataclasses.dataclass
class Shape:
    points: list
    color: Color
    meta: dict
    slotted: Slotted
    pair: tuple


@dataclasses.dataclass(frozen=True, slots=True)
class Tree:
    label: str
    children: list


def _tree(rng, depth):
    return Tree("n%d" % rng.randint(0, 99), [_tree(rng, depth - 1) for _ in range(rng.randint(0, 3))] if depth else [])


def dataclass_values(seed):
    rng = random.Random(seed)
    out = []
    for i in range(200):
        pts = [Point(rng.randint(-10**9, 10**9), rng.choice((0.5, -1.25, 1e300, 3.0)))
               for _ in range(rng.randint(0, 4))]
        when = DT(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), 0, 0,
                  _micro(rng), tzinfo=rng.choice((None, UTC, TZ(TD(minutes=-90)))))
        s = Slotted("s" * rng.randint(0, 5) + "é", Point(i, i / 4), when, uuid.UUID(int=rng.getrandbits(128)))
        out.append(Shape(pts, rng.choice(list(Color)), {"k": pts[:1], "s": [s], "d": datetime.date(2000, 1, 1)}, s,
                         (1, "t", None)))
        out.append(s)
        out.append(_tree(rng, 3))
    return out


@pytest.mark.parametrize("option", [0, orjson.OPT_NON_STR_KEYS, orjson.OPT_INDENT_2 | OMIT | NAIVE_UTC | UTC_Z])
def test_dataclasses_are_their_asdict(option):
    values = dataclass_values(9 + option)
    for v in values:
        assert isojson.dumps(v, option=option) == isojson.dumps(dataclasses.asdict(v), option=option), v
    assert isojson.dumps(values, option=option) == isojson.dumps([dataclasses.asdict(v) for v in values],
                                                                 option=option)


def test_sort_keys_leaves_dataclass_fields_in_their_order():
    """As orjson does: OPT_SORT_KEYS sorts dicts, a dataclass keeps the
    order of its fields (dicts inside it are sorted)."""
    s = Slotted("z", Point(2, 1.5), DT(2020, 1, 1), uuid.UUID(int=5))
    got = isojson.dumps(Shape([], Color.RED, {"b": 1, "a": 2}, s, ()), option=orjson.OPT_SORT_KEYS)
    assert got == (b'{"points":[],"color":1,"meta":{"a":2,"b":1},"slotted":{"name":"z","where":{"x":2,"y":1.5},'
                   b'"when":"2020-01-01T00:00:00","id":"00000000-0000-0000-0000-000000000005"},"pair":[]}')
