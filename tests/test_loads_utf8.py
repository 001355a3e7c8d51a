"""loads' UTF-8 → str decoding (pyshim/loads/loads_str.c and its SSSE3 kernel,
pyshim/loads/loads_utf8_simd.c): every character class (1-, 2-, 3- and 4-byte
UTF-8; Latin-1, BMP and astral results) at every position relative to the
kernel's 16-byte loads and 64-byte mask blocks, in strings of 0..100
characters of every fill class, and random mixes, against bytes.decode and
orjson (which also checks each str's kind: a str one width too wide compares
unequal).

The kernel (UCS2 and UCS4 results) is chosen when the extension loads: these checks run here with
whatever this process has (the kernel, on an x86 CPU with SSSE3), and again
in child Pythons with ISOJSON_UTF8_SIMD=0 (the portable loop) and =1, both
under PYTHONMALLOC=debug (a write past a str's storage corrupts the debug
allocator's guard bytes and aborts)."""

import os
import random

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import _util
from _util import isojson

# One character of each class: ASCII, Latin-1 (2-byte UTF-8), other 2-byte,
# 3-byte (CJK, the BMP's ends around the surrogates), 4-byte (astral).
SPECIALS = ["A", "\x7f", "\x80", "é", "\xff", "ж", "\u07ff", "\u0800", "日", "\ud7ff", "\ue000", "\uffff",
            "\U00010000", "😀", "\U0010ffff"]
FILLS = ["a", "é", "ж", "日", "😀"]
LENGTHS = range(0, 101)


def _check_doc(strs):
    """loads of a list of strs (values, and keys of one-member dicts) gives
    them back, as orjson does."""
    doc = orjson.dumps([strs, [{s: 0} for s in strs]])
    got = isojson.loads(doc)
    want = orjson.loads(doc)
    assert _util.same_value(got, want) is None, _util.same_value(got, want)
    for g, s in zip(got[0], strs):
        assert g == s, (s, g)
    # The same strings parsed alone: a str that is the whole document.
    for s in strs[:: max(1, len(strs) // 50)]:
        assert isojson.loads(orjson.dumps(s)) == s


@pytest.mark.parametrize("fill", FILLS)
def test_every_class_at_every_position(fill):
    """A special character at every position of every length 1..100 of a fill
    character: with a 1-byte fill it lands on every byte offset of a 16-byte
    load; with 2-, 3- and 4-byte fills on every offset modulo their size. Two
    specials side by side too (a step's table entry holds both)."""
    for sp in SPECIALS:
        strs = []
        for n in LENGTHS:
            for p in range(n):
                strs.append(fill * p + sp + fill * (n - p - 1))
            if n >= 2:
                strs += [fill * p + sp + sp + fill * (n - p - 2) for p in range(0, n - 1, 3)]
        _check_doc(strs)


def test_fills_alone_every_length():
    """Every fill and pairs of fills alternating, lengths 0..100: runs of one
    class (ASCII 16 bytes a step, others 4 characters a step) and their
    tails shorter than a load."""
    strs = []
    for n in LENGTHS:
        for a in FILLS:
            strs.append(a * n)
            for b in FILLS:
                strs.append("".join(a if k % 2 else b for k in range(n)))
                strs.append("".join(a if (k // 5) % 2 else b for k in range(n)))
    _check_doc(strs)


def test_ascii_runs_around_the_four_byte_threshold():
    """The kernel widens 16 ASCII bytes when at least 4 lead a step and
    decodes 4 characters otherwise: ASCII runs of 0..20 between CJK, Cyrillic
    and Latin-1 characters, starting at every offset."""
    strs = []
    for other in ("日", "ж", "é", "😀"):
        for run in range(0, 21):
            for lead in range(0, 17):
                body = ("x" * run + other) * 6
                strs.append("y" * lead + body)
                strs.append(other * lead + body)
    _check_doc(strs)


def _random_text(rnd, n):
    pools = [
        lambda: chr(rnd.randrange(0x20, 0x7f)),
        lambda: chr(rnd.randrange(0x80, 0x100)),
        lambda: chr(rnd.randrange(0x100, 0x800)),
        lambda: chr(rnd.choice([rnd.randrange(0x800, 0xd800), rnd.randrange(0xe000, 0x10000)])),
        lambda: chr(rnd.randrange(0x10000, 0x110000)),
    ]
    # A subset of classes per string, so that Latin-1 and BMP strings (the
    # UCS1 and UCS2 kernels) come as often as astral ones.
    chosen = rnd.sample(pools, rnd.randrange(1, 6))
    return "".join(rnd.choice(chosen)() for _ in range(n))


def test_random_mixes_against_bytes_decode():
    """Random strings of random class mixes, lengths 0..300, against
    bytes.decode('utf-8') of their own UTF-8 (no escapes: JSON leaves
    non-ASCII as it is)."""
    rnd = random.Random(20261130)
    strs = [_random_text(rnd, rnd.randrange(0, 301)) for _ in range(3000)]
    for s in strs:
        raw = s.replace("\\", "/").replace('"', "'")
        b = ('"' + "".join(c if c >= " " else "_" for c in raw) + '"').encode()
        want = b[1:-1].decode("utf-8")
        got = isojson.loads(b)
        assert got == want and type(got) is str
    _check_doc(strs)


def test_twitter_like_text():
    """Japanese with ASCII, URLs and emoji, as in twitter.json, long enough
    for several 64-byte mask blocks."""
    base = "RT @user: 今日はいい天気ですね！ http://t.co/abc 明日も晴れるといいな #天気 ÉTÉ Привет 😀🎉 ok"
    strs = [base[k:] * m for k in range(0, 40) for m in (1, 2, 5)]
    _check_doc(strs)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("ISOJSON_UTF8_CHILD") == "1", reason="already the child run")
@pytest.mark.parametrize("simd", ["0", "1"])
def test_again_with_kernel_forced_under_debug_malloc(simd):
    _util.pytest_in_child(["test_loads_utf8.py"], 900, marks=None, PYTHONMALLOC="debug", ISOJSON_UTF8_SIMD=simd,
                          ISOJSON_UTF8_CHILD="1")
