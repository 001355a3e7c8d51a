"""What one build is for: the interpreter's wheel tags, its C headers and
EXT_SUFFIX, the C compiler, GOOS/GOARCH, and where the compilers run.

A Target comes from an interpreter's sysconfig (the running one for
`pip install .`, or one inside a Debian root, asked through scripts/chroot-in),
and any field can be given from outside instead: a cross build (aarch64 from
x86_64, say) names the compiler, the target Python's include directories and
EXT_SUFFIX, and GOARCH, none of which the running interpreter knows.
"""

import dataclasses
import json
import os
import shlex
import shutil
import subprocess
import sys

from . import BuildError

# sysconfig's machine names → GOARCH.
GOARCH = {
    "x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64", "i686": "386", "i386": "386",
    "armv7l": "arm", "ppc64le": "ppc64le", "s390x": "s390x", "riscv64": "riscv64", "loongarch64": "loong64",
}
# GOARCH → the wheel platform tag's machine.
MACHINE = {"amd64": "x86_64", "arm64": "aarch64", "386": "i686", "arm": "armv7l", "ppc64le": "ppc64le",
           "s390x": "s390x", "riscv64": "riscv64", "loong64": "loongarch64"}

# Printed as JSON by the interpreter a target is for (any Python 3).
_PROBE = r"""
import json, sys, sysconfig
v = sysconfig.get_config_var
print(json.dumps({
    "implementation": sys.implementation.name,
    "version": "%d%d" % sys.version_info[:2],
    "ext_suffix": v("EXT_SUFFIX"),
    "include": sysconfig.get_paths()["include"],
    "platinclude": sysconfig.get_paths()["platinclude"],
    "multiarch": v("MULTIARCH") or "",
    "ldversion": v("LDVERSION") or "",
    "debug": bool(v("Py_DEBUG")),
    "gil_disabled": bool(v("Py_GIL_DISABLED")),
    "platform": sysconfig.get_platform(),
    "cc": v("CC") or "cc",
    "executable": sys.executable,
}))
"""


@dataclasses.dataclass
class Target:
    label: str                  # for messages: which interpreter, built where
    python_tag: str             # cp314
    abi_tag: str                # cp314, cp314t (free-threaded), cp314d (debug)
    platform_tag: str           # linux_x86_64: what a local build claims (a wheel's manylinux tag
                                # is chosen later, from what the objects need)
    ext_suffix: str             # .cpython-314-x86_64-linux-gnu.so
    include_dirs: list          # the Python headers, as the compiler sees them
    cc: list                    # the C compiler (for the extension and for cgo)
    goos: str = "linux"
    goarch: str = "amd64"
    run: list = dataclasses.field(default_factory=list)   # prefix of every compile command (a chroot)
    werror: bool = True         # warnings fail the build (the project's builds; not a user's compiler)
    cflags: list = dataclasses.field(default_factory=list)  # C flags of this target (its compiler's quirks)

    @property
    def tag(self):
        return f"{self.python_tag}-{self.abi_tag}-{self.platform_tag}"

    @property
    def machine(self):
        return MACHINE.get(self.goarch, self.goarch)


def probe(python, run=()):
    """The sysconfig facts of interpreter `python` (a command), run under `run`."""
    cmd = [*run, *python, "-c", _PROBE]
    try:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise BuildError(f"cannot run the Python to build for: {shlex.join(cmd[:len(run) + len(python)])} "
                         "was not found") from None
    except subprocess.CalledProcessError as e:
        raise BuildError(f"cannot ask {shlex.join(list(python))} for its build settings: "
                         f"{(e.stderr or '').strip().splitlines()[-1:] or e.returncode}") from None
    return json.loads(out.strip().splitlines()[-1])


def _tags(info):
    if info["implementation"] != "cpython":
        raise BuildError(f"isojson is a CPython extension; {info['executable']} is {info['implementation']}")
    abi = f"cp{info['version']}" + ("t" if info["gil_disabled"] else "") + ("d" if info["debug"] else "")
    platform = info["platform"].replace("-", "_").replace(".", "_")
    return f"cp{info['version']}", abi, platform


def _goarch(platform):
    machine = platform.split("-", 1)[-1]
    if machine not in GOARCH:
        raise BuildError(f"isojson's engine has no Go port for the machine {machine!r}")
    return GOARCH[machine]


def _include_dirs(info):
    dirs = [info["include"]]
    if info["platinclude"] != info["include"]:
        dirs.append(info["platinclude"])
    return dirs


def from_interpreter(python=None, run=(), label=None, werror=True):
    """The target of interpreter `python` (a command; default: this one), with
    the compilers run as it is: under `run` (a chroot, say) or here.
    The C compiler is $CC, else the interpreter's own (sysconfig's CC)."""
    python = list(python) if python else [sys.executable]
    info = probe(python, run)
    python_tag, abi_tag, platform_tag = _tags(info)
    cc = shlex.split(os.environ.get("CC") or info["cc"])
    return Target(label=label or shlex.join(python), python_tag=python_tag, abi_tag=abi_tag,
                  platform_tag=platform_tag, ext_suffix=info["ext_suffix"], include_dirs=_include_dirs(info),
                  cc=cc, goarch=_goarch(info["platform"]), run=list(run), werror=werror)


def staged_headers(info, python_root, dest):
    """Copies interpreter info's C headers (from the root it lives in) to dest,
    for a compiler in another root: include/ and, on Debian, the multiarch
    directory its pyconfig.h includes (<x86_64-linux-gnu/python3.14/pyconfig.h>).
    Returns the include directories, under dest."""
    def host(p):
        return python_root.rstrip("/") + p if python_root else p
    os.makedirs(dest, exist_ok=True)
    include = info["include"]
    name = os.path.basename(include)                   # python3.14, python3.14t, python3.14d
    out = os.path.join(dest, name)
    _replace_tree(host(include), out)
    dirs = [out, dest]
    if info["platinclude"] != include:
        _replace_tree(host(info["platinclude"]), os.path.join(dest, "plat", name))
        dirs.insert(1, os.path.join(dest, "plat", name))
    if info["multiarch"]:
        arch_dir = os.path.join(os.path.dirname(include), info["multiarch"], name)
        if os.path.isdir(host(arch_dir)):
            _replace_tree(host(arch_dir), os.path.join(dest, info["multiarch"], name))
    if not os.path.isfile(os.path.join(out, "Python.h")):
        raise BuildError(f"isojson needs Python's C headers: there is no Python.h in {host(include)}")
    return dirs


def _replace_tree(src, dst):
    if not os.path.isdir(src):
        raise BuildError(f"isojson needs Python's C headers: {src} does not exist")
    tmp = f"{dst}.tmp.{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(src, tmp, symlinks=False)
    shutil.rmtree(dst, ignore_errors=True)
    os.rename(tmp, dst)


def for_foreign_root(python, python_run, python_root, build_run, header_dir, label, cc=None):
    """The target of interpreter `python` (inside python_root, run by
    python_run), compiled inside another root (run by build_run):
    its headers are copied to header_dir (a path both this machine and the
    build root see, under the repository)."""
    info = probe(list(python), python_run)
    python_tag, abi_tag, platform_tag = _tags(info)
    dirs = staged_headers(info, python_root, header_dir)
    return Target(label=label, python_tag=python_tag, abi_tag=abi_tag, platform_tag=platform_tag,
                  ext_suffix=info["ext_suffix"], include_dirs=dirs, cc=list(cc or ["gcc"]),
                  goarch=_goarch(info["platform"]), run=list(build_run))
