"""python -I scripts/installed_check.py VENV: checks an installed isojson as
a user meets it (scripts/venv-test runs it from /, with no PYTHONPATH):

- `import isojson` finds the copy in VENV, not a source tree;
- loads and dumps work, in the main interpreter and in a strict (own-GIL)
  sub-interpreter made by concurrent.interpreters.create();
- __version__, the engine's version, importlib.metadata and `pip show` agree;
- the package holds what the wheel promises (extension, engine, stub,
  py.typed, licences), and pkgutil lists no module but the extension (the
  engine's file is not mistaken for one);
- every installed file matches the hash in RECORD.

Prints one line per check; exits 1 at the first failure, with its reason.
"""

import base64
import hashlib
import importlib.metadata
import os
import pkgutil
import subprocess
import sys


def fail(msg):
    print(f"installed-check: FAIL: {msg}")
    sys.exit(1)


def ok(msg):
    print(f"installed-check: ok: {msg}")


def main(venv):
    venv = os.path.realpath(venv)
    if os.path.realpath(sys.prefix) != venv:
        fail(f"this Python's prefix is {sys.prefix}, not the venv {venv}")
    if os.getcwd() != "/":
        fail(f"run from / (the working directory is {os.getcwd()})")
    import isojson
    where = os.path.realpath(isojson.__file__)
    if not where.startswith(venv + os.sep):
        fail(f"isojson was imported from {where}, not from the venv {venv}")
    ok(f"isojson {isojson.__version__} imported from {os.path.dirname(where)}")

    if isojson.loads(b'{"a": [1, 2.5, null, "\\u00e9"]}') != {"a": [1, 2.5, None, "é"]}:
        fail("loads gave a wrong value")
    if isojson.dumps({"b": 1, "a": [1.5, None]}, option=isojson.OPT_SORT_KEYS) != b'{"a":[1.5,null],"b":1}':
        fail("dumps gave wrong bytes")
    ok(f"loads and dumps (backend {isojson.backend})")

    from concurrent import interpreters
    interp = interpreters.create()   # strict: its own GIL, no legacy single-phase modules
    try:
        interp.exec("import isojson\n"
                    "assert isojson.loads(b'[1, {\"k\": true}]') == [1, {'k': True}]\n"
                    "assert isojson.dumps({'x': [None]}) == b'{\"x\":[null]}'\n")
    except interpreters.ExecutionFailed as e:
        fail(f"isojson in a strict sub-interpreter: {e}")
    finally:
        interp.close()
    ok("import, loads and dumps in a strict sub-interpreter (concurrent.interpreters.create())")

    meta = importlib.metadata.version("isojson")
    engine = isojson._engine_version()
    show = subprocess.run([sys.executable, "-m", "pip", "show", "isojson"], capture_output=True, text=True,
                          env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    shown = [line.split(":", 1)[1].strip() for line in show.stdout.splitlines() if line.startswith("Version:")]
    if not (isojson.__version__ == engine == meta) or shown != [meta]:
        fail(f"versions disagree: __version__ {isojson.__version__}, engine {engine}, "
             f"importlib.metadata {meta}, pip show {shown or show.stderr.strip()}")
    ok(f"__version__, the engine, importlib.metadata and pip show all say {meta}")

    pkg = os.path.dirname(where)
    names = sorted(os.listdir(pkg))
    ext = [n for n in names if n.startswith("_isojson.") and n.endswith(".so")]
    want = {"__init__.py", "__init__.pyi", "py.typed", "libisojson_engine.so.0"}
    if len(ext) != 1 or not want <= set(names):
        fail(f"the package holds {names}; it needs one extension and {sorted(want)}")
    mods = sorted(m.name for m in pkgutil.iter_modules(isojson.__path__))
    python_modules = {n[:-3] for n in names if n.endswith(".py")} - {"__init__"}
    if "_isojson" not in mods or set(mods) - {"_isojson"} - python_modules:
        fail(f"pkgutil lists the submodules {mods}; the engine's file is none")
    dist = importlib.metadata.distribution("isojson")
    licences = sorted(str(f) for f in dist.files if "/licenses/" in str(f))
    if not any(f.endswith("/LICENSE") for f in licences) or not any("THIRD_PARTY_NOTICES" in f for f in licences):
        fail(f"the .dist-info's licences are {licences}")
    ok(f"package files {names}, pkgutil sees {mods}, licences {[os.path.basename(f) for f in licences]}")

    checked = 0
    for f in dist.files:
        if f.hash is None:
            continue
        data = f.locate().read_bytes()
        digest = base64.urlsafe_b64encode(hashlib.new(f.hash.mode, data).digest()).rstrip(b"=").decode()
        if digest != f.hash.value or len(data) != f.size:
            fail(f"{f} does not match its RECORD entry")
        checked += 1
    ok(f"{checked} installed files match RECORD")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -I installed_check.py VENV")
    main(sys.argv[1])
