"""Tests of the benchmark machinery itself (not of isojson's speed):

    scripts/py -m pytest -q bench/python

They use the standard library's json where a library is needed, so they pass
before isojson builds; the isojson-specific checks skip until it imports.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import libraries  # noqa: E402
import parallel  # noqa: E402
import percall  # noqa: E402
import report  # noqa: E402
import workload  # noqa: E402


def test_document_bytes_are_orjson_bytes():
    orjson = pytest.importorskip("orjson")
    doc = workload.make_document(100)
    assert orjson.dumps(doc) == workload.document_bytes(100)
    assert orjson.loads(workload.document_bytes(100)) == doc


def test_every_library_round_trips_the_document():
    doc = workload.make_document(10)
    for name in ("orjson", "json", "ujson", "msgspec", "rapidjson"):
        try:
            lib = libraries.load(name)
        except ImportError:
            continue
        out = lib.dumps(doc)
        assert isinstance(out, bytes), name
        assert lib.loads(out) == doc, name


@pytest.mark.parametrize("mode", [parallel.THREADS, parallel.SUBINTERPRETERS])
def test_measure_counts_checked_round_trips(mode):
    run = parallel.measure("json", mode, 2, 0.05)
    assert len(run.calls) == 2 and all(c > 0 for c in run.calls)
    assert run.errors == 0
    assert run.rate == run.total / 0.05


def test_measure_loads_kind():
    run = parallel.measure("json", parallel.THREADS, 1, 0.05, workload.LOADS, percall.corpus_path("github"))
    assert run.calls[0] > 0 and run.errors == 0


def test_measure_reports_import_error_in_subinterpreter():
    pytest.importorskip("orjson")
    with pytest.raises(parallel.WorkerFailed, match="ImportError.*subinterpreters"):
        parallel.measure("orjson", parallel.SUBINTERPRETERS, 1, 0.05)


def test_worker_reports_wrong_results():
    class Broken:  # a library whose dumps changes after the checks: the loop must count it
        calls = 0

    import queue

    def loads(b):
        return libraries.load("json").loads(b)

    def dumps(o):
        Broken.calls += 1
        out = libraries.load("json").dumps(o)
        return out if Broken.calls <= 1 else out + b" "

    fake = libraries.Library("fake", "fake", "0", loads, dumps, "")
    orig = libraries.load
    libraries.load = lambda name: fake if name == "fake" else orig(name)
    try:
        ready, start, results = queue.Queue(), queue.Queue(), queue.Queue()
        import time

        t0 = time.perf_counter()
        start.put((t0, t0 + 0.02))
        workload.run_worker("fake", workload.ROUNDTRIP, 0, 5, ready, start, results)
    finally:
        libraries.load = orig
    assert ready.get() == (0, "ok")
    wid, calls, errors, problem = results.get()
    assert calls > 0 and errors == calls and problem == ""


def test_percall_measure_interleaves_and_times():
    lib = libraries.load("json")
    t = percall.measure("loads", "tiny", [lib], b'{"a":[1,2,3]}', None, repeats=3, sample_seconds=0.002)
    assert len(t["json"].samples) == 3
    assert 0 < t["json"].min_us <= t["json"].median_us


def _results():
    per = []
    for lib, us in (("isojson", 50.0), ("orjson", 100.0), ("json", 400.0)):
        per.append({"op": "loads", "doc": "github", "library": lib, "number": 1, "min_us": us, "median_us": us * 1.1})
    par = [{"library": lib, "mode": mode, "workers": n, "rate": rate * n, "errors": 0}
           for lib, mode, rate in (("isojson", "subinterpreters", 1000.0), ("orjson", "threads", 900.0))
           for n in (1, 2, 4)]
    par.append({"library": "json", "mode": "subinterpreters", "workers": 1, "rate": 0, "error": "boom"})
    return {"machine": {"cpu": "Test CPU", "cores": 2, "machine": "x86_64", "os": "Linux", "python": "CPython 3.14",
                        "versions": {"isojson": "0.1", "orjson": "3.13.0"}, "isojson_backend": "scalar",
                        "isojson_backends": ["scalar"], "date": "2026-11-29 00:00 UTC"},
            "settings": {"repeats": 3, "rounds": 1, "duration": 1.0}, "libraries": ["isojson", "orjson", "json"],
            "percall": per, "parallel": par, "parallel_doc": {"records": 100, "bytes": 40000}}


def test_percall_table_ratios():
    lines = report.percall_table(_results(), "loads")
    assert lines[0].startswith("| library | github")
    assert "| **isojson** | 50.0 / 55.0 (0.50×) |" in lines
    assert "| json | 400 / 440 (4.00×) |" in lines


def test_parallel_table_and_failures():
    text = "\n".join(report.parallel_table(_results()))
    assert "| **isojson** | own-GIL sub-interpreters | 1,000 | 2,000 | 4,000 | 4.00× |" in text
    assert "failed: boom" in text


def test_markdown_mentions_machine():
    md = report.markdown(_results())
    assert "Test CPU (2 cores" in md and "orjson 3.13.0" in md


def test_rewrite_readme(tmp_path):
    p = tmp_path / "README.md"
    p.write_text(f"intro\n{report.README_BEGIN}\nold\n{report.README_END}\noutro\n", encoding="utf-8")
    assert report.rewrite_readme(str(p), "new table\n")
    assert p.read_text(encoding="utf-8") == f"intro\n{report.README_BEGIN}\nnew table\n{report.README_END}\noutro\n"
    q = tmp_path / "OTHER.md"
    q.write_text("no markers\n", encoding="utf-8")
    assert not report.rewrite_readme(str(q), "x")
    assert q.read_text(encoding="utf-8") == "no markers\n"
    assert not report.rewrite_readme(str(tmp_path / "missing.md"), "x")


def test_pool_runs_two_libraries_in_the_same_subinterpreters():
    with parallel.SubinterpreterPool(2) as pool:
        ids = [i.id for i in pool.interps]
        for lib in ("json", "json"):
            run = parallel.measure(lib, parallel.SUBINTERPRETERS, 2, 0.05, pool=pool)
            assert run.errors == 0 and all(c > 0 for c in run.calls)
        assert [i.id for i in pool.interps] == ids


def test_merge_replaces_only_the_parts_measured(tmp_path):
    import json

    import run_all

    base = _results()
    p = tmp_path / "python.json"
    p.write_text(json.dumps(base), encoding="utf-8")
    new = {"machine": dict(base["machine"], date="later", load_average=0.5), "settings": {"rounds": 9},
           "load_average_end": 0.7, "parallel": [], "parallel_doc": {"records": 100, "bytes": 1},
           "percall": ["must not be taken"]}
    out = run_all.merged(str(p), new, ["parallel"])
    assert out["parallel"] == [] and out["percall"] == base["percall"]
    assert out["remeasured"][0]["parts"] == ["parallel"] and out["remeasured"][0]["date"] == "later"
    assert "Re-measured on later: parallel (load average 0.5 to 0.7)." in report.markdown(out)
