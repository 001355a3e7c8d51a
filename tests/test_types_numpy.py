"""numpy under OPT_SERIALIZE_NUMPY: byte parity with orjson 3.13 for every
supported dtype, shapes, scalars, datetime64 units and the datetime options,
every float16 bit pattern, random float32 values, unaligned arrays, and
orjson's errors (or default=) for what it refuses. isojson never imports
numpy: it finds it in sys.modules once the caller has."""

import itertools

import pytest

import _util
from _util import isojson, orjson

np = _util.import_numpy()

N = orjson.OPT_SERIALIZE_NUMPY
DT_BITS = (orjson.OPT_NAIVE_UTC, orjson.OPT_UTC_Z, orjson.OPT_OMIT_MICROSECONDS)


def same(obj, option=N, default=None):
    got = _util.outcome(isojson.dumps, obj, option=option, default=default)
    want = _util.outcome(orjson.dumps, obj, option=option, default=default)
    assert got == want, (repr(obj)[:200], option)
    return got


NUMERIC = ["f8", "f4", "f2", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "?"]


@pytest.mark.parametrize("dtype", NUMERIC)
def test_numeric_arrays_of_every_shape(dtype):
    rng = np.random.default_rng(1)
    base = rng.integers(0, 100, size=24) if dtype != "?" else rng.integers(0, 2, size=24)
    for shape in [(24,), (2, 12), (2, 3, 4), (1, 1, 24), (4, 3, 2, 1), (0,), (3, 0), (0, 3), (2, 0, 2)]:
        size = int(np.prod(shape))
        a = base[:size].astype(dtype).reshape(shape)
        for option in (N, N | orjson.OPT_INDENT_2, N | orjson.OPT_APPEND_NEWLINE):
            same(a, option)
    info = np.iinfo(dtype) if dtype[0] in "iu" else None
    if info is not None:
        same(np.array([info.min, info.max, 0], dtype=dtype))


def test_float64_values():
    rng = np.random.default_rng(2)
    bits = rng.integers(0, 2**63, size=20000, dtype=np.uint64) | (rng.integers(0, 2, size=20000, dtype=np.uint64) << np.uint64(63))
    a = bits.view(np.float64)
    same(a)
    same(np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 5e-324, 1e16, 1e-7]))


def test_every_float16_bit_pattern():
    a = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    got = isojson.dumps(a, option=N)
    want = orjson.dumps(a, option=N)
    if got != want:
        g, w = orjson.loads(got.replace(b"null", b'"n"')), orjson.loads(want.replace(b"null", b'"n"'))
        bad = [(i, g[i], w[i]) for i in range(65536) if repr(g[i]) != repr(w[i])]
        raise AssertionError(f"{len(bad)} float16 values differ, e.g. {bad[:5]}")


def test_float32_values():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**32, size=200000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    powers = np.array([10.0 ** k for k in range(-45, 39)] + [1.5 * 10.0 ** k for k in range(-44, 38)], dtype=np.float32)
    edges = np.array([2.0 ** k for k in range(-149, 128)], dtype=np.float32)
    for arr in (a, powers, edges, np.nextafter(edges, np.float32(np.inf)), np.nextafter(edges, np.float32(0))):
        got = isojson.dumps(arr, option=N)
        want = orjson.dumps(arr, option=N)
        if got != want:
            g, w = got[1:-1].split(b","), want[1:-1].split(b",")
            bad = [(arr[i], g[i], w[i]) for i in range(len(arr)) if g[i] != w[i]]
            raise AssertionError(f"{len(bad)} float32 values differ, e.g. {bad[:5]}")


def test_scalars():
    values = [np.float64(1.5), np.float32(1.1), np.float16(1.1), np.int8(-128), np.int16(-5), np.int32(7),
              np.int64(-2**63), np.uint8(255), np.uint16(9), np.uint32(2**32 - 1), np.uint64(2**64 - 1),
              np.bool_(True), np.bool_(False), np.float32("nan"), np.float64("inf"), np.intp(3), np.uint(5)]
    for option in (N, N | orjson.OPT_STRICT_INTEGER, N | orjson.OPT_PASSTHROUGH_SUBCLASS):
        same(values, option)
        for v in values:
            same(v, option)
    same({"a": np.float32(2.5), "b": [np.arange(3)]}, N | orjson.OPT_SORT_KEYS)


def test_without_the_option_numpy_goes_to_default():
    for v in (np.arange(3), np.float64(1.5), np.int64(1), np.bool_(True)):
        same(v, 0)
        same(v, 0, default=lambda o: "D")


UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]


@pytest.mark.parametrize("unit", UNITS)
def test_datetime64_every_unit_and_option(unit):
    rng = np.random.default_rng(4)
    secs = rng.integers(-2208988800, 253402300799, size=300)  # 1900 .. 9999
    a = np.array(secs, dtype="datetime64[s]").astype(f"datetime64[{unit}]")
    extra = np.array(["1970-01-01", "2000-02-29", "1969-12-31", "0001-01-01", "9999-12-31"], dtype="datetime64[D]")
    a = np.concatenate([a, extra.astype(f"datetime64[{unit}]")])
    for r in range(len(DT_BITS) + 1):
        for bits in itertools.combinations(DT_BITS, r):
            option = N | sum(bits)
            same(a, option)
            same(a[0], option)
            same(a.reshape(-1, 1)[:4], option)


def test_datetime64_fractions_and_errors():
    same(np.array(["1970-01-01T00:00:00.123456789", "1969-12-31T23:59:59.999999999", "NaT"], dtype="datetime64[ns]"))
    same(np.datetime64(-1, "us"))
    same(np.array(["2021-01-01T00:00:00.25"], dtype="datetime64[ms]"), N | orjson.OPT_OMIT_MICROSECONDS)
    for bad in (np.array(["10000-01-01"], dtype="datetime64[D]"), np.array(["-0001-01-01"], dtype="datetime64[D]"),
                np.array([2**62], dtype="datetime64[s]"), np.array([1], dtype="datetime64[ps]"),
                np.array(["NaT"], dtype="datetime64"), np.datetime64("NaT"), np.datetime64(1, "fs"),
                [1, np.array([0, 2**62], dtype="datetime64[s]")]):
        same(bad)
        same(bad, default=lambda o: "D")


def test_refused_arrays_raise_or_go_to_default():
    refused = [np.array(5), np.arange(6)[::2], np.asfortranarray(np.arange(6).reshape(2, 3)), np.array([1j]),
               np.array(["a"]), np.array([1, "a"], dtype=object), np.array([1.5], dtype=">f8"),
               np.array([1], dtype=">i4"), np.array([1], dtype="timedelta64[s]"), np.array([1.5], dtype=np.longdouble)]
    for a in refused:
        same(a)
        same(a, default=lambda o: "D")
        same([a, 1], default=lambda o: o.tolist() if o.dtype.kind in "fiu" else "D")


def test_unaligned_and_readonly_arrays():
    raw = b"\x00" + np.arange(7, dtype="<f8").tobytes()
    a = np.frombuffer(raw, dtype="<f8", offset=1)
    assert not a.flags.aligned
    same(a)
    raw = b"\x00" + np.arange(7, dtype="<i4").tobytes()
    same(np.frombuffer(raw, dtype="<i4", offset=1))
    same(np.frombuffer(np.arange(5, dtype="<u2").tobytes(), dtype="<u2"))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_subclasses_are_not_numpy():
    class Sub(np.ndarray):
        pass

    same(np.arange(3).view(Sub))
    same(np.matrix([[1, 2]]))
    same(np.longlong(5))
    same(np.arange(3).view(Sub), default=lambda o: "D")
