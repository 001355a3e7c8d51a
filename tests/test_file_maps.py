"""The file maps of the C extension list every file: isojson.h maps pyshim/
(its top-level files and cpython/), dumps/dumps.h maps dumps/, loads/loads.h
maps loads/. A file added, renamed or removed without its map fails here."""

import pathlib
import re

import pytest

PYSHIM = pathlib.Path(__file__).resolve().parents[1] / "pyshim"

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


def names_in(comment):
    """The file names a map mentions; "x.h/.c" names both."""
    names = set(re.findall(r"[A-Za-z0-9_]+\.[ch]\b", comment))
    for stem in re.findall(r"([A-Za-z0-9_]+)\.h/\.c\b", comment):
        names |= {stem + ".h", stem + ".c"}
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
