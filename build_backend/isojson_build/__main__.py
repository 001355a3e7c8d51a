"""python3 -m isojson_build COMMAND: the builder's commands for make and the
scripts (build_backend/ on sys.path). `pip install .` goes through
isojson_backend.py instead, for the running interpreter.

    build        the package into build/python (scripts/py puts it on sys.path)
    wheel        a wheel into dist/, tagged with the manylinux tag its objects allow
    sdist        dist/NAME-VERSION.tar.gz with the Go modules vendored
    check-wheel  the tag check: a wheel's tag against its objects, and its RECORD
    notices      THIRD_PARTY_NOTICES.md (--check: fail when it is not current)
    version      the version (pyproject.toml)

Which interpreter a build is for, and where its compilers run:

    --python CMD         the interpreter (default: the one running this)
    --python-root ROOT   it lives in the Debian root ROOT (asked through scripts/chroot-in)
    --build-root ROOT    the compilers run in ROOT (default: where the interpreter lives); the
                         interpreter's headers are copied to build/headers/ when that is elsewhere

--variant NAME (build, wheel) chooses the C flags (variants.py): release (what ships), debug (C
asserts on, for python3.14-dbg too), asan (AddressSanitizer and UBSan); a variant other than
release goes to build/variants/NAME/ (build: python/, wheel: the wheel, tagged linux_<machine>,
not stripped).

And, for a cross build, any of these given instead of read from the interpreter: --cc, --goarch,
--ext-suffix, --include (repeatable), --python-tag, --abi-tag, --platform-tag. With --ext-suffix,
--include and --goarch all given, no interpreter is asked at all.
"""

import argparse
import os
import shlex
import sys

from . import BuildError, distinfo, manylinux, notices, objects, sdist, target, variants, wheel
from .project import SOURCE_ROOT, Project

CHROOT = os.path.join(SOURCE_ROOT, "scripts", "chroot-in")


def _target_args(p):
    p.add_argument("--python", help="the interpreter to build for (a command)")
    p.add_argument("--python-root", help="the Debian root the interpreter lives in")
    p.add_argument("--build-root", help="the Debian root the compilers run in")
    p.add_argument("--cc", help="the C compiler (a command)")
    p.add_argument("--goarch")
    p.add_argument("--ext-suffix")
    p.add_argument("--include", action="append", help="a directory of the target Python's headers")
    p.add_argument("--python-tag")
    p.add_argument("--abi-tag")
    p.add_argument("--platform-tag")
    p.add_argument("--cflag", action="append", default=[], help="a C flag of this target (repeatable)")
    p.add_argument("--no-werror", action="store_true", help="compiler warnings do not fail the build")
    p.add_argument("--variant", default="release", choices=sorted(variants.VARIANTS),
                   help="the C flags: release (default), debug, asan (variants.py)")


def make_target(a, label):
    run_py = [CHROOT, a.python_root] if a.python_root else []
    python = shlex.split(a.python) if a.python else [sys.executable]
    build_root = a.build_root or a.python_root
    run_cc = [CHROOT, build_root] if build_root else []
    if a.ext_suffix and a.include and a.goarch:
        t = target.Target(label=label, python_tag=a.python_tag or "cp314", abi_tag=a.abi_tag or "cp314",
                          platform_tag=a.platform_tag or f"linux_{target.MACHINE.get(a.goarch, a.goarch)}",
                          ext_suffix=a.ext_suffix, include_dirs=list(a.include),
                          cc=shlex.split(a.cc or "cc"), goarch=a.goarch, run=run_cc)
    elif build_root != a.python_root:
        info_label = f"{shlex.join(python)}{' in ' + a.python_root if a.python_root else ''}"
        header_dir = os.path.join(SOURCE_ROOT, "build", "headers", os.path.basename(python[0]))
        t = target.for_foreign_root(python, run_py, a.python_root or "", run_cc, header_dir,
                                    f"{info_label}, compiled in {build_root}", cc=shlex.split(a.cc or "gcc"))
    else:
        t = target.from_interpreter(python, run_py, label=f"{shlex.join(python)}"
                                    f"{' in ' + a.python_root if a.python_root else ''}")
        if a.cc:
            t.cc = shlex.split(a.cc)
    for field in ("goarch", "ext_suffix", "python_tag", "abi_tag", "platform_tag"):
        if getattr(a, field):
            setattr(t, field, getattr(a, field))
    if a.include:
        t.include_dirs = list(a.include)
    if a.no_werror:
        t.werror = False
    t.cflags = list(a.cflag) + variants.cflags(a.variant)
    if a.variant != "release" and t.werror:
        t.cflags.append("-Werror=maybe-uninitialized")
    return t


