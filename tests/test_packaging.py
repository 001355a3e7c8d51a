"""The package as installed: one version everywhere, the engine's file not
taken for a module, and the wheel tag check (build_backend/isojson_build/
manylinux.py) judging the installed objects, including the cases where it
must fail. Runs on the wheel in a venv (make test) and on build/python
(scripts/py), which carries the same .dist-info."""

import importlib.metadata
import os
import pkgutil
import pydoc
import re
import subprocess
import sys
import tomllib

import pytest

import _util
from _util import isojson

sys.path.insert(0, os.path.join(_util.REPO_DIR, "build_backend"))
from isojson_build import elf, manylinux  # noqa: E402  (the builder, not isojson: standard library only)

PACKAGE_DIR = os.path.dirname(isojson.__file__)
ENGINE = os.path.join(PACKAGE_DIR, "libisojson_engine.so.0")
EXTENSION = isojson._isojson.__file__


def installed_tag():
    tags = [line.split(":", 1)[1].strip() for line in importlib.metadata.distribution("isojson").read_text(
        "WHEEL").splitlines() if line.startswith("Tag:")]
    assert len(tags) == 1, tags
    return tags[0]


def test_one_version_everywhere():
    with open(os.path.join(_util.REPO_DIR, "pyproject.toml"), "rb") as f:
        source = tomllib.load(f)["project"]["version"]
    assert isojson.__version__ == source
    assert isojson._engine_version() == source
    assert importlib.metadata.version("isojson") == source


def test_engine_is_no_module():
    assert os.path.isfile(ENGINE)
    # Submodules: the extension and the package's Python files (a __main__.py, say), never the engine.
    python_modules = {n[:-3] for n in os.listdir(PACKAGE_DIR) if n.endswith(".py")} - {"__init__"}
    mods = {m.name for m in pkgutil.iter_modules(isojson.__path__)}
    assert "_isojson" in mods and mods - {"_isojson"} <= python_modules, mods
    doc = pydoc.render_doc(isojson, renderer=pydoc.plaintext)
    contents = doc.split("PACKAGE CONTENTS", 1)[1].split("\n\n", 1)[0].split()
    assert "_isojson" in contents and not [c for c in contents if "engine" in c], contents
    with pytest.raises(ModuleNotFoundError):
        __import__("isojson.libisojson_engine")


def test_installed_objects_allow_the_tag():
    tag = installed_tag()
    platform = tag.split("-")[2]
    for path in (EXTENSION, ENGINE):
        obj = elf.read_file(path)
        assert manylinux.problems(obj, platform) == [], (path, tag)
        if platform.startswith("manylinux"):
            assert manylinux.glibc_needed(obj) <= manylinux.parse_platform(platform)[0]


def test_tag_check_rejects_an_older_glibc():
    engine = elf.read_file(ENGINE)
    need = manylinux.glibc_needed(engine)
    older = f"manylinux_{need[0]}_{need[1] - 1}_{engine.machine}"
    found = manylinux.problems(engine, older)
    assert len(found) == 1 and f"needs glibc {need[0]}.{need[1]}" in found[0], found
    # It names the symbols that need the newer glibc.
    assert re.search(rf"\w+@GLIBC_{need[0]}\.{need[1]}\b", found[0]), found


def test_tag_check_rejects_another_machine_and_a_library_outside_glibc():
    ext = elf.read_file(EXTENSION)
    other = "aarch64" if ext.machine == "x86_64" else "x86_64"
    assert any(f"built for {ext.machine}, the tag says {other}" in p for p in manylinux.problems(ext, f"linux_{other}"))
    import _ctypes   # needs libffi, which is not part of glibc
    found = manylinux.problems(elf.read_file(_ctypes.__file__), f"manylinux_2_40_{ext.machine}")
    assert any(re.search(r"needs libffi\.so\.\d+, which is not part of glibc", p) for p in found), found
    # linux_<machine>, a build for this machine (the asan variant's needs libasan): any library.
    assert manylinux.problems(elf.read_file(_ctypes.__file__), f"linux_{ext.machine}") == []


def _readelf(args, path):
    return subprocess.run(["readelf", "-W", *args, path], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("which", ["extension", "engine"])
def test_elf_reader_agrees_with_readelf(which):
    path = EXTENSION if which == "extension" else ENGINE
    obj = elf.read_file(path)
    assert obj.needed == re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", _readelf(["-d"], path))
    verneed = _readelf(["-V"], path).split("Version needs section", 1)[1]
    want = {}
    for m in re.finditer(r"File: (\S+)\s+Cnt: \d+\n((?:\s+0x[0-9a-f]+: +Name: .*\n?)+)", verneed):
        want[m.group(1)] = set(re.findall(r"Name: (\S+)", m.group(2)))
    assert obj.versions == want
    dyn = _readelf(["--dyn-syms"], path)
    for version, symbols in obj.symbols.items():
        for sym in symbols:
            assert re.search(rf"UND {re.escape(sym)}@{re.escape(version)}\b", dyn), (sym, version)
