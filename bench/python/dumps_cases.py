"""dumps() of the Python types orjson serializes natively, and of its options:
the "types" rows of the benchmark set (rows.py turns each case into a row).

Each case builds one object and names the orjson options (and default=) it
needs; rows.call gives msgspec and json their equivalents where they have one,
and a library that cannot serialize a case is shown as "–" with the reason.
"""

import datetime
import enum
import uuid
from dataclasses import dataclass
from typing import Callable

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
