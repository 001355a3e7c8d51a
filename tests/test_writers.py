"""Every writer compiled into the engine, chosen with ISOJSON_WRITER, writes
exactly orjson's bytes through isojson.dumps.

One child Python per writer (ISOJSON_WRITER=<name>) dumps the same values —
the four corpus documents (as orjson.loads makes them), seeded random
documents of every kind, and values of every type dumps knows (datetimes,
UUIDs, enums, dataclasses, numpy arrays, Fragments, ints beyond 64 bits,
subclasses, non-str keys) — under every combination of the options the
writer honours, and hands back every outcome. The parent checks that each
writer is the one in use, that its bytes are orjson's, and that they are the
default writer's.

tests/test_parity_dumps.py and tests/test_dumps_output.py run again whole
under ISOJSON_WRITER=reference in `make test` (the Makefile's part
pytest-writer).
"""

import base64
import os
import pickle

import pytest

import _util
from _util import isojson, orjson

WRITERS = tuple(isojson.writers)
# The writers of every default build, in rank order. The Go registry is the one
# source: allbackends/list_test.go fails when this line disagrees with it.
EXPECTED_WRITERS = ("fast", "reference")
CHILD_TIMEOUT = 300

CHILD = """
    import dataclasses, datetime, enum, importlib, os, pickle, sys, uuid
    import numpy
    import _util

    mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
    out_path = sys.argv[1]

    class Color(enum.Enum):
        RED = "red"
        BLUE = 2

    @dataclasses.dataclass
    class Point:
        x: int
        y: float
        label: str

    def values(fragment):
        v = []
        for name in sorted(os.listdir(_util.CORPUS_DIR)):
            with open(os.path.join(_util.CORPUS_DIR, name), "rb") as f:
                v.append((name, _util.orjson.loads(f.read())))
        gen = _util.Gen(2026_1202)
        for kind in _util.DOC_KINDS:
            for i in range(8):
                v.append((f"{kind}#{i}", gen.document(kind, depth=1 + i % 5)))
        tz = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
        v.append(("types", {
            "dt": datetime.datetime(2026, 12, 2, 1, 2, 3, 456789, tzinfo=tz),
            "naive": datetime.datetime(2000, 1, 1), "date": datetime.date(1999, 12, 31),
            "time": datetime.time(23, 59, 59, 1), "uuid": uuid.UUID(int=0x1234567890abcdef1234567890abcdef),
            "enum": [Color.RED, Color.BLUE], "point": Point(1, 2.5, "é\\n"),
            "fragment": fragment(b'{"pre":[1,2]}'), "big": [2**64, -2**70, 10**40],
            "str-sub": _util.MyStr("sub"), "int-sub": _util.MyInt(7), "dict-sub": _util.MyDict(a=1),
            "floats": [0.1, -0.0, 1e16, 1e-7, 5e-324, float("nan"), float("inf")],
            "text": ["\\x00\\x1f\\"\\\\\\u2028\\x7f", "ÿ" * 40, "€" * 33, "😀" * 17, "a" * 300],
        }))
        v.append(("non-str keys", {1: "int", 2.5: "float", True: "bool", None: "none",
                                   datetime.date(2026, 1, 1): "date", "s": "str"}))
        v.append(("numpy", {"f64": numpy.arange(6, dtype=numpy.float64).reshape(2, 3) / 7,
                            "f32": numpy.array([1.5, 0.1, 3e38], dtype=numpy.float32),
                            "i64": numpy.array([-1, 2**62], dtype=numpy.int64),
                            "bool": numpy.array([True, False])}))
        return v

    NUMPY = _util.orjson.OPT_SERIALIZE_NUMPY
    res = {"writer": _util.outcome(lambda: mod.writer), "writers": _util.outcome(lambda: mod.writers)}
    if res["writer"][0] == "ok":
        res["dumps"] = [
            (name, opt, _util.outcome(mod.dumps, value, option=opt | NUMPY, default=_util.default))
            for name, value in values(mod.Fragment) for _, opt in _util.option_combinations()
        ]
        res["expected"] = [
            want for name, value in values(_util.orjson.Fragment)
            for want in _util.expected_dumps_options(
                value, [opt | NUMPY for _, opt in _util.option_combinations()], default=_util.default)
        ]
        res["writer_after"] = _util.outcome(lambda: mod.writer)
    else:
        res["dumps"] = [_util.outcome(mod.dumps, [1]) for _ in range(2)]
    with open(out_path, "wb") as f:
        pickle.dump(res, f, protocol=pickle.HIGHEST_PROTOCOL)
    print("done", flush=True)
"""


