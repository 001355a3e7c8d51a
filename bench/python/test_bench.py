"""Tests of the benchmark machinery itself (not of isojson's speed):

    scripts/py -m pytest -q bench/python

They use the standard library's json where a library is needed, so they pass
before isojson builds; the isojson-specific checks skip until it imports.
"""

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import benchset  # noqa: E402
import callgrind  # noqa: E402
import firstcall  # noqa: E402
import libraries  # noqa: E402
import parallel  # noqa: E402
import percall  # noqa: E402
import report  # noqa: E402
import rows  # noqa: E402
import workload  # noqa: E402
import writers  # noqa: E402


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


def _entry(row, op, times, unsupported=None, problems=None, nbytes=1000):
    return {"row": row, "group": row.split("/")[0], "op": op, "about": "", "bytes": nbytes,
            "timings": {lib: {"number": 1, "min_us": us, "median_us": us * 1.1, "samples_us": [us, us * 1.2]}
                        for lib, us in times.items()},
            "unsupported": unsupported or {}, "problems": problems or []}


def _results():
    per = [_entry("corpus/github", "loads", {"isojson": 50.0, "orjson": 100.0, "json": 400.0}),
           _entry("fixed/null", "dumps", {"isojson": 0.15, "orjson": 0.05, "msgspec": 0.025, "json": 1.0}, nbytes=4),
           _entry("fixed/null", "loads", {"isojson": 0.08, "orjson": 0.1, "msgspec": 0.02, "json": 0.9}, nbytes=4),
           _entry("types/numpy", "dumps", {"isojson": 90.0, "orjson": 100.0},
                  unsupported={"msgspec": "TypeError: numpy", "json": "TypeError: numpy"},
                  problems=["dumps bytes differ from orjson"])]
    par = [{"library": lib, "mode": mode, "workers": n, "rate": rate * n, "errors": 0}
           for lib, mode, rate in (("isojson", "subinterpreters", 1000.0), ("orjson", "threads", 900.0))
           for n in (1, 2, 4)]
    par.append({"library": "json", "mode": "subinterpreters", "workers": 1, "rate": 0, "error": "boom"})
    return {"machine": {"cpu": "Test CPU", "cores": 2, "machine": "x86_64", "os": "Linux", "python": "CPython 3.14",
                        "versions": {"isojson": "0.1", "orjson": "3.13.0"}, "isojson_backend": "scalar",
                        "isojson_backends": ["scalar"], "date": "2026-11-29 00:00 UTC"},
            "settings": {"repeats": 3, "rounds": 1, "duration": 1.0, "big_repeats": 1},
            "libraries": ["isojson", "orjson", "msgspec", "json"],
            "rows": per, "parallel": par, "parallel_doc": {"records": 100, "bytes": 40000},
            "firstcall": [{"library": "isojson", "runs": 2, "import_ms": {"min": 1.0, "median": 1.1},
                           "dumps_ms": {"min": 30.0, "median": 31.0}, "loads_ms": {"min": 0.5, "median": 0.6},
                           "dumps_later_ms": {"min": 0.4, "median": 0.45},
                           "loads_later_ms": {"min": 0.3, "median": 0.35},
                           "cpu_ms": {"min": 40.0, "median": 41.0}, "rss_mb": {"min": 20.0, "median": 20.5},
                           "rss_added_mb": {"min": 11.0, "median": 11.2}, "threads": {"min": 5, "median": 5}},
                          {"library": "orjson", "error": "boom"}]}


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
           "rows": ["must not be taken"]}
    out = run_all.merged(str(p), new, ["parallel"])
    assert out["parallel"] == [] and out["rows"] == base["rows"]
    assert out["remeasured"][0]["parts"] == ["parallel"] and out["remeasured"][0]["date"] == "later"
    assert "Re-measured on later: parallel (load average 0.5 to 0.7)." in report.markdown(out)


# ---- the benchmark set (rows.py) ---------------------------------------------------------------------------

