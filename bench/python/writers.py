"""Python dumps() per isojson writer, against orjson: the writers compared
as backends.py compares the parsers.

isojson reads ISOJSON_WRITER once per process (when it loads its engine), so
each writer is measured in a fresh child process (`python writers.py <name>
...`), which checks that isojson really uses that writer, checks every output
against orjson's byte for byte and prints its timings as JSON on stdout.

The rows are those of the benchmark set (rows.py) whose bytes the writer
writes: the corpus, and a sample of the rest where the writer's own paths
differ (floats, integers, non-ASCII text, escapes, indentation, records).
The Python types rows are left out: the extension writes most of their bytes
(datetime, UUID, numpy...) before any writer sees them.

Results ("writers" in bench/results/writers.json):

    {writer: {"writer": name in use, "rows": [{"row", "bytes", "timings":
     {library: {"number", "samples"}}, "problems": [...]}]}}
    or {writer: {"error": message}} for a writer that failed.
"""

import json
import sys

import libraries
import percall
import rows

ROWS = ("api/user-200B", "records/everyday-100", "list/int64-10000", "list/floats-10000", "text/ascii",
        "text/cyrillic", "text/cjk", "text/emoji", "text/escaped", "pretty/indent-2",
        *(f"corpus/{d}" for d in percall.CORPUS))


def selected(pattern: str | None) -> tuple[str, ...]:
    """The writers' rows whose name matches `pattern` (all when None)."""
    chosen = {r.name for r in rows.select(pattern)}
    return tuple(name for name in ROWS if name in chosen)


def isojson_writers() -> tuple[str, ...]:
    """The writers compiled into isojson (empty for a stand-in)."""
    if libraries.isojson_module_name() != "isojson":
        return ()
    import isojson

    return tuple(getattr(isojson, "writers", ()))


def run(names, row_names, repeats: int, sample_seconds: float, clock: str = "cpu", log=print) -> dict:
    """Measures every writer in `names` on `row_names` (see the module
    docstring for what it returns)."""
    return libraries.run_per_choice(__file__, "ISOJSON_WRITER", names,
                                    [",".join(row_names), str(repeats), str(sample_seconds), clock],
                                    log=log, timeout=900)


def measure_row(row: rows.Row, iso, ref, repeats: int, sample_seconds: float, clock: str) -> dict:
    """One row's dumps by isojson and orjson, interleaved, with isojson's
    bytes checked against orjson's."""
    inst = row.instance()
    calls, problems, size = {}, [], 0
    for lib in (ref, iso):
        c = rows.call(row, rows.DUMPS, lib, inst)
        out = c()  # the warm-up call: first-use caches, the lazy engine load
        if lib is ref:
            size, want = len(out), out
        elif out != want:
            problems.append("dumps bytes differ from orjson")
        calls[lib.name] = (c.fn, c.arg, c.kwargs)
    timings = {name: {"number": n, "samples": samples}
               for name, (n, samples) in percall.measure_calls(calls, repeats, sample_seconds, clock).items()}
    return {"row": row.name, "bytes": size, "timings": timings, "problems": problems}


def _child(name: str, row_names: list[str], repeats: int, sample_seconds: float, clock: str) -> None:
    iso, ref = libraries.load("isojson"), libraries.load("orjson")
    import isojson

    in_use = isojson.writer
    if in_use != name:
        sys.exit(f"ISOJSON_WRITER={name} but isojson.writer is {in_use!r}")
    measured = [measure_row(rows.BY_NAME[r], iso, ref, repeats, sample_seconds, clock) for r in row_names]
    json.dump({"writer": in_use, "rows": measured}, sys.stdout)


if __name__ == "__main__":
    _child(sys.argv[1], [r for r in sys.argv[2].split(",") if r], int(sys.argv[3]), float(sys.argv[4]),
           sys.argv[5])
