"""Fast JSON with orjson's API and byte-identical output, for every interpreter.

isojson is a drop-in replacement for orjson (``import isojson as orjson``)
whose engine is written in Go, and which imports and runs in sub-interpreters
with their own GIL (PEP 684) and from any thread.

``backend`` (the parser in use) and ``backends`` (those compiled in), and
``writer`` and ``writers`` (the same for the writer of dumps) are resolved at
first access, because they need the Go engine, whose load the import only
starts (in the background; ISOJSON_PRELOAD=0 leaves it to the first call).
"""

from ._isojson import *
from ._isojson import __version__
from ._isojson import _backend, _backends, _engine_version, _writer, _writers

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


def __getattr__(name: str):
    # PEP 562: computed on demand so that importing isojson does not wait for
    # the engine's load. Not cached: ISOJSON_BACKEND and ISOJSON_WRITER errors are
    # reported on each access.
    if name == "backend":
        return _backend()
    if name == "backends":
        return _backends()
    if name == "writer":
        return _writer()
    if name == "writers":
        return _writers()
    raise AttributeError(f"module 'isojson' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"backend", "backends", "writer", "writers"})
