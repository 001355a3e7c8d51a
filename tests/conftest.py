"""The suite runs on CPython 3.14 against isojson (or ISOJSON_TEST_MODULE,
see _util.py). A wrong interpreter or a missing module fails the run: the
suite never skips for either."""

import os
import sys

if sys.version_info[:2] < (3, 14):
    raise RuntimeError(f"the isojson suite needs CPython 3.14, this is {sys.version.split()[0]}")

# scripts/venv-test runs the suite on isojson installed into a venv (ISOJSON_TEST_INSTALLED names
# it): the module under test must be that copy, never one from a source tree.
_venv = os.environ.get("ISOJSON_TEST_INSTALLED")
if _venv:
    import isojson as _installed
    _where = os.path.realpath(_installed.__file__)
    if not _where.startswith(os.path.realpath(_venv) + os.sep):
        raise RuntimeError(f"the suite must test the isojson installed in {_venv}, and imported {_where}")


def pytest_report_header(config):
    try:
        import _util
    except ImportError as e:  # every test file fails to collect for the same reason
        return f"module under test cannot be imported: {e}"
    mod = _util.isojson
    return (f"module under test: {_util.MODULE_NAME} from {getattr(mod, '__file__', '?')}; "
            f"backend {getattr(mod, 'backend', '?')} of {getattr(mod, 'backends', '?')}")
