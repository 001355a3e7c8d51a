# Types of isojson's public surface, written from what the extension exposes
# (pyshim/module.c, fragment.c, errors.c) and isojson/__init__.py. Checked by
# tests/test_stub.py: mypy.stubtest against the built module, and mypy on the
# samples in tests/typing/ (one must pass, one must fail with given errors).

import json
from collections.abc import Callable
from typing import Any, Final, final

__all__ = (
    "__version__",
    "dumps",
    "Fragment",
    "JSONDecodeError",
    "JSONEncodeError",
    "loads",
    "OPT_APPEND_NEWLINE",
    "OPT_INDENT_2",
    "OPT_NAIVE_UTC",
    "OPT_NON_STR_KEYS",
    "OPT_OMIT_MICROSECONDS",
    "OPT_PASSTHROUGH_DATACLASS",
    "OPT_PASSTHROUGH_DATETIME",
    "OPT_PASSTHROUGH_SUBCLASS",
    "OPT_SERIALIZE_DATACLASS",
    "OPT_SERIALIZE_NUMPY",
    "OPT_SERIALIZE_UUID",
    "OPT_SORT_KEYS",
    "OPT_STRICT_INTEGER",
    "OPT_UTC_Z",
)

__version__: Final[str]

# Module attributes computed on access (PEP 562 __getattr__ in __init__.py):
# the parser backend in use, and those compiled in, in rank order. Not in
# __all__, as in the runtime module.
backend: Final[str]
backends: Final[tuple[str, ...]]

# obj: anything; what dumps cannot write natively goes to default, whose
# result is written instead. option: OPT_* values combined with |; only an
# exact int or None (a bool is refused at run time, which types cannot say).
def dumps(
    obj: Any,
    /,
    default: Callable[[Any], Any] | None = None,
    option: int | None = None,
) -> bytes: ...

# The result is whatever the document holds: dict, list, str, int, float,
# bool or None.
def loads(obj: bytes | bytearray | memoryview | str, /) -> Any: ...

# Already-serialized JSON that dumps writes as it is. The constructor takes
# any object and dumps refuses contents other than bytes or str; the stub
# asks for those two so that the mistake shows before run time. A Fragment
# has no attributes and its type cannot be subclassed.
@final
class Fragment:
    def __new__(cls, contents: bytes | str, /) -> Fragment: ...

# Raised by loads: a subclass of the json module's JSONDecodeError (hence of
# ValueError), with its msg, doc, pos, lineno and colno.
class JSONDecodeError(json.JSONDecodeError): ...

# Raised by dumps: TypeError itself, not a subclass, so that
# `except TypeError` and `except isojson.JSONEncodeError` are the same.
JSONEncodeError = TypeError

# orjson 3.13's option bits (api/options.go); the two that are 0 are accepted
# for compatibility and change nothing (dataclasses and UUIDs are always
# written).
OPT_APPEND_NEWLINE: Final = 1024
OPT_INDENT_2: Final = 1
OPT_NAIVE_UTC: Final = 2
OPT_NON_STR_KEYS: Final = 4
OPT_OMIT_MICROSECONDS: Final = 8
OPT_PASSTHROUGH_DATACLASS: Final = 2048
OPT_PASSTHROUGH_DATETIME: Final = 512
OPT_PASSTHROUGH_SUBCLASS: Final = 256
OPT_SERIALIZE_DATACLASS: Final = 0
OPT_SERIALIZE_NUMPY: Final = 16
OPT_SERIALIZE_UUID: Final = 0
OPT_SORT_KEYS: Final = 32
OPT_STRICT_INTEGER: Final = 64
OPT_UTC_Z: Final = 128