def test_row_names_are_unique_and_grouped():
    names = [r.name for r in rows.ROWS]
    assert len(names) == len(set(names))
    assert {r.group for r in rows.ROWS} <= set(report.GROUP_TITLES)
    for r in rows.ROWS:
        assert r.ops and set(r.ops) <= {rows.LOADS, rows.DUMPS}, r.name
        assert not r.big or r.small, f"{r.name}: a big row needs a small instance"
    assert rows.select("^fixed/") == [r for r in rows.ROWS if r.group == "fixed"]
    assert rows.select(None) == list(rows.ROWS)


def test_the_set_has_what_the_issue_lists():
    names = set(rows.BY_NAME)
    for want in ("fixed/null", "fixed/[]", "fixed/{}", 'fixed/{"a":1}', "records/everyday-100",
                 "list/small-ints-20000", "list/bools-nulls-20000", "list/floats-10000", "text/cafe-1000",
                 "big/str-1MiB", "big/str-256MiB", "big/doc-100MiB", "pretty/comma-space-newline",
                 "corpus/twitter", "corpus/citm_catalog", "corpus/canada", "corpus/github"):
        assert want in names, want
    for script in ("ascii", "latin-1", "cyrillic", "greek", "cjk", "emoji", "escaped"):
        assert f"text/{script}" in names
    assert {"pretty/indent-2", "pretty/indent-4", "pretty/tabs"} <= names
    assert any(n.startswith("types/uuid") for n in names) and any(n.startswith("types/dataclass") for n in names)


def _cheap_rows():
    # Everything but the corpus and the types (read or built elsewhere), big rows small.
    return [r for r in rows.ROWS if r.group not in ("corpus", "types")]


def test_generators_are_deterministic_and_valid_json():
    for r in _cheap_rows():
        a, b = r.instance(r.small), r.instance(r.small)
        assert a.data == b.data, r.name
        assert json.loads(a.data) == a.obj, r.name


def test_api_messages_are_50_bytes_to_2_kib():
    sizes = {r.name: len(r.instance().data) for r in rows.ROWS if r.group == "api"}
    assert len(sizes) >= 4
    assert all(50 <= n <= 2048 for n in sizes.values()), sizes
    assert min(sizes.values()) < 100 and max(sizes.values()) > 1024, sizes


def test_text_rows_are_in_their_script():
    ranges = {"cyrillic": (0x400, 0x4FF), "greek": (0x370, 0x3FF), "cjk": (0x3000, 0x9FFF),
              "emoji": (0x1F300, 0x1F64F)}
    for script, (lo, hi) in ranges.items():
        text = "".join(rows.BY_NAME[f"text/{script}"].instance().obj)
        letters = [c for c in text if c != " "]
        assert sum(lo <= ord(c) <= hi for c in letters) / len(letters) > 0.9, script
    assert all(c.isascii() for c in "".join(rows.BY_NAME["text/ascii"].instance().obj))
    latin = "".join(rows.BY_NAME["text/latin-1"].instance().obj)
    assert all(ord(c) < 256 or c == "œ" for c in latin) and any(ord(c) > 127 for c in latin)
    escaped = "".join(rows.BY_NAME["text/escaped"].instance().obj)
    assert {'"', "\\", "\n", "\x00"} <= set(escaped)
    u = rows.BY_NAME["text/u-escapes"].instance()
    assert u.data.isascii() and b"\\u04" in u.data and b"\\ud83d" in u.data
    assert rows.BY_NAME["text/cafe-1000"].instance().obj[:2] == ["café0", "café1"]


def test_pretty_rows_indent_as_named():
    texts = {r.name: r.instance().data for r in rows.ROWS if r.group == "pretty"}
    assert b'\n  "version"' in texts["pretty/indent-2"]
    assert b'\n    "version"' in texts["pretty/indent-4"]
    assert b'\n\t"version"' in texts["pretty/tabs"]
    assert b'", \n' in texts["pretty/comma-space-newline"] and b" \n" not in texts["pretty/indent-2"]
    base = rows.BY_NAME["records/everyday-100"].instance().obj
    assert all(json.loads(t) == base for t in texts.values())


