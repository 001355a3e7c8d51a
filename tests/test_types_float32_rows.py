"""numpy float32/float16 arrays written a row at a time (dumps_numpy.c's
dumps_f32_row: the last dimension as one Raw "[v,...]" entry in compact
output) and the float32 formatter's fast paths (dumps_float32.c: integers
below 2^24 without Ryu, digits from a pair table): byte parity with orjson
3.13 on random bit patterns, every integer around the 2^24 edge, the longest
texts, every layout option and the rows' edge shapes."""

import pytest

import _util
from _util import isojson, orjson

np = _util.import_numpy()

N = orjson.OPT_SERIALIZE_NUMPY
LAYOUTS = (N, N | orjson.OPT_INDENT_2, N | orjson.OPT_APPEND_NEWLINE, N | orjson.OPT_SORT_KEYS)


def same(obj, option=N):
    got = _util.outcome(isojson.dumps, obj, option=option)
    want = _util.outcome(orjson.dumps, obj, option=option)
    assert got == want, (repr(obj)[:200], option)


def test_random_bit_patterns_in_rows():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**32, size=400_000, dtype=np.uint64).astype(np.uint32)
    same(bits.view(np.float32).reshape(-1, 100))
    same(bits.view(np.float32))


def test_integers_around_the_exact_range():
    # Below 2^24 the formatter skips Ryu; at and above it Ryu decides.
    edge = 2**24
    ints = np.concatenate([np.arange(-2000, 2000), np.arange(edge - 3000, edge + 3000), -np.arange(edge - 50, edge + 50),
                           np.array([10**k for k in range(8)]), np.array([9 * 10**k for k in range(8)]),
                           np.arange(1, 2**24, 4099)])
    same(ints.astype(np.float32))
    powers = np.array([2.0**e for e in range(-149, 128)], dtype=np.float32)
    same(powers)
    same(-powers)


@pytest.mark.parametrize("scale", [2, 4, 8, 1024, 3, 10, 1e7, 1e-7, 1e30])
def test_fractions(scale):
    a = (np.arange(-5000, 5000, dtype=np.float32) / np.float32(scale)).reshape(100, 100)
    same(a)


def test_longest_texts_fit():
    # 17 bytes: a sign, "0.00000" and nine digits.
    longest = np.array([-1.17549435e-6, -9.99999e-6, -1.2345678e-6, 1.2345679e-6, -3.4028235e38, -1.1754944e-38,
                        -1.0e-45, -1234567800000.0, -9999999000000.0], dtype=np.float32)
    same(np.tile(longest, (3, 40)))


@pytest.mark.parametrize("option", LAYOUTS)
def test_shapes_and_layouts(option):
    base = (np.arange(48, dtype=np.float32) - 20) / 8
    base[3] = np.nan
    base[7] = np.inf
    base[11] = -np.inf
    base[13] = -0.0
    for dtype in ("f4", "f2"):
        for shape in [(48,), (6, 8), (2, 3, 8), (48, 1), (1, 48), (0,), (3, 0), (0, 3), (2, 0, 2)]:
            a = base[: int(np.prod(shape))].astype(dtype).reshape(shape)
            same(a, option)
            same({"a": a, "b": [a, 1]}, option)


def test_every_float16_in_rows():
    h = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    same(h.reshape(256, 256))


def test_row_beside_other_values_and_errors():
    a = np.arange(30, dtype=np.float32).reshape(3, 10) / 4
    same([a, "x", {"k": a}, [a[0].copy()]])
    # A failure after rows were written leaves no trace in the output.
    with pytest.raises(orjson.JSONEncodeError):
        isojson.dumps([a, object()], option=N)
    same([a, None])
