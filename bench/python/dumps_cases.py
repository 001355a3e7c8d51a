"""dumps() of the Python types orjson serializes natively, and of its options,
isojson against orjson.

Each case builds one object and names the orjson options it needs. A case is
skipped, with a printed note, when isojson does not support it yet (dumps
raises, or an option is missing): the table grows by itself as the types land.
A case whose bytes differ from orjson's is reported as such, not timed.
"""

import datetime
import enum
import importlib
import uuid
from dataclasses import dataclass
from typing import Callable

import libraries
import percall

N = 1000


@dataclass
class _Point:
    id: int
    name: str
    x: float
    y: float
    tags: list


class _Color(enum.Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


def _datetimes():
    base = datetime.datetime(2026, 11, 29, 23, 15, 0, tzinfo=datetime.timezone.utc)
    return [base + datetime.timedelta(seconds=7 * i, microseconds=i) for i in range(N)]


def _naive_datetimes():
    base = datetime.datetime(2026, 11, 29, 23, 15, 0)
    return [base + datetime.timedelta(minutes=i) for i in range(N)]


def _dates():
    return [datetime.date(2000, 1, 1) + datetime.timedelta(days=i) for i in range(N)]


def _uuids():
    return [uuid.UUID(int=(i * 0x9E3779B97F4A7C15_F39CC0605CEDC834) % (1 << 128)) for i in range(N)]


def _dataclasses():
    return [_Point(i, f"point {i}", i * 0.5, -i * 0.25, ["a", "b"][: i % 3]) for i in range(N)]


def _enums():
    colors = list(_Color)
    return [colors[i % 3] for i in range(N)]


def _numpy_float64():
    import numpy

    return numpy.arange(N * 10, dtype=numpy.float64).reshape(N, 10) / 8


def _numpy_int64():
    import numpy

    return numpy.arange(N * 10, dtype=numpy.int64).reshape(N, 10) * 1_000_003


def _int_keys():
    return {i * 7: i for i in range(N)}


def _twitter():
    import orjson

    return orjson.loads(percall.read_corpus("twitter"))


def _decimals():
    import decimal

    return [decimal.Decimal(i) / 8 for i in range(N)]


def _fragments(mod):
    # Already-serialized JSON spliced into the output: each module's own type.
    return [mod.Fragment(b'{"cached":[1,2,3],"i":%d}' % i) for i in range(N)]


def _numpy_float32():
    import numpy

    return (numpy.arange(N * 10, dtype=numpy.float32).reshape(N, 10) / 4)


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], object]  # or, with per_module, Callable[[module], object]
    options: tuple[str, ...] = ()
    default: Callable[[object], object] | None = None
    per_module: bool = False  # build(module): the object uses the module's own types

    def object_for(self, module):
        return self.build(module) if self.per_module else self.build()


CASES = (
    Case("datetime (UTC) ×1000", _datetimes),
    Case("datetime (UTC) ×1000, OPT_UTC_Z", _datetimes, ("OPT_UTC_Z",)),
    Case("datetime (naive) ×1000", _naive_datetimes),
    Case("date ×1000", _dates),
    Case("UUID ×1000", _uuids),
    Case("dataclass ×1000", _dataclasses),
    Case("Enum ×1000", _enums),
    Case("numpy float64 1000×10", _numpy_float64, ("OPT_SERIALIZE_NUMPY",)),
    Case("numpy float32 1000×10", _numpy_float32, ("OPT_SERIALIZE_NUMPY",)),
    Case("numpy int64 1000×10", _numpy_int64, ("OPT_SERIALIZE_NUMPY",)),
    Case("Decimal ×1000, default=str", _decimals, default=str),
    Case("Fragment ×1000", _fragments, per_module=True),
    Case("int keys ×1000", _int_keys, ("OPT_NON_STR_KEYS",)),
    Case("twitter, OPT_INDENT_2", _twitter, ("OPT_INDENT_2",)),
    Case("twitter, OPT_SORT_KEYS", _twitter, ("OPT_SORT_KEYS",)),
)


def _option(module, names) -> int:
    value = 0
    for n in names:
        value |= getattr(module, n)  # AttributeError: the option is not there yet
    return value


def run(repeats: int, sample_seconds: float, clock: str = "cpu", log=print) -> list[dict]:
    """One row per case: {"case", "status": "ok" | "skipped" | "differs",
    "note", and for "ok" the isojson and orjson timings in µs}."""
    import orjson

    rows = []
    if libraries.isojson_module_name() != "isojson":
        log("  type cases skipped: isojson is a stand-in")
        return [{"case": c.name, "status": "skipped", "note": "stand-in, not isojson"} for c in CASES]
    iso_mod = importlib.import_module("isojson")
    for case in CASES:
        try:
            ref_obj = case.object_for(orjson)
            ref_opt = _option(orjson, case.options)
            expected = orjson.dumps(ref_obj, default=case.default, option=ref_opt)
        except Exception as e:  # numpy missing, ...
            rows.append({"case": case.name, "status": "skipped", "note": f"orjson: {type(e).__name__}: {e}"})
            log(f"  skip {case.name}: orjson cannot run it ({e})")
            continue
        try:
            iso_obj = case.object_for(iso_mod)
            iso_opt = _option(iso_mod, case.options)
            got = iso_mod.dumps(iso_obj, default=case.default, option=iso_opt)
        except Exception as e:
            note = f"{type(e).__name__}: {e}"
            rows.append({"case": case.name, "status": "skipped", "note": note})
            log(f"  skip {case.name}: isojson lacks it yet ({note})")
            continue
        if got != expected:
            rows.append({"case": case.name, "status": "differs", "note": "bytes differ from orjson"})
            log(f"  {case.name}: isojson's bytes DIFFER from orjson's; not timed")
            continue
        # Each side serializes its own object (they differ for per-module
        # cases); the argument percall passes is ignored.
        iso = libraries.Library("isojson", "isojson", "", iso_mod.loads,
                                lambda _, f=iso_mod.dumps, o=iso_obj, d=case.default, p=iso_opt:
                                f(o, default=d, option=p), "")
        ref = libraries.Library("orjson", "orjson", "", orjson.loads,
                                lambda _, f=orjson.dumps, o=ref_obj, d=case.default, p=ref_opt:
                                f(o, default=d, option=p), "")
        t = percall.measure("dumps", case.name, [iso, ref], b"", None, repeats, sample_seconds, clock)
        rows.append({"case": case.name, "status": "ok", "note": "",
                     "isojson": {"min_us": t["isojson"].min_us, "median_us": t["isojson"].median_us},
                     "orjson": {"min_us": t["orjson"].min_us, "median_us": t["orjson"].median_us}})
        log(f"  {case.name}: isojson {t['isojson'].min_us:.1f} µs, orjson {t['orjson'].min_us:.1f} µs")
    return rows
