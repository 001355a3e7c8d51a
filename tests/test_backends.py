"""Every compiled-in parser backend, chosen with ISOJSON_BACKEND, passes the
loads parity and decode-error tests (in a child process per backend)."""

import pytest

import _util
from _util import isojson

BACKENDS = list(isojson.backends)


@pytest.mark.parametrize("name", BACKENDS)
def test_backend_passes_loads_parity(name):
    out = _util.run_python("""
        import importlib, os, sys
        import pytest
        mod = importlib.import_module(os.environ["ISOJSON_TEST_MODULE"])
        print("backend in use:", mod.backend, flush=True)
        sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "test_parity_loads.py",
                              "test_errors.py::test_decode_errors", "test_threads.py::test_concurrent_loads_and_dumps"]))
    """, 600, env=_util.child_env(ISOJSON_BACKEND=name))
    assert out.splitlines()[0] == f"backend in use: {name}", out[:500]
    assert " passed" in out and " failed" not in out, out[-3000:]


def test_at_least_one_backend_besides_scalar():
    """The SIMD backends are compiled in on x86-64 (they fall back at run time)."""
    assert len(BACKENDS) >= 2, BACKENDS
