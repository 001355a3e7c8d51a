"""Golden vectors for the isojson writer, produced by orjson itself.

Run: scripts/py scripts/gen_golden.py   (from the repository root)

Seeded and deterministic: the same orjson gives the same files. Writes to
testdata/golden/:

  floats.txt.gz   one orjson.dumps(float) output a line. The float is not
                  stored: orjson's output reads back as exactly that float
                  (shortest round-trip digits), so a test parses the line,
                  writes the float and compares; this halves the size.
                  NaN and infinities are in specials.jsonl.
  strings.jsonl.gz  {"s": str (ASCII-escaped JSON), "out": orjson.dumps(s)}
  docs.jsonl.gz   {"doc": json.dumps(value), "opt": option bits,
                  "out": orjson.dumps(value, option=opt)} for every
                  combination of OPT_INDENT_2, OPT_SORT_KEYS, OPT_APPEND_NEWLINE.
  specials.jsonl  hand-picked values with their outputs (NaN, inf, -0.0,
                  integers at the int64/uint64 limits, empty containers).
  errors.jsonl.gz   {"hex": invalid document, "msg", "pos", "lineno",
                  "colno"} of orjson.JSONDecodeError: every JSONTestSuite
                  document orjson rejects, as is, after blank lines, and
                  after a line holding non-ASCII text (so that line, column
                  and character position all differ from the byte offset).
"""

import gzip
import json
import math
import os
import random
import struct
import sys

import orjson

SEED = 20261129
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "golden")

OPTS = [0]
for ind in (0, orjson.OPT_INDENT_2):
    for srt in (0, orjson.OPT_SORT_KEYS):
        for nl in (0, orjson.OPT_APPEND_NEWLINE):
            if ind | srt | nl:
                OPTS.append(ind | srt | nl)


def from_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def to_bits(f):
    return struct.unpack("<Q", struct.pack("<d", f))[0]


def next_up(f, n=1):
    return math.nextafter(f, math.inf, steps=n)


def next_down(f, n=1):
    return math.nextafter(f, -math.inf, steps=n)


def gen_floats(rnd):
    vals = []
    # Random bit patterns over the whole range.
    while len(vals) < 200_000:
        f = from_bits(rnd.getrandbits(64))
        if math.isfinite(f):
            vals.append(f)
    # Subnormals: the smallest exhaustively, then random ones.
    vals += [from_bits(t) for t in range(1, 2001)]
    vals += [from_bits(rnd.getrandbits(52)) for _ in range(10_000)]
    vals += [from_bits((1 << 52) - 1), from_bits(1 << 52), 5e-324, 2.2250738585072014e-308]
    # Powers of 2 and of 10 with their neighbours.
    for e in range(-1074, 1024):
        p = math.ldexp(1.0, e)
        vals += [p, next_up(p), next_down(p), next_up(p, 2), next_down(p, 2)]
    for e in range(-323, 309):
        p = float("1e%d" % e)
        vals += [p, next_up(p), next_down(p)]
    # Around the fixed/scientific switch: 1..17 digits, exponent so that the
    # point lands near positions -5 and 16.
    for _ in range(20_000):
        nd = rnd.randint(1, 17)
        digits = rnd.randint(10 ** (nd - 1), 10**nd - 1)
        exp = rnd.choice(list(range(-12, -2)) + list(range(10, 20)))
        vals.append(float("%de%d" % (digits, exp - nd + 1)))
    for e in range(-8, 0):
        for d in range(1, 10):
            vals += [float("%de%d" % (d, e)), float("%d.5e%d" % (d, e))]
    for e in range(13, 19):
        vals += [float(10**e), float(10**e - 1), float(10**e + 1), 1.5 * 10.0**e, float(2 * 10**e)]
    # Integers near 2^53 and beyond, where floats stop holding every integer.
    for base in (2**52, 2**53, 2**54, 2**63, 2**64):
        for k in range(-300, 301):
            vals.append(float(base + k))
    # Halfway cases: x.5 near 2^52 (ties in the last digit), midpoints of
    # random neighbours rounded by float(), and short decimals.
    for k in range(2000):
        vals.append(2.0**51 + k + 0.5)
        vals.append(rnd.randint(0, 2**52) + 0.5)
    for _ in range(10_000):
        f = from_bits(rnd.getrandbits(63))
        if math.isfinite(f) and f > 0:
            g = next_up(f)
            if math.isfinite(g):
                vals.append((f + g) / 2)
    for _ in range(25_000):
        nd = rnd.randint(1, 9)
        vals.append(float("%d.%de%d" % (rnd.randint(0, 9), rnd.randint(0, 10**nd), rnd.randint(-30, 30))))
    # Both signs.
    vals += [-v for v in vals[::7]]
    vals = [v for v in vals if math.isfinite(v)]
    return vals


def gen_strings(rnd):
    out = []
    for c in range(0x80):
        ch = chr(c)
        out += [ch, "a" + ch + "b", ch * 3, ch + "\u00e9", "\u20ac" + ch, "\U0001f600" + ch + "x", "abcdefghijklmno" + ch]
    for c in list(range(0x80, 0x100)) + [0x2028, 0x2029, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0xffff,
                                         0x10000, 0x1f600, 0x10ffff]:
        out += [chr(c), "x" + chr(c) + "\n", chr(c) * 9]
    # An escape at every offset of an ASCII run, for the 8-byte scanner.
    for i in range(40):
        for ch in "\"\\\n\x00\x1f":
            out.append("a" * i + ch + "b" * (40 - i))
    alphabets = [
        "abc XYZ 019",
        "abc\"\\/\n\t\r\b\f\x00\x01\x1f\x7f",
        "abc\u00e9\u00ff\u00a0",
        "ab\u00e9\u20ac\u2028\u2029\uffff\n",
        "a\u00e9\u20ac\U0001f600\U00010000\U0010ffff\"\x05",
    ]
    for _ in range(600):
        alpha = rnd.choice(alphabets)
        n = rnd.choice([0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 100, 257])
        out.append("".join(rnd.choice(alpha) for _ in range(n)))
    # Longer than one escaping chunk (16 KiB) in every width.
    out.append("x" * 20000 + "\n" + "\u00e9" * 10)
    out.append("\u00e9" * 17000 + "\"")
    out.append("\u20ac" * 17000 + "\x01")
    out.append("\U0001f600" * 17000 + "\\")
    out.append("\n" * 17000)
    out.append("")
    return out