@pytest.fixture(scope="module")
def run_writer(tmp_path_factory):
    """run_writer(name): the child's results under ISOJSON_WRITER=name,
    computed once per name."""
    cache = {}

    def run(name):
        if name not in cache:
            out_path = tmp_path_factory.mktemp("writer-" + (name or "unset")) / "results.pickle"
            out = _util.run_python(CHILD, CHILD_TIMEOUT, out_path, env=_util.child_env(ISOJSON_WRITER=name))
            assert out.strip() == "done", out
            with open(out_path, "rb") as f:
                cache[name] = pickle.load(f)
        return cache[name]

    return run


def test_writers_compiled_in():
    """Both writers are in every default build, the fast one first (the
    default)."""
    assert WRITERS == EXPECTED_WRITERS, WRITERS
    chosen = os.environ.get("ISOJSON_WRITER") or WRITERS[0]
    assert isojson.writer == chosen
    assert {"writer", "writers"} <= set(dir(isojson))


@pytest.mark.parametrize("name", WRITERS)
def test_writer_writes_orjson_bytes(name, run_writer):
    """Under ISOJSON_WRITER=name: that writer is in use, and every value under
    every option combination gives orjson's outcome (ints beyond 64 bits as
    their digits) and the default writer's."""
    res = run_writer(name)
    assert res["writer"] == ("ok", name), res["writer"]
    assert res["writer_after"] == ("ok", name)
    assert res["writers"] == ("ok", WRITERS)
    failures = [(f"{case} option {opt}", f"got {got!r:.300}, orjson {want!r:.300}")
                for (case, opt, got), want in zip(res["dumps"], res["expected"]) if got != want]
    _util.report(failures, len(res["dumps"]), f"dumps under ISOJSON_WRITER={name}")
    default = run_writer(WRITERS[0])
    assert [d[2] for d in res["dumps"]] == [d[2] for d in default["dumps"]]
    assert len(res["dumps"]) > 1000


@pytest.mark.parametrize("setting", ["", None])
def test_default_writer(setting):
    """ISOJSON_WRITER unset or empty: the first of isojson.writers."""
    env = _util.child_env()
    env.pop("ISOJSON_WRITER", None)
    if setting is not None:
        env["ISOJSON_WRITER"] = setting
    out = _util.run_python("""
        import importlib, os
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        print(mod.writer, mod.dumps([1, 2.5]).decode())
    """, CHILD_TIMEOUT, env=env)
    assert out.split() == [WRITERS[0], "[1,2.5]"], out


def test_unknown_writer_names_the_choices():
    """ISOJSON_WRITER=nope: importing and loads work; every dumps raises
    JSONEncodeError and isojson.writer raises ValueError, each naming the
    value and every compiled-in writer; isojson.writers still lists them."""
    out = _util.run_python("""
        import base64, importlib, os, pickle
        import _util
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        res = {
            "loads": _util.outcome(mod.loads, b"[1]"),
            "dumps": [_util.outcome(mod.dumps, [1]), _util.outcome(mod.dumps, list(range(100000)))],
            "writer": _util.outcome(lambda: mod.writer),
            "writers": _util.outcome(lambda: mod.writers),
        }
        print(base64.b64encode(pickle.dumps(res)).decode())
    """, CHILD_TIMEOUT, env=_util.child_env(ISOJSON_WRITER="nope"))
    res = pickle.loads(base64.b64decode(out))
    assert res["loads"] == ("ok", [1])
    assert res["writers"] == ("ok", WRITERS)
    want = f'ISOJSON_WRITER: unknown writer "nope": compiled in are {", ".join(WRITERS)}'
    for got in res["dumps"]:
        # JSONEncodeError is TypeError, as in orjson.
        assert got[0] == "error" and got[1]["type"] == "TypeError" and got[1]["str"] == want, got
    assert res["writer"][0] == "error" and res["writer"][1]["type"] == "ValueError", res["writer"]
    assert res["writer"][1]["str"] == want, res["writer"]
