"""Parity with orjson on every row of the benchmark set (bench/python/rows.py):
dumps byte for byte, loads equal (same types, same float bits, same key order).

The rows are the ones `make bench` times and `make bench-callgrind` counts, so
that no figure is ever measured on a result that differs from orjson's. The
big rows (a 256 MiB string, a document over 100 MiB) run a small instance of
the same generator (Row.small); the rows with options (OPT_INDENT_2, numpy,
sort keys, ...) are written with them, as the benchmark writes them.
"""

import os
import sys

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

from _util import REPO_DIR, check_dumps, check_loads, isojson

sys.path.insert(0, os.path.join(REPO_DIR, "bench", "python"))

import rows  # noqa: E402  (bench/python, after the path)

ROWS = [r for r in rows.ROWS]


def _option(module, row):
    value = 0
    for name in row.options:
        value |= getattr(module, name)
    return value or None


@pytest.fixture(scope="module")
def instances():
    cache = {}

    def get(row):
        if row.name not in cache:
            cache[row.name] = row.instance(row.small)
        return cache[row.name]
    return get


@pytest.mark.parametrize("row", [r for r in ROWS if rows.DUMPS in r.ops and not r.per_module], ids=lambda r: r.name)
def test_dumps_matches_orjson(row, instances):
    problem = check_dumps(instances(row).obj, option=_option(orjson, row), default=row.default)
    assert problem is None, f"{row.name}: {problem}"


@pytest.mark.parametrize("row", [r for r in ROWS if r.per_module], ids=lambda r: r.name)
def test_dumps_of_module_types_matches_orjson(row):
    # Each library's own types (its Fragment): the same bytes from each.
    got = isojson.dumps(row.build(isojson), option=_option(isojson, row), default=row.default)
    assert got == orjson.dumps(row.build(orjson), option=_option(orjson, row), default=row.default)


@pytest.mark.parametrize("row", [r for r in ROWS if rows.LOADS in r.ops], ids=lambda r: r.name)
def test_loads_matches_orjson(row, instances):
    inst = instances(row)
    problem = check_loads(inst.data)
    assert problem is None, f"{row.name}: {problem}"
    # And loads gives back the row's own object: the text is the row's value.
    assert orjson.loads(inst.data) == inst.obj


@pytest.mark.parametrize("row", [r for r in ROWS if rows.LOADS in r.ops and rows.DUMPS in r.ops
                                 and not r.options], ids=lambda r: r.name)
def test_round_trip_gives_orjson_bytes(row, instances):
    inst = instances(row)
    assert isojson.dumps(isojson.loads(inst.data)) == orjson.dumps(orjson.loads(inst.data))
