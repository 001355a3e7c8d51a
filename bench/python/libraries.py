"""The JSON libraries under test, behind one small interface.

Every library is reduced to two callables on bytes, so that every benchmark
measures the same thing for each of them:

    loads(data: bytes) -> object
    dumps(obj) -> bytes            (UTF-8; str results are encoded)

This module imports only the standard library at import time (libraries load
on demand), so it can be imported inside strict sub-interpreters, where orjson,
ujson and msgspec raise ImportError.

ISOJSON_BENCH_MODULE=<module> replaces isojson by another module with the same
loads/dumps API (for example `json`), to develop the benchmarks before the
extension builds. Reports name the stand-in so a result cannot pass for
isojson's.
"""

import importlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Callable

# Order of rows in every table: the subject first, the reference second.
PER_CALL_LIBRARIES = ("isojson", "orjson", "json", "ujson", "msgspec")
# The libraries of the benchmark set (rows.py), in the order of its columns;
# ujson joins them on the corpus rows only (the corpus tables had it).
SET_LIBRARIES = ("isojson", "orjson", "msgspec", "json")
CORPUS_EXTRA_LIBRARIES = ("ujson",)

# Libraries whose dumps() must produce exactly orjson's bytes.
ORJSON_BYTES = ("isojson", "orjson")


@dataclass(frozen=True)
class Library:
    name: str  # the name in tables: "isojson", "orjson", ...
    module: str  # the module actually imported (differs for a stand-in)
    version: str
    loads: Callable[[bytes], object]
    dumps: Callable[[object], bytes]
    how: str  # how the calls are made, for the report's footnotes
    module_obj: object = None  # the imported module, where options come from (isojson, orjson)


def isojson_module_name() -> str:
    return os.environ.get("ISOJSON_BENCH_MODULE", "isojson")


def load(name: str) -> Library:
    """Imports the library `name` and returns its loads/dumps on bytes.

    Raises ImportError when it is missing (or, in a sub-interpreter, when it
    does not support sub-interpreters)."""
    if name == "isojson":
        return _isojson()
    if name == "orjson":
        import orjson

        return Library("orjson", "orjson", orjson.__version__, orjson.loads, orjson.dumps,
                       "orjson.loads(b), orjson.dumps(o)", orjson)
    if name == "json":
        return _stdlib_json("json")
    if name == "ujson":
        import ujson

        udumps = ujson.dumps

        def dumps(obj):
            return udumps(obj, ensure_ascii=False, escape_forward_slashes=False).encode()

        return Library("ujson", "ujson", ujson.__version__, ujson.loads, dumps,
                       "ujson.loads(b), ujson.dumps(o, ensure_ascii=False, "
                       "escape_forward_slashes=False).encode()")
    if name == "msgspec":
        import msgspec

        # Encoder/Decoder instances are msgspec's documented fast path.
        return Library("msgspec", "msgspec", msgspec.__version__,
                       msgspec.json.Decoder().decode, msgspec.json.Encoder().encode,
                       "msgspec.json.Decoder().decode(b), msgspec.json.Encoder().encode(o)")
    if name == "rapidjson":
        import rapidjson

        rdumps = rapidjson.dumps

        def dumps(obj):
            return rdumps(obj, ensure_ascii=False).encode()

        return Library("rapidjson", "rapidjson", rapidjson.__version__, rapidjson.loads, dumps,
                       "rapidjson.loads(b), rapidjson.dumps(o, ensure_ascii=False).encode()")
    raise ValueError(f"unknown library {name!r}")


def _stdlib_json(name: str) -> Library:
    import json
    import platform

    jdumps = json.dumps

    # Compact and UTF-8 like orjson's output, so that both sides produce the
    # same bytes and do the same work.
    def dumps(obj):
        return jdumps(obj, ensure_ascii=False, separators=(",", ":")).encode()

    return Library(name, "json", platform.python_version(), json.loads, dumps,
                   'json.loads(b), json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode()')


def _isojson() -> Library:
    module = isojson_module_name()
    if module == "isojson":
        import isojson

        if not hasattr(isojson, "loads") or not hasattr(isojson, "dumps"):
            # A build/python/isojson directory without the extension imports
            # as an empty namespace package.
            raise ImportError(f"isojson at {list(getattr(isojson, '__path__', []))} has no loads/dumps: "
                              "the extension is not built")
        return Library("isojson", "isojson", getattr(isojson, "__version__", "?"),
                       isojson.loads, isojson.dumps, "isojson.loads(b), isojson.dumps(o)", isojson)
    if module == "json":
        lib = _stdlib_json("isojson")
        return Library("isojson", "json (stand-in)", lib.version, lib.loads, lib.dumps,
                       "stand-in: " + lib.how)
    mod = importlib.import_module(module)
    mdumps = mod.dumps

    def dumps(obj):
        out = mdumps(obj)
        return out.encode() if isinstance(out, str) else out

    return Library("isojson", f"{module} (stand-in)", getattr(mod, "__version__", "?"),
                   mod.loads, dumps, f"stand-in: {module}.loads(b), {module}.dumps(o)", mod)


def isojson_backends() -> tuple[str, ...]:
    """The backends compiled into isojson (empty for a stand-in)."""
    if isojson_module_name() != "isojson":
        return ()
    import isojson

    return tuple(getattr(isojson, "backends", ()))


def isojson_backend() -> str:
    """The backend isojson uses in this process ("" for a stand-in)."""
    if isojson_module_name() != "isojson":
        return ""
    import isojson

    return str(getattr(isojson, "backend", ""))


def run_per_choice(script: str, variable: str, names, args: list[str], log=print, timeout: int = 600) -> dict:
    """Runs `python script NAME ARGS...` once per name, with the environment
    variable (ISOJSON_BACKEND, ISOJSON_WRITER: isojson reads it once per
    process) set to it, and returns {name: the JSON the child printed} or
    {name: {"error": its last line of output}} for a child that failed."""
    out = {}
    for name in names:
        log(f"  {variable}={name}")
        proc = subprocess.run([sys.executable, os.path.abspath(script), name, *args],
                              env=dict(os.environ, **{variable: name}), capture_output=True, text=True,
                              timeout=timeout)
        if proc.returncode != 0:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            out[name] = {"error": lines[-1] if lines else f"exit status {proc.returncode}"}
            log(f"    failed: {out[name]['error']}")
            continue
        out[name] = json.loads(proc.stdout)
    return out
