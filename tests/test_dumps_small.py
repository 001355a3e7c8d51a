"""dumps's small-tape path (pyshim/dumps/dumps_small.c): a tape of up to
SMALL_MAX_WORDS words holding only null, booleans, 64-bit ints, UTF-8
strings and containers is written in C, with no engine call; any other tape
goes to the engine. Byte for byte against orjson at and around the size
where the path stops, for every kind at that size, under every combination
of the options the writer honours: what the two writers do must not show."""

import pytest

import _util
from _util import isojson, orjson

# DUMPS_SMALL_MAX_WORDS in pyshim/dumps/dumps_small.h.
SMALL_MAX_WORDS = 32
COMBINATIONS = _util.option_combinations()


def tape_words(v):
    """The words of v's tape as the walk lays it out (backend/tape.go):
    null and booleans 1, numbers 2, strings 3, containers 2 plus members."""
    if v is None or isinstance(v, bool):
        return 1
    if isinstance(v, (int, float)):
        return 2
    if isinstance(v, str):
        return 3
    if isinstance(v, (list, tuple)):
        return 2 + sum(tape_words(x) for x in v)
    if isinstance(v, dict):
        return 2 + sum(3 + tape_words(x) for x in v.values())
    raise TypeError(type(v))


# One value of each kind (and the ones that send the tape to the engine).
LEAVES = {
    "null": None, "true": True, "false": False,
    "int0": 0, "int-small": 7, "int-neg": -42, "int64-min": -(1 << 63), "int64-max": (1 << 63) - 1,
    "uint64": (1 << 64) - 1, "uint-2^63": 1 << 63, "int-digits": 1234567890123,
    "str-empty": "", "str-ascii": "created", "str-escaped": 'a"b\\c\n\t\x00\x1f\x7f\r\b\f',
    "str-controls": "".join(map(chr, range(0x20))),
    "empty-list": [], "empty-dict": {}, "tuple": (1, "x"),
    # to the engine:
    "float": 1.5, "float-neg-exp": -1e-7, "str-latin1": "ÿé", "str-ucs2": "Жж",
    "str-ucs4": "🙂x", "str-mixed": "café ☃ 🙂",
}


