"""Record orjson's decisions and error reports, the oracle isojson's parsers match.

Run with scripts/py (Python 3.14 with orjson 3.13):

    scripts/py scripts/gen_orjson_errors.py

Writes testdata/orjson/errors.json: for every rejected input (each n_ case of
JSONTestSuite, hand-written edge cases and seeded mutations of valid documents)
the input bytes (hex), orjson's JSONDecodeError message and its .pos (a byte
offset for bytes input); and testdata/orjson/decisions.json: accept or reject
for every JSONTestSuite test_parsing case. The output is deterministic.
"""

import json
import os
import random
import sys

import orjson

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "testdata", "JSONTestSuite", "test_parsing")
OUT = os.path.join(ROOT, "testdata", "orjson")

# Hand-written inputs, one per error path of the grammar (and a few valid ones,
# which are skipped: only rejections are recorded).
CRAFTED = [
    b"", b" ", b"  ", b"\t", b"\r\n", b"\x0c", b"[1,]", b"[1,2", b"nul", b"01", b"1.", b'"\x01"', b'"\\x"',
    b'"\\ud800"', b'"\\ud800\\u0041"', b'"\xed\xa0\x80"', b"\xef\xbb\xbf[]", b"\xef\xbb\xbf", b"\xef\xbb\xbf  ",
    b"\xef\xbb\xbf\xff", b"\xef\xbb", b"[\xef\xbb\xbf]", b" \xef\xbb\xbf[]", b"[] x", b"[1e400]", b"NaN",
    b"[" * 1025 + b"]" * 1025, b'{"a":' * 1025 + b"1" + b"}" * 1025, b"[{\"a\":" * 513 + b"1" + b"}]" * 513,
    b"[" * 1024 + b" [ ]" + b"]" * 1024, b"[" * 1024 + b"{ }" + b"]" * 1024, b"[" * 1023 + b'{"a":[]}' + b"]" * 1023,
    b"[" * 1024 + b"]" * 1023, b"[" * 1024 + b"]" * 1024 + b"x", b"[" * 1025 + b'"\\x"' + b"]" * 1024,
    b"[" * 1024 + b'"\\x"' + b"]" * 1024, b"[" * 1025 + b"\xff", b"[" * 100,
    b'{"a" 1}', b"{1:2}", b"[1 2]", b"[tru]", b"-", b"-a", b"1e", b"1e+", b"1.e3", b".5", b"+1", b"[01]", b"-01",
    b"1.5e", b'"abc', b'"\\u12"', b'"\\u12g4"', b'{"a":1,}', b'{"a":1', b"{", b"[", b'{"a"', b'{"a":', b"{,}",
    b"[,]", b"[1,,2]", b'"\\udc00"', b'"\\ud800\\ud800"', b'"\\ud800x"', b'"\\ud800\\x"', b'"\\ud800\\"', b'"\\ud800',
    b'"\\', b'"\\u', b"[1]]", b"{}}", b"1 2", b'{"a":1 "b":2}', b'{"a":1,"b"}', b"truex", b"[truex]", b"tx", b"fals",
    b"nulx", b"[nulx]", b'"\t"', b'"\x00"', b'"\x1f"', b"[1e309]", b"[-1e309]", b"[\x0c]", b"\x00", b"[1.]",
    b"[1.a]", b"[1ea]", b"[-]", b"[--1]", b"[2.e3]", b"[1e1.5]", b"[0x1]", b"[00]", b"[-00]", b"[1.0.0]",
    b"123abc", b"[123abc]", b'["a" "b"]', b'{"a":1}x', b"[]\x00", b"\xff", b"[\xff]", b'"\xc0\x80"', b"[1,\xff]",
    b"\n\n[1,]", b'{"\xff":1}', b"['a']", b"/*c*/[]", b"[]//", b"Infinity", b"-Infinity", b"[-Infinity]",
    b"[nan]", b"[True]", b'["\\u00"]', b'{"a":1,,}', b'{"a"::1}', b"[1:2]", b'{"a",1}', b"[ ", b" [1 ,]",
    b'["a",]', b'{"a":1,]', b"[}", b"{]", b"[1}", b'{"a":1]', b'"ab\x01"', b'"ab\\x"', b'"ab\\ud800"',
    b'"ab\\ud800\\u0041"', b'"ab\\udc00"', b'["ab\\u00"]', b'"ab\\u12"', b'"ab\\u12', b"\xef\xbb\xbfx", b"e1",
    b"E1", b"[e]", b"-e", b"[1e+a]", b"[1e-]", b"[0e]", b"[0.e1]", b"[-.5]", b"[.5]", b"[+1]", b"[+]", b"[-x]",
    b"[01.5]", b"[012]", b"1" + b"0" * 309, b"-1" + b"0" * 400, b"1.7976931348623159e308", b"[1.0e+]",
    b"1" + b"0" * 500 + b".0", b'"\\U0041"', b"[1,\n2,\n]", b'{"a":1,\n"b":[1,\n,]}', b'{"a\\x":1}',
    b'{"a":"\x01"}', b'{"a":tx}', b'{"a":-}', b'{"a":01}', b'{"a":[}', b'{"a":{]', b'"\\ud800\\udbff"',
    b'"\\ud800\\u"', b'"\\ud800\\u12"', b'"\\ud800\\u12"x', b'"\\ud800\\uzzzz"', b'"\\ud800\\', b'"\\ud800\\u',
    b'"\\ud800\\ud', b'"\\ud800 "', b"[1,2,3", b"[1,2,", b"[1,2 ", b'{"a":1,', b'{"a":1 ', b'{"a', b'{"a" ',
    b"[tr", b"[t", b"[n", b"[f", b"[falsx", b"[fals]", b"[-1", b"[1.5", b"[1e5", b"[0", b"0x", b"00", b"\x00[]",
    b"[]\xff", b"[\x00]", b'{"a":1}}', b"[1\x00]", b"[\x80]", b'"\x80"', b'"\xc2"', b'"\xe0\x80\x80"',
    b'"\xf4\x90\x80\x80"', b'"\xf8\x88\x80\x80\x80"', b'"\xe2\x82"', b'"\xf0\x9f\x98"', b'{"\xed\xbf\xbf":1}',
    b"[1]\xc3", b"\xc3\xa9", b'"\\u0000\x01"', b"[-1.5e-]", b"[1E]", b"[1E+]", b"[-0.e]", b'"\\"', b'"\\\\\\"',
    b'{"":', b'{"":1,"":}', b"[null,]", b"[false x]", b"[true,false,null,]", b"{\"a\":true\"b\"}",
    b'"\\ud83d\\ude00\\ud800"', b'"\\uDFFF"', b'"\\uD800\\uDBFF"', b'"\\ud800\\u00e9"', b" \n\t\r x",
    b"[\r\n\t 1\r\n\t ,\r\n\t ]",
    # Deep unclosed nesting: orjson 3.13 reports "failed to allocate memory"
    # at a varying offset (see conformance's errorExceptions).
    b"[" * 1025, b"[" * 500, b"[" * 1024 + b"1", b"[" * 1025 + b"x",
]

