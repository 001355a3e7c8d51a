"""Typed use of isojson that mypy --strict must accept (tests/test_stub.py).

Each statement is what a user writes; assert_type pins the types the stub
gives, so that a stub that says less (Any) or something else fails too."""

import dataclasses
import datetime
import json
from typing import Any, assert_type

import isojson
import isojson as orjson  # the drop-in promise: the same names, the same types


@dataclasses.dataclass
class Point:
    x: int
    y: int


def encode_set(obj: Any) -> Any:
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError


def default_of_object(obj: object) -> list[object]:
    return [obj]


assert_type(isojson.dumps({"a": [1, 2.5, None]}), bytes)
assert_type(isojson.dumps(Point(1, 2), encode_set), bytes)
assert_type(isojson.dumps({1, 2}, default=encode_set, option=isojson.OPT_SORT_KEYS), bytes)
assert_type(isojson.dumps([datetime.date(2020, 1, 2)], default_of_object, None), bytes)
assert_type(isojson.dumps(1, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS), bytes)
assert_type(isojson.dumps(None, default=None), bytes)

assert_type(isojson.loads(b"[1]"), Any)
assert_type(isojson.loads(bytearray(b"[1]")), Any)
assert_type(isojson.loads(memoryview(b"[1]")), Any)
assert_type(isojson.loads("[1]"), Any)
document: dict[str, list[int]] = isojson.loads(b'{"a": [1]}')

assert_type(isojson.Fragment(b"[1,2]"), isojson.Fragment)
assert_type(isojson.dumps([isojson.Fragment("{}")]), bytes)

assert_type(isojson.__version__, str)
assert_type(isojson.backend, str)
assert_type(isojson.backends, tuple[str, ...])
names: tuple[str, ...] = isojson.__all__

options: list[int] = [
    isojson.OPT_APPEND_NEWLINE, isojson.OPT_INDENT_2, isojson.OPT_NAIVE_UTC, isojson.OPT_NON_STR_KEYS,
    isojson.OPT_OMIT_MICROSECONDS, isojson.OPT_PASSTHROUGH_DATACLASS, isojson.OPT_PASSTHROUGH_DATETIME,
    isojson.OPT_PASSTHROUGH_SUBCLASS, isojson.OPT_SERIALIZE_DATACLASS, isojson.OPT_SERIALIZE_NUMPY,
    isojson.OPT_SERIALIZE_UUID, isojson.OPT_SORT_KEYS, isojson.OPT_STRICT_INTEGER, isojson.OPT_UTC_Z,
]


def parse(text: bytes) -> object:
    try:
        return isojson.loads(text)
    except isojson.JSONDecodeError as e:
        # A json.JSONDecodeError, with its fields.
        assert_type(e.msg, str)
        assert_type(e.doc, str)
        assert_type(e.pos, int)
        assert_type(e.lineno, int)
        assert_type(e.colno, int)
        as_json: json.JSONDecodeError = e
        as_value: ValueError = e
        return (as_json, as_value)


def write(obj: object) -> bytes:
    try:
        return isojson.dumps(obj)
    except isojson.JSONEncodeError as e:
        # JSONEncodeError is TypeError itself: each names the other.
        assert_type(e, TypeError)
        raise isojson.JSONEncodeError("wrapped") from e


error: isojson.JSONEncodeError = TypeError("any TypeError is a JSONEncodeError")
