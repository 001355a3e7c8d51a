"""The parity cases of tests/test_free_threaded.py and their golden bytes.

orjson has no free-threaded (cp314t) build here, so on 3.14t isojson's output
is compared with bytes that orjson wrote for the same documents in the GIL
build during the same run: `make test`'s pyft part first runs

    scripts/py tests/_ft_golden.py OUT.json      (Python 3.14 with orjson)

and the 3.14t suite reads OUT.json (ISOJSON_FT_GOLDEN). The documents are
made here from seeds, with the standard library only, so both interpreters
build the same objects. In the GIL build the test computes the golden bytes
itself, with orjson in the same process.
"""

import dataclasses
import datetime
import enum
import json
import os
import random
import sys
import uuid

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
CORPUS_DIR = os.path.join(os.path.dirname(TESTS_DIR), "testdata", "corpus")
SEEDS = range(40)

# orjson's option bits (the same in isojson).
OPT_APPEND_NEWLINE = 1 << 10
OPT_INDENT_2 = 1
OPT_NAIVE_UTC = 1 << 1
OPT_NON_STR_KEYS = 1 << 2
OPT_OMIT_MICROSECONDS = 1 << 3
OPT_SORT_KEYS = 1 << 5
OPT_UTC_Z = 1 << 7
OPTIONS = {
    "none": 0,
    "indent": OPT_INDENT_2,
    "sort": OPT_SORT_KEYS,
    "sort-indent-newline": OPT_SORT_KEYS | OPT_INDENT_2 | OPT_APPEND_NEWLINE,
    "nonstr-sort": OPT_NON_STR_KEYS | OPT_SORT_KEYS,
    "times": OPT_NAIVE_UTC | OPT_UTC_Z | OPT_OMIT_MICROSECONDS,
}


class Color(enum.Enum):
    RED = "red"
    GREEN = 2


@dataclasses.dataclass
class Point:
    x: int
    label: str
    tags: list


_TEXTS = ("plain", "", "tab\tquote\"back\\slash", "naïve café", "日本語テキスト", "emoji 😀🎉",
          "\u2028\u2029", "control \x01\x1f", "a" * 80, "é" * 33)


def _scalar(r):
    k = r.randrange(11)
    if k == 0:
        return r.choice(_TEXTS) + str(r.randrange(1000))
    if k == 1:
        return r.randrange(-(2**63), 2**64)
    if k == 2:
        return r.choice((0, -1, 1, 2**53, -(2**53), 2**63 - 1, -(2**63), 2**64 - 1))
    if k == 3:
        while True:
            f = r.uniform(-1e300, 1e300) * r.choice((1, 1e-300, 1e-10, 1))
            return f
    if k == 4:
        return r.choice((0.0, -0.0, 0.1, 1e16, 1.5e-7, 5e-324, 1.7976931348623157e308))
    if k == 5:
        return r.choice((None, True, False))
    if k == 6:
        return datetime.datetime(2000 + r.randrange(30), 1 + r.randrange(12), 1 + r.randrange(28),
                                 r.randrange(24), r.randrange(60), r.randrange(60), r.randrange(10**6),
                                 tzinfo=r.choice((None, datetime.timezone.utc,
                                                  datetime.timezone(datetime.timedelta(hours=-5)))))
    if k == 7:
        return datetime.date(1990 + r.randrange(40), 1 + r.randrange(12), 1 + r.randrange(28))
    if k == 8:
        return uuid.UUID(int=r.getrandbits(128))
    if k == 9:
        return r.choice((Color.RED, Color.GREEN))
    return r.random()


def document(seed, depth=0):
    """A seeded document: nested dicts and lists of every kind of scalar,
    dataclasses, tuples, and (for OPT_NON_STR_KEYS) int keys in some dicts."""
    r = random.Random(seed) if depth == 0 else seed
    if depth >= 4:
        return _scalar(r)
    k = r.randrange(6)
    if k == 0:
        return [document(r, depth + 1) for _ in range(r.randrange(8))]
    if k == 1:
        return tuple(document(r, depth + 1) for _ in range(r.randrange(4)))
    if k == 2:
        return Point(r.randrange(100), r.choice(_TEXTS), [_scalar(r) for _ in range(r.randrange(3))])
    if k in (3, 4):
        d = {}
        for i in range(r.randrange(10)):
            d[f"{r.choice(('id', 'name', 'user', 'x', 'ключ', '😀'))}{r.randrange(20)}"] = document(r, depth + 1)
        return d
    return _scalar(r)


def nonstr_document(seed):
    """A document whose dicts have int, float, bool, None and date keys (OPT_NON_STR_KEYS)."""
    r = random.Random(10_000 + seed)
    keys = (1, -7, 2**40, 1.5, True, None, datetime.date(2020, 1, 2), "s", Color.RED)
    return [{r.choice(keys): _scalar(r) for _ in range(r.randrange(6))} for _ in range(r.randrange(1, 6))]


def cases():
    """(case id, document, option) for every parity case."""
    out = []
    for seed in SEEDS:
        for name, opt in OPTIONS.items():
            if name == "nonstr-sort":
                out.append((f"nonstr-{seed}-{name}", nonstr_document(seed), opt))
            else:
                out.append((f"doc-{seed}-{name}", document(seed), opt))
    return out


def corpus_files():
    return sorted(f for f in os.listdir(CORPUS_DIR) if f.endswith(".json"))


def golden(orjson):
    """The golden bytes as orjson writes them: {case id: hex}, and for each
    corpus file, orjson.dumps(orjson.loads(file)) under "corpus:NAME"."""
    out = {}
    for cid, doc, opt in cases():
        try:
            out[cid] = orjson.dumps(doc, option=opt).hex()
        except TypeError as e:  # orjson refuses (a big int under a key, say): isojson must too
            out[cid] = {"error": str(e)}
    for name in corpus_files():
        with open(os.path.join(CORPUS_DIR, name), "rb") as f:
            out[f"corpus:{name}"] = orjson.dumps(orjson.loads(f.read())).hex()
    return out


if __name__ == "__main__":
    import orjson

    with open(sys.argv[1], "w", encoding="utf-8") as f:
        json.dump({"orjson": orjson.__version__, "python": sys.version, "golden": golden(orjson)}, f)
    print(f"_ft_golden: {len(cases())} cases and {len(corpus_files())} corpus files written by orjson "
          f"{orjson.__version__} to {sys.argv[1]}")