def test_big_rows_take_a_size():
    s = rows.BY_NAME["big/str-256MiB"].instance(100_000)
    assert len(s.obj) == 100_000 and s.obj.isascii() and s.data == b'"' + s.obj.encode() + b'"'
    assert rows.BY_NAME["big/str-256MiB"].size == 256 << 20 and rows.BY_NAME["big/str-1MiB"].size == 1 << 20
    d = rows.BY_NAME["big/doc-100MiB"].instance(200_000)
    assert 200_000 <= len(d.data) < 240_000
    assert rows.BY_NAME["big/doc-100MiB"].size >= 100 << 20


def test_call_gives_each_library_its_way():
    js = libraries.load("json")
    inst = rows.BY_NAME["pretty/indent-2"].instance()
    c = rows.call(rows.BY_NAME["pretty/indent-2"], rows.DUMPS, js, inst)
    assert json.loads(c()) == inst.obj and c().startswith(b'{\n  "')
    with pytest.raises(rows.Unsupported):
        rows.call(rows.BY_NAME["pretty/tabs"], rows.DUMPS, js, rows.BY_NAME["pretty/tabs"].instance())
    numpy_row = next(r for r in rows.ROWS if r.name.startswith("types/numpy"))
    with pytest.raises(rows.Unsupported):
        rows.call(numpy_row, rows.DUMPS, js, rows.Instance(None, None))
    orjson = pytest.importorskip("orjson")
    o = libraries.load("orjson")
    c = rows.call(rows.BY_NAME["pretty/indent-2"], rows.DUMPS, o, inst)
    assert c.kwargs == {"option": orjson.OPT_INDENT_2} and c() == orjson.dumps(inst.obj, option=orjson.OPT_INDENT_2)


def test_measure_row_times_checks_and_notes():
    js = libraries.load("json")
    broken = libraries.Library("isojson", "broken", "0", js.loads, lambda o: js.dumps(o) + b" ", "")
    ref = libraries.Library("orjson", "json", "0", js.loads, js.dumps, "")
    row = rows.BY_NAME["api/user-200B"]
    settings = {"repeats": 2, "sample_seconds": 0.001, "big_repeats": 1, "clock": "cpu"}
    e = benchset.measure_row(row, rows.DUMPS, [broken, ref], row.instance(), settings)
    assert e["problems"] == ["dumps bytes differ from orjson"] and e["bytes"] == len(js.dumps(row.instance().obj))
    assert set(e["timings"]) == {"isojson", "orjson"} and len(e["timings"]["orjson"]["samples_us"]) == 2
    e = benchset.measure_row(row, rows.LOADS, [broken, ref], row.instance(), settings)
    assert e["problems"] == [] and e["unsupported"] == {}
    tabs = rows.BY_NAME["pretty/tabs"]
    e = benchset.measure_row(tabs, rows.LOADS, [ref], tabs.instance(), settings)
    assert e["timings"]["orjson"]["min_us"] > 0


def test_set_tables_summary_and_readme():
    res = _results()
    md = report.markdown(res)
    assert "| `fixed/null` | dumps | 4 B | 0.15 | 0.05 | 0.03 | 1.00 | **3.00×** | 0.50× |" in md
    assert "| `types/numpy` ⚠ | dumps | 1000 B | 90.0 | 100 | – | – | 0.90× | – |" in md
    assert "- msgspec: TypeError: numpy (`types/numpy` dumps)" in md
    assert "![ratio to orjson per row](rows.png)" in md
    assert "### Fixed costs" in md and "### Python types" in md
    summary = "\n".join(report.set_summary(res))
    assert "`loads`: isojson is at or below orjson's time on 2 of 2 rows" in summary
    assert "`dumps`: isojson is at or below orjson's time on 1 of 2 rows" in summary
    assert "Furthest behind: `fixed/null` 3.00×" in summary
    assert "**isojson differs from orjson on:** `types/numpy` dumps" in summary
    readme = report.readme_section(res)
    assert "bench/results/rows.png" in readme and "| **isojson** | 50.0 (0.50×) |" in readme
    assert "| **isojson** | 1.00 | 30.00 | 0.50 | 0.40 | 0.30 | 11.2 | 20.5 | 5 |" in readme
    assert "| orjson | failed: boom |" in readme


