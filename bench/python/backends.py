"""Python loads() per isojson backend, against orjson.

isojson reads ISOJSON_BACKEND once per process, so each backend is measured
in a fresh child process (`python backends.py <name>`), which checks that
isojson really uses that backend, checks its results against orjson's and
prints its timings as JSON on stdout.
"""

import json
import sys

import libraries
import percall


def run(names, repeats: int, sample_seconds: float, clock: str = "cpu", log=print) -> dict:
    """{backend: {"backend": name in use, "timings": [...], "problems": {doc: [...]}}}
    or {backend: {"error": message}} for a backend that failed."""
    return libraries.run_per_choice(__file__, "ISOJSON_BACKEND", names, [str(repeats), str(sample_seconds), clock],
                                    log=log)


def _child(name: str, repeats: int, sample_seconds: float, clock: str) -> None:
    iso, ref = libraries.load("isojson"), libraries.load("orjson")
    in_use = libraries.isojson_backend()
    if in_use != name:
        sys.exit(f"ISOJSON_BACKEND={name} but isojson.backend is {in_use!r}")
    timings, problems = [], {}
    for doc in percall.CORPUS:
        data = percall.read_corpus(doc)
        problems[doc] = percall.check_isojson(iso, ref, data)
        for t in percall.measure("loads", doc, [iso, ref], data, None, repeats, sample_seconds,
                                   clock).values():
            timings.append({"doc": doc, "library": t.library, "number": t.number, "samples": t.samples})
    json.dump({"backend": in_use, "timings": timings, "problems": problems}, sys.stdout)


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