def _int_list(words):
    """A list of ints whose tape is exactly `words` words (even, >= 2)."""
    return list(range((words - 2) // 2))


def _sized(kind, words):
    """A list whose tape has exactly `words` words: the leaf of `kind`
    first, then nulls (one word each) to fill."""
    leaf = LEAVES[kind]
    n = words - 2 - tape_words(leaf)
    assert n >= 0
    return [leaf] + [None] * n


BOUNDARY = range(SMALL_MAX_WORDS - 3, SMALL_MAX_WORDS + 4)


def check(v, opt):
    """isojson writes orjson's bytes, or raises where orjson raises
    (OPT_STRICT_INTEGER on ints beyond 53 bits)."""
    try:
        want = orjson.dumps(v, option=opt)
    except orjson.JSONEncodeError as e:
        with pytest.raises(isojson.JSONEncodeError) as got:
            isojson.dumps(v, option=opt)
        assert str(got.value) == str(e), (v, opt)
        return
    assert isojson.dumps(v, option=opt) == want, (v, opt)


@pytest.mark.parametrize("opt_id, opt", COMBINATIONS, ids=[c[0] for c in COMBINATIONS])
@pytest.mark.parametrize("kind", sorted(LEAVES))
def test_every_kind_at_the_boundary(kind, opt_id, opt):
    for words in BOUNDARY:
        if words - 2 - tape_words(LEAVES[kind]) < 0:
            continue
        v = _sized(kind, words)
        assert tape_words(v) == words
        check(v, opt)
        # As a dict member, and the value alone at the root.
        check({"k": v}, opt)
    check(LEAVES[kind], opt)


@pytest.mark.parametrize("opt_id, opt", COMBINATIONS, ids=[c[0] for c in COMBINATIONS])
def test_shapes_around_the_boundary(opt_id, opt):
    for words in BOUNDARY:
        if words % 2 == 0:
            v = _int_list(words)
            assert tape_words(v) == words
            check(v, opt)
        # Nesting to the deepest a small tape holds: [[[...]]] of words/2 levels.
        depth = words // 2
        nested = []
        for _ in range(depth - 1):
            nested = [nested]
        assert tape_words(nested) == 2 * (depth - 1) + 2
        check(nested, opt)
        # Dicts of escaped keys, unsorted (SORT_KEYS reorders them in C first).
        n = (words - 2) // 4
        d = {f"k\n{9 - i}\"": None for i in range(n)}
        check(d, opt)
        # Mixed: the api/status message grown to the boundary.
        msg = {"ok": True, "id": 48213, "error": None, "msg": "created"}
        while tape_words(msg) < words - 3:
            msg[f"f{len(msg)}"] = False if tape_words(msg) + 4 <= words else None
        check(msg, opt)
        check([msg], opt)


def test_leaves_written_by_the_engine_beside_small_ones():
    # A float, a big int, a Fragment or UCS text anywhere sends the whole
    # tape to the engine; the rest of it must still be exact.
    frag = isojson.Fragment(b'{"raw":[1,2]}')
    for extra in (2.5, "é", "Ж", "🙂", frag):
        v = {"a": None, "b": [1, -2, "x\n"], "c": extra}
        want = orjson.dumps({**v, "c": orjson.Fragment(b'{"raw":[1,2]}')} if extra is frag else v)
        for opt, oopt in ((0, 0), (isojson.OPT_INDENT_2, orjson.OPT_INDENT_2)):
            got = isojson.dumps(v, option=opt)
            exp = want if opt == 0 else orjson.dumps(
                {**v, "c": orjson.Fragment(b'{"raw":[1,2]}')} if extra is frag else v, option=oopt)
            assert got == exp, (extra, opt)


def test_big_int_beside_small_ones():
    # orjson raises on ints beyond 64 bits; isojson writes their digits
    # (the one extension), through the engine.
    assert isojson.dumps([None, 1 << 70, "x"]) == b'[null,1180591620717411303424,"x"]'
    assert isojson.dumps({"a": -(1 << 64)}, option=isojson.OPT_INDENT_2) == b'{\n  "a": -18446744073709551616\n}'


@pytest.mark.parametrize("opt_id, opt", COMBINATIONS, ids=[c[0] for c in COMBINATIONS])
def test_text_around_the_byte_bound(opt_id, opt):
    # DUMPS_SMALL_MAX_BYTES (4096) bounds the text C writes: a bound of
    # 6 bytes per byte of escaped text, 1 per byte of clean text, and 25 per
    # entry beside it.
    for n in range(4096 - 60, 4096 + 4):
        check("x" * n, opt)
        check(["x" * n], opt)
        check({"k": "x" * (n - 30)}, opt)
    for n in range(4096 // 6 - 12, 4096 // 6 + 4):
        check("\n" * n, opt)
        check(["\x01" * n, None], opt)


def test_every_int_length_and_short_text_length():
    # The C path's digits (every length, 1 to 20, at each power of ten) and
    # its word-move copy of clean text (every length up to past 32).
    for e in range(20):
        for v in {10**e - 1, 10**e, 10**e + 1, 2 * 10**e, 10**e + 10**e // 2}:
            for x in (v, -v):
                if -(1 << 63) <= x < (1 << 64):
                    assert isojson.dumps([x, None]) == orjson.dumps([x, None]), x
                    assert isojson.dumps({"k": x}) == orjson.dumps({"k": x}), x
    for n in range(0, 41):
        t = "".join(chr(0x41 + (i * 7) % 26) for i in range(n))
        assert isojson.dumps([t]) == orjson.dumps([t]), n
        assert isojson.dumps({t: t}) == orjson.dumps({t: t}), n


def test_small_after_long_and_back():
    # The path shares the thread's output buffer with the engine's copy path.
    big = {"k": "x" * 100_000, "l": list(range(2000))}
    for _ in range(3):
        assert isojson.dumps(big) == orjson.dumps(big)
        assert isojson.dumps({"a": 1}) == b'{"a":1}'
        assert isojson.dumps([None] * 30) == orjson.dumps([None] * 30)


def test_errors_are_unchanged():
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps({1: 2})
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps("\ud800")
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps({"a": object()})
    assert isojson.dumps({1: None}, option=isojson.OPT_NON_STR_KEYS) == b'{"1":null}'
