"""dumps's direct write of a short tape with a lot of text
(pyshim/dumps/dumps_write.c, dumps_write_text): a tape below
DUMPS_DIRECT_MIN_WORDS whose strings hold DUMPS_DIRECT_MIN_BYTES or more of
text is written straight into the bytes object, sized from the text the walk
counted (exactly for one clean str). Byte for byte against orjson at the
switch's boundary, for every str kind (ASCII, UCS1, UCS2, UCS4, cached
UTF-8), with escapes that make the estimate short, strings the walk does not
count, and OPT_INDENT_2 / OPT_APPEND_NEWLINE."""

import ctypes

import pytest

import _util
from _util import isojson, orjson

# DUMPS_DIRECT_MIN_BYTES in pyshim/dumps/dumps_write.h; DUMPS_CURSOR_TEXT_MAX
# in pyshim/dumps/dumps.h.
DIRECT_MIN_BYTES = 4096
CURSOR_TEXT_MAX = 1024

OPTIONS = [0, orjson.OPT_INDENT_2, orjson.OPT_APPEND_NEWLINE, orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE,
           orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2]

# (name, character, UTF-8 bytes a character): the walk counts ASCII and
# cached UTF-8 exactly, UCS1/2/4 data by a bound of 2, 3, 4 a character.
KINDS = [("ascii", "a", 1), ("ucs1", "\xe9", 2), ("ucs2", "\u0416", 3), ("ucs4", "\U0001f600", 4)]


def texts(nbytes):
    """Strings of every kind whose counted text is around nbytes."""
    for name, ch, width in KINDS:
        for n in sorted({max(0, nbytes // width - 1), nbytes // width, nbytes // width + 1}):
            yield f"{name}-{n}", ch * n
            # A kind with ASCII mixed in: the bound overestimates.
            yield f"{name}-mixed-{n}", "x" * max(0, n - 1) + ch
    # Escapes: the counted text is short of the output.
    for n in (DIRECT_MIN_BYTES - 1, DIRECT_MIN_BYTES, DIRECT_MIN_BYTES + 1, 6 * DIRECT_MIN_BYTES):
        yield f"quotes-{n}", '"' * n
        yield f"controls-{n}", "\x01" * n
        yield f"mixed-escape-{n}", ("ab\n\\" * n)[:n]
        yield f"ucs2-escape-{n}", ("\u0416\n" * n)[:n]


def cache_utf8(s):
    """Makes CPython cache s's UTF-8 form (then the walk references it)."""
    f = ctypes.pythonapi.PyUnicode_AsUTF8AndSize
    f.restype = ctypes.c_void_p
    f.argtypes = [ctypes.py_object, ctypes.c_void_p]
    assert f(s, None)
    return s


@pytest.mark.parametrize("opts", OPTIONS)
@pytest.mark.parametrize("name,s", list(texts(DIRECT_MIN_BYTES)) + list(texts(CURSOR_TEXT_MAX)))
def test_one_str(name, s, opts):
    assert isojson.dumps(s, option=opts) == orjson.dumps(s, option=opts)


@pytest.mark.parametrize("opts", OPTIONS)
@pytest.mark.parametrize("name,s", list(texts(DIRECT_MIN_BYTES)))
def test_str_in_containers(name, s, opts):
    for v in ([s], [s, s[:10], 1, None, 2.5], {"k": s}, {"a": [s], "b": {"c": s}, "d": True},
              (s, s), [[s[: len(s) // 2]], s[len(s) // 2:]]):
        assert isojson.dumps(v, option=opts) == orjson.dumps(v, option=opts), (name, type(v))


@pytest.mark.parametrize("opts", OPTIONS)
@pytest.mark.parametrize("n", [DIRECT_MIN_BYTES - 2, DIRECT_MIN_BYTES - 1, DIRECT_MIN_BYTES, DIRECT_MIN_BYTES + 1])
def test_uncounted_strings(n, opts):
    """Strings the list and dict loops write inline (ASCII up to
    CURSOR_TEXT_MAX bytes) are not counted: many of them beside one counted
    str leave the estimate short, and the write grows the bytes object."""
    short = ["y" * CURSOR_TEXT_MAX] * 40
    for v in ([*short, "a" * n], {"s": "a" * n, "l": short}, ["a" * n] + short):
        assert isojson.dumps(v, option=opts) == orjson.dumps(v, option=opts)


@pytest.mark.parametrize("opts", OPTIONS)
@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_cached_utf8(width, opts):
    ch = {1: "a", 2: "\xe9", 3: "\u0416", 4: "\U0001f600"}[width]
    for n in (DIRECT_MIN_BYTES // width - 1, DIRECT_MIN_BYTES // width, DIRECT_MIN_BYTES // width + 1):
        s = cache_utf8("x" + ch * n)
        assert isojson.dumps(s, option=opts) == orjson.dumps(s, option=opts)
        assert isojson.dumps([s, s], option=opts) == orjson.dumps([s, s], option=opts)


def test_big_str_repeated():
    """Many calls of a few MiB each: the output is right each time and the
    estimate of the long tapes after it is not thrown off."""
    s = "a" * (3 << 20)
    for _ in range(3):
        assert isojson.dumps(s) == orjson.dumps(s)
    doc = [{"id": i, "name": f"n{i}", "v": i * 0.5} for i in range(2000)]
    assert isojson.dumps(doc) == orjson.dumps(doc)
    assert isojson.dumps(s + "\n") == orjson.dumps(s + "\n")


def test_surrogate_still_refused():
    s = "a" * DIRECT_MIN_BYTES + "\ud800"
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps(s)
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps([s])
