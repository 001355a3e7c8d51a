"""The Go engine and the C extension, built for one Target into a staging
directory laid out as site-packages is:

    STAGE/isojson/__init__.py, __init__.pyi, py.typed     (pyshim/python/isojson/)
    STAGE/isojson/_isojson<EXT_SUFFIX>                     every .c under pyshim/ (pyshim/engine is Go)
    STAGE/isojson/libisojson_engine.so.0                   go build -buildmode=c-shared ./pyshim/engine

The engine's file name is the one pyshim/engine_loader.c looks for (read from
its ENGINE_FILE), next to the extension. Each output is rebuilt when an input
is newer or its settings (STAGE/.build/*.json) changed, so `make build` and
`make wheel` are cheap when nothing changed: the C files are compiled one
object each (in parallel, only those older than their source or a header),
and Go's build cache makes a rebuilt engine cheap too, apart from its link.
"""

import concurrent.futures
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

from . import BuildError
from .toolchain import check_c, find_go

PACKAGE = "isojson"
PYSHIM = "pyshim"
ENGINE_PACKAGE = "./pyshim/engine"
LOADER = os.path.join(PYSHIM, "engine_loader.c")

# The C flags of every build (-DNDEBUG as python3-config --cflags has it: without it the inline
# functions of CPython's headers keep their asserts). maybe-uninitialized depends on the compiler's
# version (gcc 10 sees one in dumps_dict.c where gcc 12 and 16 see the value set): a warning, not an
# error.
C_FLAGS = ["-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-Wno-unused-parameter",
           "-Wno-missing-field-initializers", "-DNDEBUG", "-std=gnu11", "-fvisibility=hidden", "-pthread"]
C_WERROR = ["-Werror", "-Wno-error=maybe-uninitialized"]


def engine_file(root):
    """The engine's file name, as pyshim/engine_loader.c defines it."""
    path = os.path.join(root, LOADER)
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^#define ENGINE_FILE "([^"/]+)"', f.read(), re.M)
    if not m:
        raise BuildError(f"{path} defines no ENGINE_FILE")
    return m.group(1)


def c_sources(root):
    """Every C file of the extension, in every folder of pyshim/ but the Go
    engine's and the Python package's, sorted (link order and stamps do not
    depend on the file system)."""
    out = []
    for path in glob.glob(os.path.join(root, PYSHIM, "**", "*.c"), recursive=True):
        rel = os.path.relpath(path, root)
        parts = rel.split(os.sep)
        if parts[1] in ("engine", "python"):
            continue
        out.append(rel)
    if not out:
        raise BuildError(f"no C sources under {os.path.join(root, PYSHIM)}")
    return sorted(out)


def c_headers(root):
    return sorted(os.path.relpath(p, root)
                  for p in glob.glob(os.path.join(root, PYSHIM, "**", "*.h"), recursive=True))


def python_files(root):
    src = os.path.join(root, PYSHIM, "python", PACKAGE)
    return sorted(f for f in os.listdir(src) if os.path.isfile(os.path.join(src, f)) and not f.endswith(".pyc"))


def go_env(target, root):
    """The environment of the engine's go commands."""
    env = dict(os.environ)
    env.update(GOOS=target.goos, GOARCH=target.goarch, CGO_ENABLED="1", CC=shlex.join(target.cc),
               GOTOOLCHAIN="local")
    # The parser's inline vector scans (backend/scalar/scan_simd_amd64.go); elsewhere the portable ones.
    if target.goarch == "amd64":
        env["GOEXPERIMENT"] = "simd"
    else:
        env.pop("GOEXPERIMENT", None)
    if vendored(root):
        env["GOFLAGS"] = (env.get("GOFLAGS", "") + " -mod=vendor").strip()
        env.setdefault("GOPROXY", "off")
    return env


def vendored(root):
    """An unpacked sdist: the Go modules are in vendor/, and nothing is downloaded."""
    return os.path.isfile(os.path.join(root, "vendor", "modules.txt"))


def go_inputs(go, env, root):
    """The files the engine is built from: every file in the directory of
    every package it imports, outside the standard library (vendor/ included),
    and go.mod, go.sum."""
    try:
        out = subprocess.run([go, "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", ENGINE_PACKAGE],
                             cwd=root, env=env, capture_output=True, text=True, check=True).stdout
    except subprocess.CalledProcessError as e:
        raise BuildError(f"go list {ENGINE_PACKAGE} failed: {_last_line(e.stderr)}") from None
    files = [os.path.join(root, f) for f in ("go.mod", "go.sum", "vendor/modules.txt")]
    for d in filter(None, out.splitlines()):
        files += [os.path.join(d, f) for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))]
    return [f for f in files if os.path.exists(f)]


def jobs():
    """How many compilers run at once: $ISOJSON_BUILD_JOBS, else one per CPU this process may use."""
    given = os.environ.get("ISOJSON_BUILD_JOBS")
    if given:
        return max(1, int(given))
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _write_json(path, value):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1)
    os.replace(tmp, path)


def _last_line(text):
    lines = (text or "").strip().splitlines()
    return lines[-1] if lines else "no output"


class _Output:
    """One output file with the settings it was built with, in STAGE/.build/NAME.json."""

    def __init__(self, stage, path, settings, inputs, force):
        self.path = path
        self.stamp = os.path.join(stage, ".build", os.path.basename(path) + ".json")
        self.settings = settings
        self.inputs = inputs
        self.force = force

    def current(self):
        if self.force or not os.path.exists(self.path) or _load(self.stamp) != self.settings:
            return False
        built = os.path.getmtime(self.path)
        return all(os.path.getmtime(i) <= built for i in self.inputs)

    def done(self):
        os.makedirs(os.path.dirname(self.stamp), exist_ok=True)
        _write_json(self.stamp, self.settings)


