"""Finding the tools a build needs (Go >= 1.26, a C compiler, Python's
headers), or one sentence saying which is missing."""

import os
import re
import shlex
import shutil
import subprocess

from . import BuildError

GO_MIN = (1, 26)
_GO_NEED = f"isojson needs Go {GO_MIN[0]}.{GO_MIN[1]} or newer to build its engine"


def find_go():
    """The go command to run: $GO, else `go` on PATH, else /usr/local/go/bin/go,
    as GOROOT/bin/go (the path a chroot that binds GOROOT sees too)."""
    given = os.environ.get("GO")
    if given:
        candidates = [given]
    else:
        candidates = [c for c in (shutil.which("go"), "/usr/local/go/bin/go") if c]
    for go in candidates:
        try:
            out = subprocess.run([go, "env", "GOVERSION", "GOROOT"], capture_output=True, text=True, check=True,
                                 env={**os.environ, "GOTOOLCHAIN": "local"}).stdout.split()
        except (OSError, subprocess.CalledProcessError):
            if given:
                raise BuildError(f"{_GO_NEED}, and GO={given} cannot be run") from None
            continue
        version, goroot = out[0], out[1]
        m = re.match(r"go(\d+)\.(\d+)", version)
        if not m or (int(m.group(1)), int(m.group(2))) < GO_MIN:
            raise BuildError(f"{_GO_NEED}, and {go} is {version}")
        path = os.path.join(goroot, "bin", "go")
        return path if os.access(path, os.X_OK) else os.path.abspath(go)
    raise BuildError(f"{_GO_NEED}, and there is no go command on PATH or at /usr/local/go/bin/go "
                     "(install it from https://go.dev/dl/, or set GO to its path)")


def check_c(target):
    """Checks that target's C compiler runs and finds Python.h, by
    preprocessing `#include <Python.h>` the way the build will compile."""
    cc = shlex.join(target.cc)
    cmd = [*target.run, *target.cc, "-E", "-x", "c", *(f"-I{d}" for d in target.include_dirs), "-o", os.devnull, "-"]
    try:
        p = subprocess.run(cmd, input="#include <Python.h>\n", capture_output=True, text=True)
    except FileNotFoundError:
        p = None
    err = p.stderr if p else ""
    if p is None or p.returncode == 127 or ("No such file or directory" in err and "Python.h" not in err):
        raise BuildError(f"isojson needs a C compiler to build its extension, and {cc} was not found "
                         "(install gcc, or set CC to the compiler)")
    if p.returncode != 0:
        if "Python.h" in err:
            dirs = ", ".join(target.include_dirs)
            raise BuildError(f"isojson needs Python's C headers to build its extension, and there is no usable "
                             f"Python.h in {dirs} (Debian: apt-get install python3.14-dev)")
        last = (err.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
        raise BuildError(f"the C compiler {cc} cannot preprocess Python.h: {last}")