def rand_key(rnd):
    return rnd.choice([
        "", "a", "b", "ab", "aa", "A", "Z", "z", "_", "0", "10", "9", "key", "Key", "\u00e9", "e\u0301",
        "\u20ac", "\uffff", "\U0001f600", "\U00010000", "a\nb", "\"", "\\", "\x00", "\x7f", "\u2028",
    ]) + rnd.choice(["", "", "x", str(rnd.randint(0, 99)), "\u00e9", "\U0001f600"])


def rand_scalar(rnd):
    r = rnd.random()
    if r < 0.2:
        return rnd.choice([0, 1, -1, 2**63 - 1, -(2**63), 2**64 - 1, 2**63, rnd.randint(-(2**63), 2**64 - 1),
                           rnd.randint(-1000, 1000)])
    if r < 0.4:
        return rnd.choice([0.0, -0.0, 1.0, 0.1, 1e16, 1e-7, 1e15, 1e22, 5e-324, 1.7976931348623157e308,
                           from_bits(rnd.getrandbits(63)) if rnd.random() < 0.5 else rnd.uniform(-1e6, 1e6)])
    if r < 0.7:
        n = rnd.randint(0, 12)
        return "".join(rnd.choice("ab\u00e9\u20ac\U0001f600\n\"\\\x01 ") for _ in range(n))
    return rnd.choice([None, True, False])


def rand_value(rnd, depth):
    r = rnd.random()
    if depth >= 6 or r < 0.45:
        v = rand_scalar(rnd)
        return v if not (isinstance(v, float) and not math.isfinite(v)) else 0.0
    n = rnd.choice([0, 0, 1, 2, 3, 5, 8])
    if r < 0.7:
        return [rand_value(rnd, depth + 1) for _ in range(n)]
    return {rand_key(rnd): rand_value(rnd, depth + 1) for _ in range(n)}


def gen_docs(rnd):
    docs = [[], {}, [[]], [{}], {"a": []}, {"a": {}}, {"a": {"b": {"c": []}}}, 0, "x", None, 1.5, [1, [2, [3]]]]
    while len(docs) < 400:
        v = rand_value(rnd, 0)
        if isinstance(v, (list, dict)):
            docs.append(v)
    return docs


def jdump(v):
    return json.dumps(v, ensure_ascii=True, allow_nan=False)


SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "JSONTestSuite", "test_parsing")


def gen_errors():
    out = []
    for name in sorted(os.listdir(SUITE)):
        with open(os.path.join(SUITE, name), "rb") as f:
            doc = f.read()
        for variant in (doc, b"\n\n  " + doc, "[\"\u00e9\u20ac\U0001f600\",\n \"\u00e9\", ".encode() + doc + b"]"):
            try:
                orjson.loads(variant)
            except orjson.JSONDecodeError as e:
                out.append({"name": name, "hex": variant.hex(), "msg": e.msg, "pos": e.pos, "lineno": e.lineno,
                            "colno": e.colno})
    return out


def main():
    rnd = random.Random(SEED)
    os.makedirs(OUT, exist_ok=True)

    floats = gen_floats(rnd)
    with gzip.GzipFile(os.path.join(OUT, "floats.txt.gz"), "wb", mtime=0) as f:
        f.write(b"".join(orjson.dumps(v) + b"\n" for v in floats))

    strings = gen_strings(rnd)
    with gzip.GzipFile(os.path.join(OUT, "strings.jsonl.gz"), "wb", mtime=0) as f:
        for s in strings:
            f.write((jdump({"s": s, "out": orjson.dumps(s).decode()}) + "\n").encode())

    docs = gen_docs(rnd)
    n = 0
    with gzip.GzipFile(os.path.join(OUT, "docs.jsonl.gz"), "wb", mtime=0) as f:
        for d in docs:
            text = jdump(d)
            for opt in OPTS:
                f.write((jdump({"doc": text, "opt": opt, "out": orjson.dumps(d, option=opt).decode()}) + "\n").encode())
                n += 1

    errors = gen_errors()
    with gzip.GzipFile(os.path.join(OUT, "errors.jsonl.gz"), "wb", mtime=0) as f:
        for e in errors:
            f.write((jdump(e) + "\n").encode())

    specials = [math.nan, math.inf, -math.inf, -0.0, 0.0, 0, -1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1,
                [], {}, [[]], {"a": {}}, "", True, False, None]
    with open(os.path.join(OUT, "specials.jsonl"), "w") as f:
        for v in specials:
            for opt in OPTS:
                doc = repr(v) if isinstance(v, float) and not math.isfinite(v) else jdump(v)
                f.write(jdump({"doc": doc, "opt": opt, "out": orjson.dumps(v, option=opt).decode()}) + "\n")

    print("orjson %s: %d floats, %d strings, %d docs (%d with options), %d errors" % (
        orjson.__version__, len(floats), len(strings), len(docs), n, len(errors)), file=sys.stderr)


if __name__ == "__main__":
    main()