def test_rows_chart_is_written(tmp_path):
    import charts

    charts.rows(_results(), str(tmp_path / "rows.png"))
    assert (tmp_path / "rows.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_firstcall_child_reports_in_a_fresh_process():
    out = firstcall.run(("json",), runs=1, log=lambda _: None)
    assert out[0]["library"] == "json" and out[0]["runs"] == 1
    assert out[0]["threads"]["min"] >= 1 and out[0]["rss_mb"]["min"] > 1
    bad = firstcall.run(("no-such-library",), runs=1, log=lambda _: None)
    assert "error" in bad[0]


# ---- writers.py: dumps per writer --------------------------------------------------------------------------

def test_writer_rows_are_dumps_rows_of_the_set():
    assert len(set(writers.ROWS)) == len(writers.ROWS)
    for name in writers.ROWS:
        assert rows.DUMPS in rows.BY_NAME[name].ops, name
    assert writers.selected(None) == writers.ROWS
    assert writers.selected("^corpus/") == tuple(f"corpus/{d}" for d in percall.CORPUS)
    assert writers.selected("^fixed/") == ()


def test_writer_measure_row_checks_bytes():
    js = libraries.load("json")
    broken = libraries.Library("isojson", "broken", "0", js.loads, lambda o: js.dumps(o) + b" ", "")
    ref = libraries.Library("orjson", "json", "0", js.loads, js.dumps, "")
    row = rows.BY_NAME["api/user-200B"]
    e = writers.measure_row(row, broken, ref, 2, 0.001, "cpu")
    assert e["problems"] == ["dumps bytes differ from orjson"] and e["bytes"] == len(js.dumps(row.instance().obj))
    assert set(e["timings"]) == {"isojson", "orjson"} and len(e["timings"]["isojson"]["samples"]) == 2
    assert writers.measure_row(row, ref, ref, 1, 0.001, "cpu")["problems"] == []


def _writer_results():
    def entry(row, iso, ref, problems=()):
        return {"row": row, "bytes": 2048, "problems": list(problems),
                "timings": {"isojson": {"number": 1, "samples": [iso, iso * 2]},
                            "orjson": {"number": 1, "samples": [ref * 3, ref]}}}

    base = _results()
    return {"machine": base["machine"], "settings": {"repeats": 2, "clock": "cpu"},
            "writers": {"fast": {"writer": "fast", "rows": [entry("corpus/github", 30e-6, 30e-6),
                                                            entry("text/cjk", 25e-6, 12.5e-6)]},
                        "reference": {"writer": "reference", "rows": [entry("corpus/github", 360e-6, 30e-6,
                                                                            ["dumps bytes differ from orjson"])]},
                        "other": {"error": "ISOJSON_WRITER=other but isojson.writer is 'fast'"}}}


def test_writers_table_and_markdown():
    md = report.writers_markdown(_writer_results())
    assert "| dumps, µs per call (×orjson) | size | isojson `fast` | isojson `reference` | orjson |" in md
    assert "| `corpus/github` | 2.0 KiB | 30.0 (1.00×) | 360 (12.00×) ⚠ differs | 30.0 |" in md
    assert "| `text/cjk` | 2.0 KiB | 25.0 (2.00×) | – | 12.5 |" in md
    assert "- `other` failed: ISOJSON_WRITER=other but isojson.writer is 'fast'" in md
    assert "Test CPU (2 cores" in md


def test_writers_part_alone_writes_only_its_files(tmp_path):
    import run_all

    run_all.write_outputs(_writer_results(), str(tmp_path), None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["writers.json", "writers.md"]
    saved = json.loads((tmp_path / "writers.json").read_text(encoding="utf-8"))
    assert set(saved["writers"]) == {"fast", "reference", "other"}
    both = dict(_results(), writers=_writer_results()["writers"])
    run_all.write_outputs(both, str(tmp_path / "all"), None)
    assert "writers" not in json.loads((tmp_path / "all" / "python.json").read_text(encoding="utf-8"))
    assert (tmp_path / "all" / "writers.md").exists() and (tmp_path / "all" / "python.md").exists()


def test_each_writer_runs_in_its_own_process():
    pytest.importorskip("isojson")
    names = writers.isojson_writers()
    assert "fast" in names and "reference" in names
    out = writers.run(names + ("no-such-writer",), ("api/user-200B",), 1, 0.001, log=lambda _: None)
    for name in names:
        assert out[name]["writer"] == name
        assert [e["row"] for e in out[name]["rows"]] == ["api/user-200B"]
        assert out[name]["rows"][0]["problems"] == []
    assert "no-such-writer" in out["no-such-writer"]["error"]


# ---- callgrind.py: dumps, per call, tables ----------------------------------------------------------------

def _dump(path, name, total, yields=0):
    # The shape of callgrind 3.19's dump files: compressed names, a pace->yield call.
    path.write_text(
        "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 7\ncmd:  python3.14 x.py\npart: 3\n\n"
        f"desc: Trigger: Client Request: {name}\n\npositions: line\nevents: Ir\nsummary: {total}\n\n\n"
        "ob=(2) /lib/libc.so.6\nfl=(2) ???\nfn=(10) isojson_engine_pace\n0 40\n"
        "cfn=(11) isojson_engine_yield\n" + (f"calls={yields} 147 \n0 666\n" if yields else "calls=0 0\n0 0\n")
        + "fn=(12) other\n0 5\ncfn=(11)\n" + (f"calls={yields} 158 \n0 99999\n" if yields else "")
        + "fn=(10)\ncfn=(11)\n" + (f"calls={yields} 158 \n0 100\n" if yields else ""), encoding="utf-8")


def test_read_dumps_and_per_call(tmp_path):
    _dump(tmp_path / "cg.out.1-01", "B|fixed/null|dumps|0", 1_000)
    _dump(tmp_path / "cg.out.2-01", "C|fixed/null|dumps|0", 21_000, yields=2)
    _dump(tmp_path / "cg.out.3-01", "B|fixed/null|dumps|1", 900)
    _dump(tmp_path / "cg.out.4-01", "C|fixed/null|dumps|1", 20_400, yields=1)
    _dump(tmp_path / "cg.out.4-02", "C|fixed/null|dumps|1", 999_999)  # another thread: not counted
    (tmp_path / "cg.out").write_text("summary: 5\n", encoding="utf-8")
    counts = callgrind.read_dumps(str(tmp_path))
    assert counts == {"B|fixed/null|dumps|0": (1_000, 0), "C|fixed/null|dumps|0": (21_000, 2),
                      "B|fixed/null|dumps|1": (900, 0), "C|fixed/null|dumps|1": (20_400, 1)}
    # (row loop - least empty loop - yields x cost) / n
    assert callgrind.per_call(counts, "fixed/null|dumps", 10, per_yield=500) == [1_910.0, 1_900.0]
    assert callgrind.per_call(counts, "missing|dumps", 10) == []
    assert callgrind.self_costs(str(tmp_path / "cg.out.2-01")) == {"libc.so.6: isojson_engine_pace": 40,
                                                                    "libc.so.6: other": 5}
    assert callgrind.dump_paths(str(tmp_path))["C|fixed/null|dumps|1"].endswith("cg.out.4-01")
    (tmp_path / "cg.out.1-01").write_text((tmp_path / "cg.out.1-01").read_text().replace("0 40", "0 10"))
    assert callgrind.top_functions(str(tmp_path), "fixed/null|dumps", 10, 1) == (
        [("libc.so.6: isojson_engine_pace", 3.0)], {"libc": 3.0})
    assert callgrind.part_of("libisojson_engine.so: runtime.cgocallbackg") == "Go runtime and cgo crossing"
    assert callgrind.part_of("libisojson_engine.so: github.com/isojson/isojson/writer.(*Output).Write") == "Go engine"
    assert callgrind.part_of("_isojson.cpython-314-x86_64-linux-gnu.so: isojson_dumps") == "isojson extension (C)"
    assert callgrind.part_of("orjson.cpython-314-x86_64-linux-gnu.so: loads") == "orjson"
    got = callgrind.collect_rows([{"key": "fixed/null|dumps", "n": 10, "bytes": 4},
                                  {"key": "fixed/[]|loads", "unsupported": "no"}], counts)
    assert got[("fixed/null", "dumps")]["ir"] == 1_950.0 and got[("fixed/[]", "loads")] == {"unsupported": "no"}


def _cg_results():
    return {"settings": {"libraries": ["isojson", "orjson", "msgspec"], "repeats": 3, "full": False},
            "valgrind": "valgrind-3.19.0", "date": "2026-12-01 00:00 UTC",
            "rows": [{"row": "fixed/null", "op": "dumps", "bytes": 4, "ir": {"isojson": 1836.0, "orjson": 712.0,
                                                                            "msgspec": 258.0},
                      "spread": {"isojson": 0.001, "orjson": 0.0, "msgspec": 0.0}, "n": {}, "unsupported": {}},
                     {"row": "big/str-256MiB", "op": "loads", "bytes": 4 << 20,
                      "ir": {"isojson": 12_345_678.0, "orjson": 2.5e9}, "spread": {"isojson": 0.0},
                      "n": {}, "unsupported": {"msgspec": "x"}}],
            "floors": [{"floor": "cgo crossing", "about": "engine_calls", "ir": 640.1, "spread": 0.0}],
            "firstcall": [{"library": "isojson", "import": 2.39e6, "dumps": 9.79e6, "loads": 17.3e6}]}


def test_callgrind_tables(tmp_path):
    res = _cg_results()
    text = callgrind.markdown(res)
    assert "| `fixed/null` | dumps | 4 B | 1,836 | 712 | 258 | 2.58× | 0.36× | 0.1% |" in text
    assert "| `big/str-256MiB` | loads | 4.0 MiB | 12.3 M | 2.50 G | – | 0.00× | – | 0.0% |" in text
    assert "| cgo crossing | 640 | engine_calls |" in text
    assert "| isojson | 2.39 M | 9.79 M | 17.3 M |" in text
    before = _cg_results()
    before["rows"][0]["ir"]["isojson"] = 2000.0
    assert "| -8.2% | +0.0% | +0.0% |" in "\n".join(callgrind.rows_table(res, before))
    doc = tmp_path / "performance.md"
    doc.write_text("a\n<!-- callgrind-rows:begin -->\nold\n<!-- callgrind-rows:end -->\nb\n", encoding="utf-8")
    assert callgrind.rewrite_section(str(doc), "callgrind-rows", "new")
    assert doc.read_text(encoding="utf-8") == "a\n<!-- callgrind-rows:begin -->\nnew\n<!-- callgrind-rows:end -->\nb\n"
    assert not callgrind.rewrite_section(str(doc), "callgrind-floors", "x")


def test_callgrind_fresh_copy_has_no_cached_utf8():
    orjson = pytest.importorskip("orjson")
    text = rows.BY_NAME["text/cyrillic"].instance()
    obj = {"ключ": [text.obj[0], "ascii", 1, {"é": "€"}]}
    orjson.dumps(obj)  # CPython keeps the UTF-8 form of each non-ASCII str orjson wrote
    copy = callgrind.fresh_copy(obj)
    assert copy == obj
    (key,) = copy
    assert key is not next(iter(obj)) and copy[key][0] is not obj["ключ"][0]
    assert copy[key][1] is obj["ключ"][1]  # ASCII is UTF-8 already: kept
    # A str's size counts its cached UTF-8 form: the copy has none yet.
    assert sys.getsizeof(copy[key][0]) < sys.getsizeof(obj["ключ"][0])
    assert callgrind.wants_fresh(rows.BY_NAME["text/cyrillic"], rows.DUMPS, text.obj)
    assert not callgrind.wants_fresh(rows.BY_NAME["text/cyrillic"], rows.LOADS, text.obj)
    ascii_row = rows.BY_NAME["text/ascii"]
    assert not callgrind.wants_fresh(ascii_row, rows.DUMPS, ascii_row.instance().obj)
    assert not callgrind.wants_fresh(rows.BY_NAME["api/user-200B"], rows.DUMPS, {"é": 1})


def test_callgrind_loops_call_with_keywords():
    seen = []
    loop = callgrind._make_loop({"option": 1, "default": None}, "t")
    loop(lambda a, option, default: seen.append((a, option, default)), "x", 3, option=4, default=str)
    assert seen == [("x", 4, str)] * 3


def test_callgrind_plan_resumes_after_a_measurement():
    full = callgrind.plan("^fixed/", ["loads", "dumps"])
    assert [(r.name, ops) for r, ops in full][:2] == [("fixed/null", ["loads", "dumps"]), ("fixed/[]", ["loads", "dumps"])]
    rest = callgrind.plan("^fixed/", ["loads", "dumps"], resume_after="fixed/[]|loads")
    assert [(r.name, ops) for r, ops in rest] == [("fixed/[]", ["dumps"]), ("fixed/{}", ["loads", "dumps"]),
                                                  ('fixed/{"a":1}', ["loads", "dumps"])]
    assert [(r.name, ops) for r, ops in callgrind.plan("^fixed/null$", ["dumps"])] == [("fixed/null", ["dumps"])]


def _callgrind_results(path, date, irs):
    rows_ = [{"row": row, "op": op, "ir": {"isojson": ir}} for (row, op), ir in irs.items()]
    path.write_text(json.dumps({"date": date, "valgrind": "valgrind-3.19.0", "rows": rows_}))
    return str(path)


def test_ft_vs_gil_report_marks_rows_over_the_goal(tmp_path):
    import ft_vs_gil

    ft = _callgrind_results(tmp_path / "ft.json", "ft-date",
                            {("fixed/null", "loads"): 373, ("corpus/github", "dumps"): 367_500,
                             ("types/uuid-1000", "dumps"): 1_198_665, ("only/ft", "loads"): 5})
    gil = _callgrind_results(tmp_path / "gil.json", "gil-date",
                             {("fixed/null", "loads"): 330, ("corpus/github", "dumps"): 364_300,
                              ("types/uuid-1000", "dumps"): 984_386})
    text = ft_vs_gil.report(ft, gil)
    assert "3 rows; within 1.15× of the GIL build: 2." in text
    assert "| `fixed/null` | loads | 373 | 330 | 1.130× |" in text
    assert "| `corpus/github` | dumps | 367.5k | 364.3k | 1.009× |" in text
    assert "| `types/uuid-1000` | dumps | 1.20M | 984.4k | 1.218× ⚠ |" in text
    assert "only/ft" not in text and "ft-date" in text and "gil-date" in text



def test_free_threaded_report_sets_json_beside_isojson():
    import free_threaded

    def run(loads, jloads):
        return {"date": "d", "python": "3.14.7 x", "cores": 2, "load_before": 0.1, "load_after": 0.2,
                "gil_enabled": False, "per_call": {"a.json": {"loads": loads, "dumps": 1e-5}},
                "per_call_json": {"a.json": {"loads": jloads, "dumps": 4e-5}}}

    text = free_threaded.report(run(1.2e-5, 6e-5), run(1e-5, 4e-5))
    assert "| a.json | 12.0 | 10.0 | 1.20× | 1.50× | 10.0 | 10.0 | 1.00× | 1.00× |" in text
    old = run(1.2e-5, 6e-5)
    del old["per_call_json"]
    assert "| a.json | 12.0 | 10.0 | 1.20× | – |" in free_threaded.report(old, run(1e-5, 4e-5))