def _run(cmd, what, cwd, env=None, log=print):
    log(f"build: {what}")
    p = subprocess.run(cmd, cwd=cwd, env=env)
    if p.returncode != 0:
        raise BuildError(f"{what} failed (exit status {p.returncode}): {shlex.join(cmd)}")


def build(project, target, stage, *, cflags_extra=(), strip=False, force=False, log=print):
    """Builds the package for target into stage; returns the paths of the
    extension and the engine."""
    root = project.root
    go = find_go()
    check_c(target)
    pkg = os.path.join(stage, PACKAGE)
    work = os.path.join(stage, ".build")
    os.makedirs(pkg, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    pid = os.getpid()

    # 1. The Go engine: -X gives it the version; -s -w strip its symbols and DWARF.
    env = go_env(target, root)
    engine = os.path.join(pkg, engine_file(root))
    ldflags = f"-X main.engineVersion={project.version}" + (" -s -w" if strip else "")
    out = _Output(stage, engine, {"go": go, "goos": target.goos, "goarch": target.goarch, "cc": target.cc,
                                  "run": target.run, "ldflags": ldflags, "vendored": vendored(root)},
                  go_inputs(go, env, root), force)
    if not out.current():
        tmp = os.path.join(work, f"engine.{pid}.so")
        try:
            _run([*target.run, go, "build", "-trimpath", "-buildmode=c-shared", "-ldflags", ldflags, "-o", tmp,
                  ENGINE_PACKAGE], f"engine {engine} (GOARCH={target.goarch})", root, env, log)
            os.replace(tmp, engine)
        finally:
            for f in (tmp, tmp[:-3] + ".h"):   # cgo's export header: the extension has isojson_engine.h
                if os.path.exists(f):
                    os.remove(f)
        out.done()

    # 2. The extension: each C file to an object in STAGE/.build/obj/ (in parallel; a file is
    #    recompiled when it or any header is newer, or the flags changed), then one link.
    #    -Ipyshim: a file includes one of its own folder by its bare name, one of another
    #    folder by the folder's path.
    sources = c_sources(root)
    headers = [os.path.join(root, h) for h in c_headers(root)]
    ext = os.path.join(pkg, "_isojson" + target.ext_suffix)
    flags = [*C_FLAGS, *(C_WERROR if target.werror else []), f'-DISOJSON_VERSION="{project.version}"',
             *(f"-I{d}" for d in target.include_dirs), f"-I{PYSHIM}", *target.cflags, *cflags_extra]
    obj_dir = os.path.join(work, "obj")
    settings = {"cc": target.cc, "run": target.run, "flags": flags}
    stamp = os.path.join(obj_dir, "settings.json")
    if force or not os.path.exists(stamp) or _load(stamp) != settings:
        shutil.rmtree(obj_dir, ignore_errors=True)
    os.makedirs(obj_dir, exist_ok=True)
    newest_header = max([os.path.getmtime(h) for h in headers] + [0])
    objs, todo = [], []
    for src in sources:
        obj = os.path.join(obj_dir, src.replace(os.sep, "__")[:-2] + ".o")
        objs.append(obj)
        if not os.path.exists(obj) or os.path.getmtime(obj) < max(newest_header,
                                                                    os.path.getmtime(os.path.join(root, src))):
            todo.append((src, obj))
    if todo:
        log(f"build: compiling {len(todo)} of {len(sources)} C files for {ext}")
        _write_json(stamp, {})   # unfinished: a failed run leaves no settings that match
        failed = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs()) as pool:
            results = pool.map(lambda job: (job, subprocess.run(
                [*target.run, *target.cc, *flags, "-c", job[0], "-o", job[1] + f".tmp.{pid}"], cwd=root,
                capture_output=True, text=True)), todo)
            for (src, obj), p in results:
                sys.stderr.write(p.stdout + p.stderr)
                if p.returncode == 0:
                    os.replace(obj + f".tmp.{pid}", obj)
                else:
                    failed.append(src)
        if failed:
            raise BuildError(f"the C compiler {shlex.join(target.cc)} failed on {', '.join(failed)} "
                             "(its messages are above)")
        _write_json(stamp, settings)
    out = _Output(stage, ext, {**settings, "objects": objs, "strip": strip}, objs, force)
    if not out.current() or todo:
        tmp = f"{ext}.tmp.{pid}"
        try:
            _run([*target.run, *target.cc, *flags, "-o", tmp, *objs, "-ldl", *(["-s"] if strip else [])],
                 f"extension {ext} (linking {len(objs)} objects)", root, None, log)
            os.replace(tmp, ext)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        out.done()

    # 3. The Python files, each replaced by a rename (a running Python never sees half a file).
    src = os.path.join(root, PYSHIM, "python", PACKAGE)
    for name in python_files(root):
        tmp = os.path.join(pkg, f".{name}.{pid}")
        shutil.copy2(os.path.join(src, name), tmp)
        os.replace(tmp, os.path.join(pkg, name))
    # The engine's earlier name, which pkgutil took for a submodule.
    stale = os.path.join(pkg, "libisojson_engine.so")
    if os.path.exists(stale) and stale != engine:
        os.remove(stale)
    return ext, engine