def variant_dir(a):
    return os.path.join(SOURCE_ROOT, "build", "variants", a.variant)


def cmd_build(a, project):
    t = make_target(a, "build")
    out = a.out or (os.path.join(SOURCE_ROOT, "build", "python") if a.variant == "release"
                     else os.path.join(variant_dir(a), "python"))
    objects.build(project, t, out, cflags_extra=shlex.split(os.environ.get("CFLAGS_EXTRA", "")),
                  strip=a.strip, force=bool(os.environ.get("FORCE")))
    distinfo.write_dist_info(project, out, [t.tag])
    print(f"build: ok ({os.path.join(out, objects.PACKAGE)}, for {t.label})")


def cmd_wheel(a, project):
    t = make_target(a, "wheel")
    release = a.variant == "release"
    stage = os.path.join(SOURCE_ROOT, "build", "wheel", f"{t.python_tag}-{t.abi_tag}-{t.goarch}"
                         + ("" if release else f"-{a.variant}"))
    ext, engine = objects.build(project, t, stage, strip=release, force=bool(os.environ.get("FORCE")))
    if not release:
        a.dist = a.dist or variant_dir(a)   # a build for this machine: its linux_<machine> tag stays
    elif not a.platform_tag:
        built = [manylinux.elf.read_file(p) for p in (ext, engine)]
        t.platform_tag = manylinux.best_tag(built, t.machine)
    path = wheel.write_wheel(project, stage, a.dist or os.path.join(SOURCE_ROOT, "dist"), t.tag)
    print(f"wheel: {path}")


def cmd_sdist(a, project):
    print(f"sdist: {sdist.write_sdist(project, a.dist)}")


def cmd_check_wheel(a, project):
    bad = 0
    for path in a.wheels:
        found, objects = manylinux.check_wheel(path)
        found += wheel.check_record(path)
        print(f"check-wheel: {os.path.basename(path)}: {'FAIL' if found else 'ok'}")
        for o in objects:
            g = manylinux.glibc_needed(o)
            print(f"  {o.name}: {o.machine}, needs {' '.join(o.needed)}; glibc {g[0]}.{g[1]}")
        for f in found:
            print(f"  problem: {f}")
        bad += bool(found)
    return 1 if bad else 0


def cmd_notices(a, project):
    if a.check:
        found = notices.check(project.root)
        for f in found:
            print(f"notices: {f}")
        if not found:
            print(f"notices: {notices.FILE} is current")
        return 1 if found else 0
    path = os.path.join(project.root, notices.FILE)
    with open(path, "w", encoding="utf-8") as f:
        f.write(notices.generate(project.root))
    print(f"notices: wrote {path}")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m isojson_build", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build")
    _target_args(p)
    p.add_argument("--out", help="the staging directory (default build/python)")
    p.add_argument("--strip", action="store_true")
    p = sub.add_parser("wheel")
    _target_args(p)
    p.add_argument("--dist", help="where the wheel goes (default dist/; a variant's: build/variants/NAME/)")
    p = sub.add_parser("sdist")
    p.add_argument("--dist", default=os.path.join(SOURCE_ROOT, "dist"))
    p = sub.add_parser("check-wheel")
    p.add_argument("wheels", nargs="+")
    p = sub.add_parser("notices")
    p.add_argument("--check", action="store_true")
    sub.add_parser("version")
    a = ap.parse_args(argv)
    try:
        project = Project()
        if a.command == "version":
            print(project.version)
            return 0
        return {"build": cmd_build, "wheel": cmd_wheel, "sdist": cmd_sdist, "check-wheel": cmd_check_wheel,
                "notices": cmd_notices}[a.command](a, project) or 0
    except BuildError as e:
        print(f"{a.command}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
