"""The module's surface: orjson 3.13's names and option values, version,
backends, Fragment, and the type stubs shipped in the package."""

import ast
import json
import os
import re
import sys

import pytest

import _util
from _util import isojson, orjson


def test_module_under_test_is_the_built_package():
    assert isojson.__name__ == _util.MODULE_NAME
    assert sys.version_info[:2] >= (3, 14)


def test_option_values_match_orjson():
    names = [n for n in dir(orjson) if n.startswith("OPT_")]
    assert len(names) == 14
    for name in names:
        value = getattr(isojson, name)
        assert type(value) is int and value == getattr(orjson, name), name
    assert sorted(n for n in dir(isojson) if n.startswith("OPT_")) == sorted(names)


def test_public_names_match_orjson():
    assert set(isojson.__all__) == set(orjson.__all__)
    for name in orjson.__all__:
        assert hasattr(isojson, name), name
    assert callable(isojson.dumps) and callable(isojson.loads)
    assert isojson.JSONEncodeError is TypeError
    assert issubclass(isojson.JSONDecodeError, json.JSONDecodeError)
    assert isojson.JSONDecodeError.__name__ == "JSONDecodeError"


def test_version():
    assert isinstance(isojson.__version__, str)
    assert re.fullmatch(r"\d+\.\d+\.\d+([.+-][0-9A-Za-z.+-]+)?", isojson.__version__), isojson.__version__


def test_backends():
    backends = isojson.backends
    assert type(backends) is tuple and backends, backends
    assert all(type(b) is str and b for b in backends)
    assert len(set(backends)) == len(backends)
    assert "scalar" in backends  # the pure Go parser is always compiled in
    assert type(isojson.backend) is str and isojson.backend in backends
    assert "backend" in dir(isojson) and "backends" in dir(isojson)


def test_unknown_backend_is_a_clear_error():
    """ISOJSON_BACKEND naming no backend: loads raises an exception that names
    it and lists the choices (no crash, no silent fallback)."""
    out = _util.run_python("""
        import importlib, os
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        for attempt in range(2):
            try:
                mod.loads(b"[1]")
            except Exception as e:
                print(type(e).__name__, e)
            else:
                print("accepted")
    """, 60, env=_util.child_env(ISOJSON_BACKEND="no-such-backend"))
    lines = out.strip().splitlines()
    assert len(lines) == 2 and lines[0] == lines[1], out
    assert "no-such-backend" in lines[0] and "scalar" in lines[0], out


def test_fragment():
    frag = isojson.Fragment(b'{"a": [1]}')
    assert isojson.dumps([frag, isojson.Fragment("[2]")]) == b'[{"a": [1]},[2]]'
    for args, kwargs in (((), {}), ((b"1", b"2"), {}), ((), {"contents": b"1"})):
        got = _util.outcome(isojson.Fragment, *args, **kwargs)
        want = _util.outcome(orjson.Fragment, *args, **kwargs)
        assert got[0] == want[0] == "error", (args, kwargs, got)
        assert got[1]["type"] == want[1]["type"]
    # Contents of the wrong type are accepted by the constructor and refused by dumps, like orjson.
    for contents in (1, None, bytearray(b"1"), memoryview(b"1")):
        got = _util.outcome(isojson.dumps, [isojson.Fragment(contents)])
        want = _util.renamed(_util.outcome(orjson.dumps, [orjson.Fragment(contents)]))
        assert got == want, contents


def test_import_as_orjson_is_a_drop_in():
    code = """
        import importlib, os
        orjson = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        data = orjson.dumps({"b": 1, "a": [1.5, None]}, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
        assert orjson.loads(data) == {"a": [1.5, None], "b": 1}
        try:
            orjson.loads("{")
        except orjson.JSONDecodeError:
            pass
        print(data.decode())
    """
    import orjson as real
    want = real.dumps({"b": 1, "a": [1.5, None]}, option=real.OPT_SORT_KEYS | real.OPT_INDENT_2).decode()
    assert _util.run_python(code, 60).strip() == want


def _stub_names(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_type_stubs_present():
    package_dir = os.path.dirname(isojson.__file__)
    assert os.path.basename(isojson.__file__) == "__init__.py", "isojson is a package (stubs live beside it)"
    stub = os.path.join(package_dir, "__init__.pyi")
    assert os.path.isfile(stub), stub
    assert os.path.isfile(os.path.join(package_dir, "py.typed"))
    names = _stub_names(stub)
    orjson_stub = os.path.join(os.path.dirname(orjson.__file__), "__init__.pyi")
    missing = _stub_names(orjson_stub) - names
    assert not missing, f"names in orjson's stubs missing from isojson's: {sorted(missing)}"
    assert {"backend", "backends"} <= names


@pytest.mark.parametrize("name", ["dumps", "loads"])
def test_functions_are_described(name):
    fn = getattr(isojson, name)
    assert fn.__name__ == name
    assert fn.__doc__