# Small valid documents that are mutated into invalid ones.
SEEDS = [
    b'{"a":[1,2.5,-3e4,true,false,null],"b":{"c":"d\\n\\u00e9\\ud83d\\ude00"}}',
    b'[0, -0, 1.0e+2, "x", {"k": [ ]}, [ { } ] ]',
    b'{"key": "value", "n": 12345678901234567890123, "f": -0.000123}',
    b'["\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\\"\\\\\\/\\b\\f\\n\\r\\t"]',
    b'[[[[[[1]]]]],{"x":{"y":{"z":null}}}]',
]
MUTATION_BYTES = b'[]{}:,"\\-+.0123456789eEtrufalsn \t\n\r\x00\x1f\x7f\x80\xc3\xed\xff/u'


def decide(data):
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as e:
        return (e.msg, e.pos)
    return None


def mutations(rng):
    for seed in SEEDS:
        for _ in range(120):
            b = bytearray(seed)
            op = rng.randrange(4)
            i = rng.randrange(len(b) + (op == 1))
            if op == 0:
                del b[i]
            elif op == 1:
                b.insert(i, rng.choice(MUTATION_BYTES))
            elif op == 2:
                b[i] = rng.choice(MUTATION_BYTES)
            else:
                b = b[:i]
            yield bytes(b)


def main():
    rng = random.Random(20261129)
    records = []
    seen = set()

    def add(name, data):
        if data in seen:
            return
        seen.add(data)
        r = decide(data)
        if r is not None:
            records.append({"name": name, "hex": data.hex(), "msg": r[0], "pos": r[1]})

    decisions = {}
    for fn in sorted(os.listdir(SUITE)):
        with open(os.path.join(SUITE, fn), "rb") as f:
            data = f.read()
        r = decide(data)
        decisions[fn] = "reject" if r else "accept"
        if fn.startswith("n_"):
            add(fn, data)
    for i, data in enumerate(CRAFTED):
        add("crafted_%03d" % i, data)
    for i, data in enumerate(mutations(rng)):
        add("mutated_%03d" % i, data)

    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "errors.json"), "w") as f:
        json.dump({"orjson": orjson.__version__, "cases": records}, f, indent=0)
        f.write("\n")
    with open(os.path.join(OUT, "decisions.json"), "w") as f:
        json.dump({"orjson": orjson.__version__, "decisions": decisions}, f, indent=0, sort_keys=True)
        f.write("\n")
    print("%d error cases, %d decisions" % (len(records), len(decisions)), file=sys.stderr)


if __name__ == "__main__":
    main()
