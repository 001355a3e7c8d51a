"""The file maps list every file. In the C extension isojson.h maps pyshim/
(its top-level files and cpython/), dumps/dumps.h maps dumps/, loads/loads.h
maps loads/; in Go, each package of more than one file has a doc.go whose
package comment names every file of the package's code (.go but tests, .s,
.h); tests/README.md's table names every Python file of tests/. A file added,
renamed or removed without its map fails here."""

import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
PYSHIM = REPO / "pyshim"

# (the map, the folders whose C files it lists)
MAPS = [
    ("isojson.h", ["", "cpython"]),
    ("dumps/dumps.h", ["dumps"]),
    ("loads/loads.h", ["loads"]),
]


def opening_comment(path):
    text = path.read_text()
    assert text.startswith("/*"), path
    return text[: text.index("*/")]


def names_in(comment, exts="ch"):
    """The file names a map mentions; "x.h/.c" (and "x.go/.s") names both."""
    ext = "(?:" + "|".join(exts) + ")"
    names = set(re.findall(rf"[A-Za-z0-9_]+\.{ext}\b", comment))
    for stem, a, b in re.findall(rf"([A-Za-z0-9_]+)\.({ext})/\.({ext})\b", comment):
        names |= {f"{stem}.{a}", f"{stem}.{b}"}
    return names


@pytest.mark.parametrize("map_file, folders", MAPS, ids=[m for m, _ in MAPS])
def test_map_lists_every_file(map_file, folders):
    listed = names_in(opening_comment(PYSHIM / map_file))
    files = {p.name for f in folders for p in (PYSHIM / f).glob("*.[ch]")}
    assert files, folders
    assert sorted(files - listed) == []


def test_every_c_file_is_in_a_mapped_folder():
    mapped = {PYSHIM / f for _, folders in MAPS for f in folders}
    for p in PYSHIM.rglob("*.[ch]"):
        if "engine" in p.relative_to(PYSHIM).parts:
            continue   # the Go engine's own folder: its C header is the ABI
        assert p.parent in mapped, p


# ---- Go ------------------------------------------------------------------------------------------------------

GO_CODE = (".go", ".s", ".h", ".c")


def go_code_files(folder):
    return sorted(p.name for p in folder.iterdir()
                  if p.is_file() and p.suffix in GO_CODE and not p.name.endswith("_test.go"))


def go_packages():
    """The module's package folders (testdata, build output and vendored
    modules are not the module's packages)."""
    skip = {"testdata", "build", "vendor", "dist", ".git"}
    return sorted({p.parent for p in REPO.rglob("*.go")
                   if not p.name.endswith("_test.go") and not skip & set(p.relative_to(REPO).parts)})


def package_comment(path):
    """The // comment right above the package clause."""
    lines = path.read_text().splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("package "))
    start = end
    while start > 0 and lines[start - 1].startswith("//"):
        start -= 1
    return "\n".join(lines[start:end])


def test_go_packages_are_found():
    found = {p.relative_to(REPO).as_posix() for p in go_packages()}
    assert {"api", "backend", "backend/scalar", "writer", "writer/reference", "pyshim/engine",
            "conformance/difffuzz"} <= found, found


@pytest.mark.parametrize("folder", go_packages(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_go_doc_lists_every_file(folder):
    files = go_code_files(folder)
    if len(files) == 1:
        return  # a one-file package: its package comment is in that file, which is the whole map
    doc = folder / "doc.go"
    assert doc.exists(), f"{folder.relative_to(REPO)} has {len(files)} files and no doc.go to map them"
    comment = package_comment(doc)
    assert comment, f"{doc.relative_to(REPO)} has no package comment"
    listed = names_in(comment, exts=("go", "s", "h", "c"))
    assert sorted(set(files) - listed - {"doc.go"}) == []


# ---- the test suite ------------------------------------------------------------------------------------------

def test_tests_readme_lists_every_file():
    tests = REPO / "tests"
    listed = set(re.findall(r"`([A-Za-z0-9_]+\.py)`", (tests / "README.md").read_text()))
    files = {p.name for p in tests.glob("*.py")}
    assert "test_file_maps.py" in files
    assert sorted(files - listed) == [], "tests/README.md's table does not name these files"
    assert sorted(n for n in listed - files if n.startswith(("test_", "_"))) == [], \
        "tests/README.md names files that are not in tests/"
