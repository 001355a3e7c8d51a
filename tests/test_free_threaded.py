"""isojson on free-threaded CPython (3.14t): the GIL stays off, output is
orjson's, and threads that share objects with threads mutating them get
valid JSON, never a torn value, and never a crash.

The parity and stress tests run in the GIL build too (there the golden bytes
come from orjson in this process); the checks of the GIL's state only mean
something on 3.14t. See docs/free-threading.md for what each test guards.
"""

import json
import os
import random
import re
import subprocess
import sys
import sysconfig
import textwrap
import threading

import pytest

import _ft_golden
import isojson

FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
on_3_14t = pytest.mark.skipif(not FREE_THREADED, reason="checks the GIL's state on free-threaded CPython only")


def _run(code, *args, env=None, timeout=120):
    """Runs code in a child of this interpreter with warnings as errors."""
    return subprocess.run([sys.executable, "-W", "error", *args, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout, env=env)


# ---- the GIL ------------------------------------------------------------------------------------


@on_3_14t
def test_gil_stays_off_after_import_and_use():
    # -W error: the RuntimeWarning CPython gives when a module re-enables the GIL is an error.
    r = _run("""
        import sys
        assert not sys._is_gil_enabled(), "the GIL is on before the import"
        import isojson
        assert isojson.loads(isojson.dumps({"a": [1, 2.5, "é", None]})) == {"a": [1, 2.5, "é", None]}
        assert isojson.dumps(isojson.Fragment(b"[]"), option=isojson.OPT_INDENT_2) == b"[]"
        print("gil", sys._is_gil_enabled())
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "gil False"


@on_3_14t
def test_gil_off_in_this_process():
    # The suite itself imported isojson: the GIL must still be off here.
    assert isojson.dumps([1]) == b"[1]"
    assert sys._is_gil_enabled() is False


# ---- parity with orjson's bytes -----------------------------------------------------------------


@pytest.fixture(scope="module")
def golden():
    path = os.environ.get("ISOJSON_FT_GOLDEN")
    if path:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["golden"]
    try:
        import orjson
    except ImportError:
        pytest.fail("orjson cannot be imported here (it has no free-threaded build) and ISOJSON_FT_GOLDEN "
                    "names no golden file: run this through `make test-pyft`, which writes one with orjson "
                    "in the GIL build first (tests/_ft_golden.py)")
    return _ft_golden.golden(orjson)


def test_dumps_matches_orjson_golden(golden):
    bad = []
    for cid, doc, opt in _ft_golden.cases():
        want = golden[cid]
        if isinstance(want, dict):
            with pytest.raises(TypeError):
                isojson.dumps(doc, option=opt)
            continue
        got = isojson.dumps(doc, option=opt)
        if got != bytes.fromhex(want):
            bad.append((cid, got[:200], bytes.fromhex(want)[:200]))
    assert not bad, f"{len(bad)} cases differ from orjson, first: {bad[0]}"


def test_corpus_round_trip_matches_orjson_golden(golden):
    for name in _ft_golden.corpus_files():
        with open(os.path.join(_ft_golden.CORPUS_DIR, name), "rb") as f:
            data = f.read()
        assert isojson.dumps(isojson.loads(data)) == bytes.fromhex(golden[f"corpus:{name}"]), name


# ---- threads sharing objects that others mutate ------------------------------------------------

KEYS = [f"k{i}" for i in range(2000)]
# Every str value a mutator writes matches this; the initial values too.
VALUE_RE = re.compile(r"(init|m[0-9]+-[0-9]+)-[a-zé]*")


def _shared():
    return {
        "dict": {k: f"init-{'a' * (i % 40)}" for i, k in enumerate(KEYS)},
        "list": [f"init-{'b' * (i % 30)}" for i in range(2000)],
        "nested": {k: [f"init-c", i] for i, k in enumerate(KEYS[:300])},
        "buf": bytearray(json.dumps({"xs": [f"init-{'d' * (i % 20)}" for i in range(500)]}).encode()),
        # Short records and lists: the leaves dumps reads and writes inside their critical sections.
        "records": [_record(i, "init-e") for i in range(300)],
    }


RECORD_KEYS = ("id", "name", "tags", "none", "pair", "empty")


def _record(i, v):
    """A leaf dict (scalars, a tuple, an empty list) for even i; odd ones hold a list of tags too,
    written through the dict loop, the list itself as a leaf."""
    rec = {"id": i, "name": v, "none": None, "pair": (v, i), "empty": []}
    if i % 2:
        rec["tags"] = [v, i, None]
    return rec


def _mutate(shared, who, stop):
    """Replaces values and keys of the shared dicts and items of the shared list, appends and pops,
    rewrites the shared bytearray: every value written matches VALUE_RE."""
    r = random.Random(who)
    d, lst, nested, buf = shared["dict"], shared["list"], shared["nested"], shared["buf"]
    records = shared["records"]
    n = 0
    while not stop.is_set():
        n += 1
        v = f"m{who}-{n}-" + "é" * r.randrange(3) + "z" * r.randrange(60)
        k = KEYS[r.randrange(len(KEYS))]
        op = r.randrange(14)
        if op >= 10:
            rec = records[r.randrange(len(records))]
            if op == 10:
                rec["name"] = v
            elif op == 11:
                rec.pop(RECORD_KEYS[r.randrange(len(RECORD_KEYS))], None)
                rec["name"] = v
            elif op == 12:
                tags = rec.get("tags")
                if isinstance(tags, list):
                    tags.append(v)
                    if len(tags) > 12:
                        del tags[:6]
                rec["pair"] = (v, n)
            else:
                records[r.randrange(len(records))] = _record(n, v)
        elif op < 4:
            d[k] = v
        elif op == 4:
            d.pop(k, None)
        elif op == 5:
            try:
                lst[r.randrange(len(lst))] = v
            except IndexError:  # the other mutator shortened it meanwhile
                pass
        elif op == 6:
            lst.append(v)
            if len(lst) > 2100:
                del lst[:100]
        elif op == 7:
            nested[KEYS[r.randrange(300)]] = [v, n]
        elif op == 8:
            items = nested.get(KEYS[r.randrange(300)])
            if items is not None:
                items.append(v)
                if len(items) > 8:
                    items.pop(0)
        else:
            # Same length: the buffer stays exportable while a loads holds it.
            at = r.randrange(max(1, len(buf) - 4))
            buf[at:at + 4] = r.choice((b"zzzz", b"\xc3\xa9zz", b"\xff\xfezz", b'"]}"'))


def _check_value(v, where):
    assert isinstance(v, str) and VALUE_RE.fullmatch(v), f"torn or foreign value {v!r} in {where}"


def _check_shared(shared_out):
    d = json.loads(shared_out["dict"])
    assert set(d) <= set(KEYS)
    for v in d.values():
        _check_value(v, "dict")
    lst = json.loads(shared_out["list"])
    # Each of the 2 mutators appends, then trims 100 when the list is past 2100: a snapshot may
    # fall between the two (2102 at most), and both may trim at once (1902 at least).
    assert 1900 <= len(lst) <= 2102, len(lst)
    for v in lst:
        _check_value(v, "list")
    nested = json.loads(shared_out["nested"])
    for items in nested.values():
        assert isinstance(items, list)
        for v in items:
            assert isinstance(v, int) or _check_value(v, "nested") is None
    records = json.loads(shared_out["records"])
    assert len(records) == 300
    for rec in records:
        assert isinstance(rec, dict) and set(rec) <= set(RECORD_KEYS), rec
        assert isinstance(rec.get("id", 0), int) and rec.get("none") is None and rec.get("empty", []) == []
        if "name" in rec:
            _check_value(rec["name"], "records")
        for v in rec.get("tags", []) + rec.get("pair", []):
            assert v is None or isinstance(v, int) or _check_value(v, "records") is None


def _private(seed):
    """A seeded JSON-native document and its bytes, made before any thread starts."""
    doc = isojson.loads(isojson.dumps(_ft_golden.document(seed), option=isojson.OPT_NON_STR_KEYS))
    return doc, isojson.dumps(doc), isojson.dumps(doc, option=isojson.OPT_SORT_KEYS | isojson.OPT_INDENT_2)


def _worker(i, shared, rounds, errors):
    r = random.Random(1000 + i)
    mine = [_private(1000 + 8 * i + j) for j in range(4)]
    try:
        for _ in range(rounds):
            doc, plain, sorted_indent = mine[r.randrange(len(mine))]
            assert isojson.dumps(doc) == plain, f"worker {i}: its own document changed"
            assert isojson.dumps(doc, option=isojson.OPT_SORT_KEYS | isojson.OPT_INDENT_2) == sorted_indent
            assert isojson.loads(plain) == doc, f"worker {i}: loads of its own bytes"
            opt = r.choice((0, isojson.OPT_SORT_KEYS, isojson.OPT_INDENT_2))
            if r.randrange(2):
                out = {name: isojson.dumps(shared[name], option=opt) for name in ("dict", "list", "nested", "records")}
            else:
                # Inside a list of this thread's own: on 3.14t dumps takes its locked walk for a document
                # the calling thread made (pyshim/dumps/dumps_ft.h), over the shared containers too.
                mixed = json.loads(isojson.dumps([shared[name] for name in ("dict", "list", "nested", "records")],
                                                 option=opt & ~isojson.OPT_INDENT_2))
                out = dict(zip(("dict", "list", "nested", "records"), (json.dumps(v) for v in mixed)))
            _check_shared(out)
            try:
                got = isojson.loads(shared["buf"])
            except isojson.JSONDecodeError:
                pass
            else:
                # What was parsed is one state of the buffer: its strs are whole and valid.
                for v in got["xs"] if isinstance(got, dict) and isinstance(got.get("xs"), list) else ():
                    if isinstance(v, str):
                        v.encode("utf-8")
    except BaseException as e:  # reported by the main thread
        errors.append((i, repr(e)[:500]))


def _run_beside_mutators(mutate, mutators, work, workers, stop, errors):
    """Starts `mutators` threads of mutate(w) and `workers` of work(i), waits for the workers, then
    stops the mutators (stop): every thread must finish (one that does not is a deadlock) and no
    worker may have reported an error (errors)."""
    # Daemons: a thread left waiting for a lock fails the test instead of hanging the run at exit.
    muts = [threading.Thread(target=mutate, args=(w,), daemon=True) for w in range(mutators)]
    works = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(workers)]
    for t in muts + works:
        t.start()
    for t in works:
        t.join(timeout=300)
    stop.set()
    for t in muts:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in works + muts), "a thread did not finish: a deadlock?"
    assert not errors, errors[:3]


@pytest.mark.parametrize("workers", [2, 4, 8])
def test_threads_share_objects_that_others_mutate(workers):
    shared = _shared()
    stop = threading.Event()
    errors = []
    _run_beside_mutators(lambda w: _mutate(shared, w, stop), 2, lambda i: _worker(i, shared, 60, errors), workers,
                         stop, errors)
    if FREE_THREADED:
        assert sys._is_gil_enabled() is False


# ---- locks: none left held, whichever way a call ends --------------------------------------------


def _mutates_freely(objs, seconds=10):
    """Another thread changes each container in objs: it must not wait (a lock a dumps call left
    held would block it for good)."""
    done = threading.Event()

    def run():
        for o in objs:
            if isinstance(o, dict):
                o["__probe"] = 1
                del o["__probe"]
            else:
                o.append(1)
                o.pop()
        done.set()

    t = threading.Thread(target=run, daemon=True)  # a hung one fails the test, not the run
    t.start()
    t.join(timeout=seconds)
    assert done.is_set(), "a container stayed locked after dumps returned"


def test_containers_are_unlocked_after_every_way_out():
    """Each way a call ends (written whole, leaves included; a datetime after containers; an error
    inside; default= raising; the depth limit) leaves no container locked: another thread can
    change every one of them at once afterwards."""
    import datetime

    inner = {"a": [1, "x"], "b": []}
    shared = [inner, inner, (inner, "t")]  # one container met three times
    assert isojson.dumps(shared) == json.dumps([inner, inner, [inner, "t"]], separators=(",", ":")).encode()
    late = {"list": [1, 2, {"k": "v"}], "when": datetime.datetime(2026, 12, 2, 20, 0)}
    assert isojson.dumps(late) == b'{"list":[1,2,{"k":"v"}],"when":"2026-12-02T20:00:00"}'
    bad_key = {"ok": [1, 2], "x": {1: 2}}
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps(bad_key)
    holder = [{"a": [1]}, object()]

    def boom(o):
        raise ValueError("no")

    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps(holder, default=boom)
    circular = [[1, 2]]
    circular.append(circular)
    with pytest.raises(isojson.JSONEncodeError):
        isojson.dumps(circular)
    _mutates_freely([inner, inner["a"], inner["b"], shared, late, late["list"], late["list"][2], bad_key,
                     bad_key["ok"], bad_key["x"], holder, holder[0], holder[0]["a"], circular, circular[0]])


def _in_fresh_thread(fn):
    """Runs fn in a new thread and returns what it returned (or raises what it raised). On 3.14t a
    thread's dumps calls take snapshots for a while after a locked walk had to stop
    (pyshim/dumps/dumps_ft.h); a new thread starts with the locked walk. fn must make the document's
    root itself: the locked walk is taken for a document the calling thread made."""
    out = []

    def run():
        try:
            out.append((True, fn()))
        except BaseException as e:  # re-raised in the caller
            out.append((False, e))

    t = threading.Thread(target=run, daemon=True)  # a hung one fails the test, not the run
    t.start()
    t.join(timeout=120)
    assert out, "the thread did not finish"
    ok, value = out[0]
    if not ok:
        raise value
    return value


def _dumps_in_fresh_thread(obj):
    """isojson.dumps(obj) in a new thread, obj inside a list made there (the locked walk's case:
    a root of the calling thread's own), the list's brackets taken off."""
    out = _in_fresh_thread(lambda: isojson.dumps([obj]))
    assert out[:1] == b"[" and out[-1:] == b"]"
    return out[1:-1]


def test_locked_walk_unlocks_whichever_way_it_ends():
    """Each way the locked walk of 3.14t can end, each in a new thread so that the walk is tried
    first: written whole (leaves of numbers unlocked at once, leaves with strs held to the end), a
    leaf of numbers met twice, a dict met twice and a cycle (it stops and the call is redone), a
    type that runs code after containers, an error raised while it holds its locks, the depth
    limit with 254 lists locked, a big int, and a tape long enough to be written without the
    thread state (pinned and unlocked before). Then another thread changes every container."""
    import datetime
    import uuid

    nums = [1, 2.5, None, True]
    texts = {"name": "init-a", "tags": ["x", "é"], "pair": ("p", 1)}
    whole = {"nums": nums, "texts": texts, "rows": [{"id": i, "v": [i, i]} for i in range(20)], "e": []}
    assert _dumps_in_fresh_thread(whole) == json.dumps(
        whole, separators=(",", ":"), ensure_ascii=False).encode()
    twice = [nums, nums, {"a": nums}]
    assert _dumps_in_fresh_thread(twice) == b'[[1,2.5,null,true],[1,2.5,null,true],{"a":[1,2.5,null,true]}]'
    shared = {"k": "v", "more": [1, "s"]}
    dup = [shared, {"x": shared}]
    assert _dumps_in_fresh_thread(dup) == b'[{"k":"v","more":[1,"s"]},{"x":{"k":"v","more":[1,"s"]}}]'
    cycle = [[1, 2], {"a": "b"}]
    cycle.append(cycle)
    with pytest.raises(isojson.JSONEncodeError, match="Recursion limit reached"):
        _dumps_in_fresh_thread(cycle)
    late = {"list": [1, "two", {"k": "v"}], "id": uuid.UUID(int=5), "when": datetime.date(2026, 12, 4)}
    assert _dumps_in_fresh_thread(late) == (
        b'{"list":[1,"two",{"k":"v"}],"id":"00000000-0000-0000-0000-000000000005","when":"2026-12-04"}')
    bad_key = {"ok": ["a", 2], "x": {"y": [3, "z"], 1: 2}}
    with pytest.raises(isojson.JSONEncodeError, match="Dict key must be str"):
        _dumps_in_fresh_thread(bad_key)
    surrogate = {"ok": [1, "a"], "s": ["\ud800"]}
    with pytest.raises(isojson.JSONEncodeError):
        _dumps_in_fresh_thread(surrogate)
    deep = leaf = []
    for _ in range(300):
        leaf.append(["x", []])
        leaf = leaf[0][1]
    with pytest.raises(isojson.JSONEncodeError, match="Recursion limit reached"):
        _dumps_in_fresh_thread(deep)
    big = {"n": [2 ** 70, -(2 ** 80)], "s": ["t"]}
    assert _dumps_in_fresh_thread(big) == json.dumps(big, separators=(",", ":")).encode()
    long_doc = {"ints": list(range(70000)), "names": ["n%d" % i for i in range(100)]}
    assert json.loads(_dumps_in_fresh_thread(long_doc)) == long_doc
    chain = []
    node = deep
    while node:
        chain += [node, node[0], node[0][1]]
        node = node[0][1]
    _mutates_freely([nums, texts, texts["tags"], whole, whole["rows"], whole["rows"][3], whole["rows"][3]["v"],
                     whole["e"], twice, twice[2], shared, shared["more"], dup, dup[1], cycle, cycle[0], cycle[1],
                     late, late["list"], late["list"][2], bad_key, bad_key["ok"], bad_key["x"], bad_key["x"]["y"],
                     surrogate, surrogate["ok"], surrogate["s"], big, big["n"], big["s"], long_doc,
                     long_doc["ints"], long_doc["names"]] + chain)


def test_locked_walk_writes_datetimes_and_stops_before_python_tzinfo():
    """3.14t's locked walk writes datetime, date and time itself (naive, or aware with a
    datetime.timezone, whose utcoffset is C); a tzinfo of Python's ends it before its utcoffset
    runs. Here that utcoffset appends to the very list being dumped, which the walk holds
    locked: were it called there, the thread would wait for itself."""
    import datetime

    tz = datetime.timezone(datetime.timedelta(hours=-5, minutes=-30))

    def make():
        return {"when": [datetime.datetime(2026, 12, 4, 23, 0, 1, 5),
                         datetime.datetime(2026, 12, 4, 23, 0, tzinfo=datetime.timezone.utc),
                         datetime.datetime(2026, 12, 4, 23, 0, tzinfo=tz)],
                "d": [datetime.date(2026, 12, 4)], "t": (datetime.time(23, 0, 0, 123456),), "ids": ["a", 1]}

    want = (b'{"when":["2026-12-04T23:00:01.000005","2026-12-04T23:00:00+00:00","2026-12-04T23:00:00-05:30"],'
            b'"d":["2026-12-04"],"t":["23:00:00.123456"],"ids":["a",1]}')
    for _ in range(3):
        assert _in_fresh_thread(lambda: isojson.dumps(make())) == want
    assert _in_fresh_thread(lambda: isojson.dumps(make(), option=isojson.OPT_UTC_Z)) == want.replace(b"+00:00", b"Z")

    class Appending(datetime.tzinfo):
        def __init__(self, target):
            self.target = target

        def utcoffset(self, dt):
            self.target.append("late")
            return datetime.timedelta(hours=1)

    def hostile():
        box = ["x", [1, 2]]
        box.append(datetime.datetime(2026, 12, 4, tzinfo=Appending(box)))
        return isojson.dumps({"box": box}), box

    out, box = _in_fresh_thread(hostile)
    assert out == b'{"box":["x",[1,2],"2026-12-04T00:00:00+01:00"]}'
    assert box[3:] == ["late"]  # called once: by the walk with snapshots, not by the locked one
    _mutates_freely([box, box[1]])


def test_dumps_beside_threads_that_lock_two_containers_at_once():
    """Mutators that lock two containers at once (list.extend(list), dict.update(dict), slice
    assignment from a list: CPython's two-object critical sections) on the containers being dumped
    by other threads: the locked walk never waits for a lock while holding others, so nobody
    deadlocks, and every output is one of the states the containers pass through."""
    a = ["init-a"] * 8
    b = ["init-b"] * 8
    d1 = {f"k{i}": "init-c" for i in range(8)}
    d2 = {f"k{i}": "init-d" for i in range(8)}
    doc = {"a": a, "b": b, "d1": d1, "d2": d2, "both": [a, d1, b, d2]}
    keys = sorted(d1)
    stop = threading.Event()
    errors = []

    def mutate(who):
        r = random.Random(who)
        n = 0
        while not stop.is_set():
            n += 1
            op = r.randrange(4)
            if op == 0:
                a.extend(b)
                del a[8:]
            elif op == 1:
                b[:] = a
            elif op == 2:
                d1.update(d2)
            else:
                d2.update(d1)
                d2[f"k{r.randrange(8)}"] = f"m{who}-{n}"

    def dump(i):
        try:
            for _ in range(300):
                # A root of this thread's own, over the shared containers: the locked walk on 3.14t.
                out = json.loads(isojson.dumps({"doc": doc, "i": i}))["doc"]
                for name in ("a", "b"):
                    # a is 16 long between its extend and its del, and b then takes all of it.
                    assert len(out[name]) in (8, 16) and all(v.startswith("init-") for v in out[name]), out[name]
                for name in ("d1", "d2"):
                    assert sorted(out[name]) == keys, out[name]
                    assert all(re.fullmatch(r"init-[cd]|m[01]-[0-9]+", v) for v in out[name].values()), out[name]
        except BaseException as e:  # reported by the main thread
            errors.append((i, repr(e)[:500]))

    _run_beside_mutators(mutate, 2, dump, 3, stop, errors)
    _mutates_freely([a, b, d1, d2, doc, doc["both"]])


def test_walks_stopped_and_redone_while_others_mutate():
    """Documents that mix short records (leaves) with types that run code or take other paths (a
    date, a dict subclass, default=), dumped by 4 threads while 2 others mutate the records:
    valid JSON and whole values every time."""
    import datetime

    class Sub(dict):
        pass

    records = [{"id": i, "name": "init-a", "tags": ["init-b", i]} for i in range(200)]
    doc = {"records": records, "sub": Sub(x="init-c"), "when": datetime.date(2026, 12, 2), "obj": object()}
    stop = threading.Event()
    errors = []

    def mutate(who):
        r = random.Random(who)
        n = 0
        while not stop.is_set():
            n += 1
            rec = records[r.randrange(len(records))]
            v = f"m{who}-{n}-" + "z" * r.randrange(40)
            if n % 3 == 0:
                rec["tags"].append(v)
                if len(rec["tags"]) > 10:
                    del rec["tags"][:5]
            elif n % 3 == 1:
                rec["name"] = v
            else:
                records[r.randrange(len(records))] = {"id": n, "name": v, "tags": [v]}

    def dump(i):
        try:
            for _ in range(40):
                # In a list of this thread's own half the time: the locked walk (3.14t) is tried then.
                if i % 2:
                    out = json.loads(isojson.dumps([doc], default=lambda o: "init-obj"))[0]
                else:
                    out = json.loads(isojson.dumps(doc, default=lambda o: "init-obj"))
                assert out["when"] == "2026-12-02" and out["sub"] == {"x": "init-c"} and out["obj"] == "init-obj"
                assert len(out["records"]) == 200
                for rec in out["records"]:
                    _check_value(rec["name"], "records")
                    for t in rec["tags"]:
                        assert isinstance(t, int) or _check_value(t, "tags") is None
        except BaseException as e:  # reported by the main thread
            errors.append((i, repr(e)[:500]))

    _run_beside_mutators(mutate, 2, dump, 4, stop, errors)
    _mutates_freely([doc, records, doc["sub"]])


def test_threads_keep_their_own_key_caches():
    # loads' key cache is per thread on 3.14t: every thread gets equal keys, and a str key made in
    # one thread is not another's (their objects are their own), whatever order they run in.
    docs = [json.dumps([{f"key{j}": j for j in range(40)} for _ in range(50)]).encode() for _ in range(4)]
    want = json.loads(docs[0])
    results = [None] * 8

    def run(i):
        out = None
        for _ in range(40):
            out = isojson.loads(docs[i % 4])
            assert out == want
        results[i] = out

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert all(r == want for r in results)


def test_key_caches_outlive_no_thread_state():
    # On 3.14t each thread state has its own key cache and table of shapes, and the last pair found
    # is kept per OS thread beside the thread state it belongs to. Here one OS thread takes turns
    # between its own thread state and those of sub-interpreters, which end (their tables freed) and
    # whose successors often get the ended one's address: each must look its own tables up again.
    from concurrent import interpreters

    main_doc = json.dumps([{f"main{j}": j, "shared": [j]} for j in range(30)]).encode()
    main_want = json.loads(main_doc)
    errors = []

    def run():
        try:
            for i in range(6):
                assert isojson.loads(main_doc) == main_want
                # Back to back, with no loads of this thread state between them: each exec
                # runs in a thread state of its own, made for it and ended after it.
                for k in range(2):
                    interp = interpreters.create()
                    try:
                        for n in range(3):
                            interp.exec(textwrap.dedent(f"""
                                import json, isojson
                                doc = json.dumps([{{"s{i}_{k}_{n}_" + str(j): j, "shared": [j]}} for j in range(30)])
                                for _ in range(3):
                                    assert isojson.loads(doc) == json.loads(doc)
                            """))
                    finally:
                        interp.close()
                out = isojson.loads(main_doc)
                assert out == main_want
                assert all(type(k) is str for d in out for k in d)
        except BaseException as e:
            errors.append(repr(e)[:500])

    for _ in range(2):
        t = threading.Thread(target=run)
        t.start()
        t.join(timeout=300)
    assert not errors, errors[:3]


def test_types_looked_up_from_many_threads_at_once():
    # The cached types of dumps (datetime, UUID, Enum, dataclass marker) are filled by whichever
    # thread comes first: in a fresh interpreter, 8 threads race for them.
    r = _run("""
        import datetime, threading, uuid, enum, dataclasses, sys
        import isojson
        class E(enum.Enum):
            A = 1
        @dataclasses.dataclass
        class P:
            x: int
        doc = [datetime.datetime(2020, 1, 2, 3, 4, 5), uuid.UUID(int=7), E.A, P(3), datetime.date(2021, 2, 3)]
        want = b'["2020-01-02T03:04:05","00000000-0000-0000-0000-000000000007",1,{"x":3},"2021-02-03"]'
        barrier = threading.Barrier(8)
        bad = []
        def run():
            barrier.wait()
            for _ in range(200):
                if isojson.dumps(doc) != want:
                    bad.append(isojson.dumps(doc))
        ts = [threading.Thread(target=run) for _ in range(8)]
        for t in ts: t.start()
        for t in ts: t.join()
        print(len(bad), getattr(sys, "_is_gil_enabled", lambda: True)())
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "0"
    if FREE_THREADED:
        assert r.stdout.split()[1] == "False"


def test_uuid_ints_replaced_while_others_dump():
    # dumps reads UUID.int from its slot (PyMember_GetOne on 3.14t) while the class is unchanged: two
    # threads store other ints into shared UUIDs and put a property on the class and take it off,
    # while two others dump them; every UUID written must be one of the values it held.
    r = _run("""
        import threading, uuid, sys
        import isojson
        vals = [0, (1 << 128) - 1, 12345, 1 << 127, 7]
        shared = [uuid.UUID(int=i) for i in range(64)]
        ok = {b'"%s"' % str(uuid.UUID(int=v)).encode() for v in vals + list(range(64))}
        slot = uuid.UUID.__dict__["int"]
        stop = threading.Event()
        bad = []
        def store(k):
            i = 0
            while not stop.is_set():
                object.__setattr__(shared[i % 64], "int", vals[(i + k) % 4])
                i += 1
        def reclass():
            while not stop.is_set():
                uuid.UUID.int = property(lambda self: 7)
                uuid.UUID.int = slot
        def dump():
            for _ in range(300):
                out = isojson.dumps(shared)
                bad.extend(p for p in out[1:-1].split(b",") if p not in ok)
        others = [threading.Thread(target=store, args=(k,)) for k in range(2)] + [threading.Thread(target=reclass)]
        dumpers = [threading.Thread(target=dump) for _ in range(2)]
        for t in others + dumpers: t.start()
        for t in dumpers: t.join()
        stop.set()
        for t in others: t.join()
        uuid.UUID.int = slot
        print(len(bad), getattr(sys, "_is_gil_enabled", lambda: True)())
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "0"
    if FREE_THREADED:
        assert r.stdout.split()[1] == "False"


# ---- threads and strict sub-interpreters, fork ---------------------------------------------------


def test_threads_and_strict_subinterpreters_together():
    from concurrent import interpreters

    data = [{"id": i, "name": f"n{i}", "vals": [i / 3, "é" * (i % 4)]} for i in range(200)]
    want = isojson.dumps(data)
    errors = []

    def in_sub(i):
        try:
            # Strict: an interpreter with its own GIL (or none, on 3.14t) and no legacy modules.
            interp = interpreters.create()
            try:
                interp.exec(textwrap.dedent(f"""
                    import isojson
                    data = [{{"id": i, "name": f"n{{i}}", "vals": [i / 3, "é" * (i % 4)]}} for i in range(200)]
                    for _ in range(30):
                        out = isojson.dumps(data)
                        assert isojson.loads(out) == data
                    assert out == {want!r}, out[:100]
                """))
            finally:
                interp.close()
        except BaseException as e:
            errors.append(("sub", i, repr(e)[:500]))

    def in_main(i):
        try:
            for _ in range(100):
                assert isojson.dumps(data) == want
                assert isojson.loads(want) == data
        except BaseException as e:
            errors.append(("main", i, repr(e)[:500]))

    threads = [threading.Thread(target=in_sub, args=(i,)) for i in range(3)]
    threads += [threading.Thread(target=in_main, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors[:3]
    if FREE_THREADED:
        assert sys._is_gil_enabled() is False


def test_fork_while_threads_work():
    # A child forked while other threads are inside loads and dumps gets a working isojson of its
    # own (a fresh engine), and keeps the GIL off. In a child process: fork in a multi-threaded
    # process warns (DeprecationWarning), which is expected here.
    r = _run("""
        import os, sys, threading
        import isojson
        data = {"k%d" % i: [i, "v%d" % i, i / 7] for i in range(500)}
        want = isojson.dumps(data)
        stop = threading.Event()
        def busy():
            while not stop.is_set():
                assert isojson.loads(isojson.dumps(data)) == data
        ts = [threading.Thread(target=busy) for _ in range(3)]
        for t in ts: t.start()
        codes = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:
                ok = isojson.dumps(isojson.loads(want)) == want
                gil = getattr(sys, "_is_gil_enabled", lambda: True)()
                os._exit(0 if ok and not (gil and sysconfig_ft()) else 1)
            codes.append(os.waitpid(pid, 0)[1])
        stop.set()
        for t in ts: t.join()
        print(codes)
    """.replace("sysconfig_ft()", repr(FREE_THREADED)), "-W", "ignore::DeprecationWarning")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[0, 0, 0, 0]"
