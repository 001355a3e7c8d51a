"""Instructions per call of the benchmark set's rows, counted by callgrind:
figures that stay steady on a busy shared machine, where times do not.

    scripts/bench-callgrind [--rows REGEXP] [--libs isojson,orjson,msgspec] [--ops loads,dumps]
                            [--full] [--repeats N] [--top N] [--compare OLD.json]
                            [--no-floors] [--no-firstcall]
    make bench-callgrind [BENCH_ROWS=REGEXP] [CALLGRIND_ARGS="--libs isojson --top 15 ..."]

(scripts/bench-callgrind provides valgrind and builds _benchhooks, benchhooks.c,
then runs this file with the root's Python.)

How a row is counted: one process per library runs under `valgrind
--tool=callgrind` (this file with --child). For each row and direction it makes
two warm-up calls and counts a third, which sets n (TARGET_IR instructions'
worth of calls, at most MAX_CALLS; 1 for the big rows); then, `repeats` times:
counters zeroed, a loop of n calls of an empty C function with the row's
calling convention (`_benchhooks.noop`, METH_O like loads; `noop_kw`,
METH_FASTCALL | METH_KEYWORDS like dumps), a dump; counters zeroed, the same
loop (its own code object, specialized alike) calling the row, a dump.
Instructions per call = (row loop - the least empty loop) / n, the least over
repeats: the harness's loop and the bare call are subtracted, the library's
own argument parsing is not. n depends on instructions, not on time, so that
every run makes the same calls. The text rows' dumps take a list of n
fresh copies of the row's value instead, walked by both loops (fresh_copy:
non-ASCII strs made anew, whose UTF-8 form CPython has not cached yet).

What is counted: the calling thread (--separate-threads=yes), where all of a
call's work happens (Python, the extension, the Go engine); the Go runtime's
own threads (sysmon, the scavenger) wake by the clock, and under valgrind's
slowed clock they would make the counts drift with the machine's load. For
the same reason the pacing yields isojson makes every 4 ms of engine use
(pyshim/engine_pace.c), which come some 50 times as often under valgrind as
natively, are taken off: their count in each dump is exact (calls from
isojson_engine_pace to isojson_engine_yield), their cost measured in the same
process. No kernel work is counted: page faults of big outputs cost real time
but no instructions here. Run to run, the figures agree within about 0.1%.

Steadiness also needs PYTHONHASHSEED=0, the garbage collector off (as timeit
does) and GODEBUG=asyncpreemptoff=1: valgrind 3.19's callgrind sometimes
asserts on the signal the Go runtime sends to preempt a goroutine (a run that
crashes anyway is retried). The big rows run a small instance of their
generator (Row.small: a 4 MiB string, a 2 MiB document) unless --full.

Also measured, each in a fresh process: the floors of a call (--no-floors
leaves them out) and the first call (import, first dumps, first loads, every
thread counted; --no-firstcall). --top N lists the functions each row spends
its instructions in. Results: a table on stdout, build/callgrind/last.json
(--json), the dumps in build/callgrind/<library>/ for callgrind_annotate; a
run of the whole set with the default libraries also writes
bench/results/callgrind.{json,md} and the tables of docs/performance.md
(--render rewrites those from a saved callgrind.json).
"""

import argparse
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(BENCH_DIR))
HOOKS_DIR = os.path.join(REPO, "build", "bench")
# ISOJSON_CALLGRIND_DIR: another directory for the dumps (a 3.14t run beside a GIL build's).
OUT_DIR = os.environ.get("ISOJSON_CALLGRIND_DIR") or os.path.join(REPO, "build", "callgrind")
ENGINE = os.path.join(REPO, "build", "python", "isojson", "libisojson_engine.so.0")
RESULTS_MD = os.path.join(REPO, "bench", "results", "callgrind.md")
RESULTS_JSON = os.path.join(REPO, "bench", "results", "callgrind.json")
PERFORMANCE_MD = os.path.join(REPO, "docs", "performance.md")
LIBRARIES = ("isojson", "orjson", "msgspec")
TARGET_IR = 4_000_000  # instructions per measured loop: some 0.1 s of valgrind's time
MAX_CALLS = 2000
FIRST_DOC = {"id": 1, "name": "first", "tags": ["a", "b"], "ok": True, "score": 0.5}
# Sizes of the bytes-allocation floor: the outputs of the fixed and api rows, then bigger.
BYTES_SIZES = (4, 7, 51, 190, 677, 1700, 40 << 10, 1 << 20, 16 << 20)

# Markers between the child and the parent: the name of each callgrind dump.
# "C|key|rep" a row's loop, "B|key|rep" its empty loop; key is "row|op" or a floor's name.
SEP = "|"


# ---- the child, under valgrind -----------------------------------------------------------------------------

def _hooks():
    sys.path.insert(0, HOOKS_DIR)
    import _benchhooks

    return _benchhooks


def _make_loop(kwnames, tag: str):
    """A fresh loop function: for _ in range(n): fn(arg, k=k, ...)."""
    params = "".join(f", {k}" for k in kwnames)
    kws = "".join(f", {k}={k}" for k in kwnames)
    src = f"def loop(fn, arg, n{params}):\n    for _ in range(n):\n        fn(arg{kws})\n"
    ns = {}
    exec(compile(src, f"<callgrind loop {tag}>", "exec"), ns)
    return ns["loop"]


class Marks:
    """The child's dumps, counted, so that it can read back the last one
    (callgrind writes it at once, cg.out.N or cg.out.N-01 for the calling
    thread)."""

    def __init__(self, h, directory: str, per_thread: bool):
        self.h, self.directory, self.per_thread, self.count = h, directory, per_thread, 0

    def zero(self):
        self.h.zero(None)

    def dump(self, name: str):
        self.h.dump(name)
        self.count += 1

    def last(self) -> int:
        """Instructions in the last dump (its header only is read)."""
        path = os.path.join(self.directory, f"cg.out.{self.count}" + ("-01" if self.per_thread else ""))
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
        raise RuntimeError(f"{path} has no summary line")


def _calls_for(marks: Marks, c, big: bool) -> int:
    """n for one row: 1 for the big rows, else enough calls for TARGET_IR
    instructions (at most MAX_CALLS), from the count of one call: the same n
    on every run, whatever the machine's load (a time-based n would change
    the calls made before and so the allocator's state)."""
    if big:
        return 1
    marks.zero()
    c()
    marks.dump(f"K{SEP}calibrate")
    return max(1, min(MAX_CALLS, round(TARGET_IR / max(marks.last(), 1))))


def _settle(lib) -> None:
    """Starts what a library starts at first use (isojson: the Go runtime,
    whose threads finish starting after the first call returns) before any
    count: some calls, then a pause for those threads."""
    doc = lib.dumps(FIRST_DOC)
    for _ in range(200):
        lib.loads(lib.dumps(lib.loads(doc)))
    time.sleep(0.5)


# On 3.14t a dumps call whose locked walk had to stop (pyshim/dumps/dumps_ft.h) is redone with
# snapshots, and so are the thread's next 63 calls. A row's first call may stop it for a reason that
# lasts one call (its types not looked up yet: datetime), so the rows measured in more than one call
# are warmed past that window: what is counted is the steady state, as for every other cost a first
# call pays (measured apart: --firstcall).
FT_WARM_CALLS = 65 if sysconfig.get_config_var("Py_GIL_DISABLED") else 2


def _warm_calls(n: int) -> int:
    return min(n, 2) if n <= 1 else max(2, FT_WARM_CALLS)


def _count(marks: Marks, key: str, fn, base, arg, kwargs: dict, n: int, repeats: int) -> None:
    """The repeats of one measurement: dumps C|key|rep and B|key|rep."""
    loop, empty = _make_loop(kwargs, key + " row"), _make_loop(kwargs, key + " empty")
    loop(fn, arg, _warm_calls(n), **kwargs)  # the interpreter specializes each loop's call site
    empty(base, arg, 2, **kwargs)
    gc.collect()
    for rep in range(repeats):
        marks.zero()
        empty(base, arg, n, **kwargs)
        marks.dump(f"B{SEP}{key}{SEP}{rep}")
        marks.zero()
        loop(fn, arg, n, **kwargs)
        marks.dump(f"C{SEP}{key}{SEP}{rep}")


def fresh_copy(obj):
    """obj with every non-ASCII str (and every container holding one) made
    anew: a str that has not been written as UTF-8 yet. CPython keeps the
    UTF-8 form of a non-ASCII str once something asked for it (orjson does,
    and so does the orjson.dumps that made the row's text), and dumps of such
    a str copies that form instead of transcoding; a program mostly writes
    strs that are new (read from a database, a file, a request), so the text
    rows count dumps of fresh ones."""
    if type(obj) is str:
        return obj if obj.isascii() else obj.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")
    if type(obj) is list:
        return [fresh_copy(v) for v in obj]
    if type(obj) is dict:
        return {fresh_copy(k): fresh_copy(v) for k, v in obj.items()}
    return obj


def wants_fresh(row, op: str, obj) -> bool:
    """Whether a row's dumps is counted on fresh strs (fresh_copy): the text
    rows, where transcoding the strs is the work measured."""
    def non_ascii(o):
        if type(o) is str:
            return not o.isascii()
        if type(o) is list:
            return any(map(non_ascii, o))
        if type(o) is dict:
            return any(non_ascii(k) or non_ascii(v) for k, v in o.items())
        return False

    import rows

    return op == rows.DUMPS and row.group == "text" and non_ascii(obj)


def _make_each_loop(kwnames, tag: str):
    """A fresh loop function over a list of arguments: for a in args: fn(a, k=k, ...)."""
    params = "".join(f", {k}" for k in kwnames)
    kws = "".join(f", {k}={k}" for k in kwnames)
    src = f"def loop(fn, args{params}):\n    for a in args:\n        fn(a{kws})\n"
    ns = {}
    exec(compile(src, f"<callgrind each-loop {tag}>", "exec"), ns)
    return ns["loop"]


def _count_fresh(marks: Marks, key: str, fn, base, obj, kwargs: dict, n: int, repeats: int) -> None:
    """_count on fresh strs: each call gets its own fresh_copy(obj), made
    before the counters are zeroed; the empty loop walks the same list."""
    loop, empty = _make_each_loop(kwargs, key + " row"), _make_each_loop(kwargs, key + " empty")
    loop(fn, [fresh_copy(obj) for _ in range(min(n, 2))], **kwargs)
    empty(base, [obj, obj], **kwargs)
    gc.collect()
    for rep in range(repeats):
        args = [fresh_copy(obj) for _ in range(n)]
        marks.zero()
        empty(base, args, **kwargs)
        marks.dump(f"B{SEP}{key}{SEP}{rep}")
        marks.zero()
        loop(fn, args, **kwargs)
        marks.dump(f"C{SEP}{key}{SEP}{rep}")
        del args


def plan(pattern: str, ops: list[str], resume_after: str | None = None) -> list[tuple]:
    """[(row, [ops])] to count, in set order; with resume_after ("row|op"),
    only what comes after that measurement."""
    import rows

    selected = [(row, op) for row in rows.select(pattern) for op in row.ops if op in ops]
    if resume_after is not None:
        keys = [f"{row.name}{SEP}{op}" for row, op in selected]
        selected = selected[keys.index(resume_after) + 1:]
    out = []
    for row, op in selected:
        if out and out[-1][0] is row:
            out[-1][1].append(op)
        else:
            out.append((row, [op]))
    return out


def child_rows(lib_name: str, pattern: str, ops: list[str], full: bool, repeats: int, directory: str,
               resume_after: str | None = None) -> None:
    """Counts every chosen row of one library; prints one JSON line per (row,
    op): {"key", "n", "bytes"} or {"key", "unsupported"}; with resume_after,
    only the measurements after that one (a run valgrind crashed in)."""
    h = _hooks()
    marks = Marks(h, directory, per_thread=True)
    gc.disable()
    import libraries
    import rows

    lib = libraries.load(lib_name)
    _settle(lib)
    if lib_name == "isojson" and libraries.isojson_module_name() == "isojson":
        # The cost of one pacing yield, in this process's own Go runtime (dlopen of the
        # path isojson loaded returns its copy), for per_call to take off.
        h.engine_open(ENGINE)
        per = 200
        _count(marks, "yield", h.engine_yields, h.local_calls, per, {}, 5, repeats)
        print(json.dumps({"key": "yield", "n": 5 * per}), flush=True)
    for row, todo in plan(pattern, ops, resume_after):
        inst = row.instance(None if full else row.small)
        for op in todo:
            key = f"{row.name}{SEP}{op}"
            try:
                c = rows.call(row, op, lib, inst)
                out = c()
                c()
            except Exception as e:  # rows.Unsupported, or a type the library lacks
                print(json.dumps({"key": key, "unsupported": f"{type(e).__name__}: {e}"[:160]}), flush=True)
                continue
            size = len(inst.data) if op == rows.LOADS else len(out)
            del out
            base = h.noop if op == rows.LOADS and not c.kwargs else h.noop_kw
            if wants_fresh(row, op, c.arg):
                one = rows.Call(c.fn, fresh_copy(c.arg), c.kwargs)
                n = _calls_for(marks, one, row.big or size >= (4 << 20))
                del one
                _count_fresh(marks, key, c.fn, base, c.arg, c.kwargs, n, repeats)
                print(json.dumps({"key": key, "n": n, "bytes": size, "fresh": True}), flush=True)
                continue
            n = _calls_for(marks, c, row.big or size >= (4 << 20))
            _count(marks, key, c.fn, base, c.arg, c.kwargs, n, repeats)
            print(json.dumps({"key": key, "n": n, "bytes": size}), flush=True)
        del inst


def _empty_loop(fn, arg, n):
    for _ in range(n):
        pass


FLOORS_DOC = {"a": 1}


def child_floors(repeats: int) -> None:
    """The floors, each measured alone against the call it extends; prints
    one JSON line per floor: {"key", "n", "divisor", "about"}."""
    h = _hooks()
    gc.disable()
    lines = []

    def floor(key, about, fn, base, arg, kwargs=None, n=MAX_CALLS, divisor=None, loops=None):
        kwargs = kwargs or {}
        loop, empty = loops or (_make_loop(kwargs, key + " row"), _make_loop(kwargs, key + " empty"))
        loop(fn, arg, 2, **kwargs)
        empty(base, arg, 2, **kwargs)
        for rep in range(repeats):
            h.zero(None)
            empty(base, arg, n, **kwargs)
            h.dump(f"B{SEP}{key}{SEP}{rep}")
            h.zero(None)
            loop(fn, arg, n, **kwargs)
            h.dump(f"C{SEP}{key}{SEP}{rep}")
        lines.append({"key": key, "n": n * (divisor or 1), "about": about})

    floor("call of an empty C function from Python (METH_O)",
          "the harness's loop with the call vs the loop alone", h.noop, None, None,
          loops=(_make_loop({}, "noop"), _empty_loop))
    floor("METH_FASTCALL + METH_KEYWORDS instead of METH_O",
          "noop_kw(obj) vs noop(obj): dumps' calling convention over loads'", h.noop_kw, h.noop, FLOORS_DOC)
    floor("dumps argument parsing: dumps(obj)", "dumps_args(obj) vs noop_kw(obj)", h.dumps_args, h.noop_kw,
          FLOORS_DOC)
    floor("dumps argument parsing: dumps(obj, option=...)", "dumps_args(obj, option=2) vs noop_kw(obj, option=2)",
          h.dumps_args, h.noop_kw, FLOORS_DOC, {"option": 2})
    floor("loads argument reading: bytes", "loads_args(b) vs noop(b)", h.loads_args, h.noop, b'{"a":1}')
    floor("loads argument reading: str", "loads_args(s) vs noop(s)", h.loads_args, h.noop, '{"a":1}')
    for size in BYTES_SIZES:
        floor(f"bytes object of {size} B: allocate and free", f"bytes_new({size}) vs noop({size})",
              h.bytes_new, h.noop, size, n=MAX_CALLS if size < (1 << 20) else 20)
    abi = h.engine_open(ENGINE)
    per = 1000
    floor("cgo crossing: isojson_engine_abi() from C", f"engine ABI {abi}: engine_calls({per}) vs "
          f"local_calls({per}), per call", h.engine_calls, h.local_calls, per, n=20, divisor=per)
    floor("pacing yield: isojson_engine_yield() from C", f"engine_yields({per}) vs local_calls({per}), per call "
          "(runtime.Gosched; pyshim/engine_pace.c calls it after every 4 ms of engine use)",
          h.engine_yields, h.local_calls, per, n=20, divisor=per)
    for line in lines:
        print(json.dumps(line), flush=True)


def child_firstcall(lib_name: str) -> None:
    """Import, first dumps, first loads of one library in this fresh process."""
    h = _hooks()
    import libraries

    h.zero(None)
    lib = libraries.load(lib_name)
    h.dump(f"F{SEP}import")
    out = lib.dumps(FIRST_DOC)
    h.dump(f"F{SEP}dumps")
    if lib.loads(out) != FIRST_DOC:
        raise SystemExit(f"{lib_name}: loads(dumps(doc)) != doc")
    h.dump(f"F{SEP}loads")
    print(json.dumps({"key": "firstcall"}), flush=True)


# ---- the parent --------------------------------------------------------------------------------------------

YIELD_FN = "isojson_engine_yield"
PACE_FN = "isojson_engine_pace"


def read_dump(path: str) -> tuple[str | None, int, int]:
    """(the dump's name, its instructions, the calls of isojson_engine_yield
    made by isojson_engine_pace in it). Function names are compressed: each
    is spelled out at its first use in the file, "(id) name", then "(id)"."""
    trigger, total, yields = None, 0, 0
    names = {}
    fn = callee = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(("fn=", "cfn=")):
                ref = line.split("=", 1)[1].strip()
                ident, _, name = ref.partition(" ")
                if name:
                    names[ident] = name
                name = names.get(ident, ident)
                if line[0] == "f":
                    fn, callee = name, None
                else:
                    callee = name
            elif line.startswith("calls=") and callee == YIELD_FN and fn == PACE_FN:
                # One call site, sometimes listed twice (callgrind's view of Go's stack switch): the max.
                yields = max(yields, int(line.split("=", 1)[1].split()[0]))
            elif line.startswith("desc: Trigger: Client Request: "):
                trigger = line[len("desc: Trigger: Client Request: "):].rstrip("\n")
            elif line.startswith(("summary:", "totals:")) and not total:
                total = int(line.split()[1])
    return trigger, total, yields


def read_dumps(directory: str) -> dict[str, tuple[int, int]]:
    """{dump name: (instructions, pacing yields)} of every client-request dump
    in directory: of the calling thread's files (cg.out.N-01) when threads are
    counted apart, else of the process's (cg.out.N)."""
    out = {}
    for name in os.listdir(directory):
        if not re.fullmatch(r"cg\.out\.\d+(-01)?", name):
            continue
        trigger, total, yields = read_dump(os.path.join(directory, name))
        if trigger is not None:
            out[trigger] = (total, yields)
    return out


def self_costs(path: str) -> dict[str, int]:
    """{"object: function": self instructions} of one dump: the cost lines
    under each fn= that do not follow a calls= line (those are the inclusive
    costs of calls)."""
    out = {}
    names = {}  # function names and object names, each its own numbering
    objects = {}
    ob = fn = ""
    after_calls = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            c = line[:1]
            if c.isdigit() or c in "+-*":
                if after_calls:
                    after_calls = False
                    continue
                parts = line.split()
                if len(parts) >= 2 and fn:
                    out[fn] = out.get(fn, 0) + int(parts[-1])
                continue
            after_calls = False
            key, _, ref = line.partition("=")
            if key in ("ob", "cob", "fn", "cfn"):
                # Names are spelled out at first use, in whichever of these lines comes first.
                table = objects if key.endswith("ob") else names
                ident, _, name = ref.strip().partition(" ")
                if name:
                    table[ident] = name
                name = table.get(ident, ident)
                if key == "ob":
                    ob = os.path.basename(name)
                elif key == "fn":
                    fn = f"{ob}: {name}" if ob else name
            elif key == "calls":
                after_calls = True
    return out


def dump_paths(directory: str) -> dict[str, str]:
    """{dump name: file} of the calling thread's (or the process's) dumps, in
    directory or its attempts' subdirectories (a later attempt's dump replacing
    an earlier one of the same name)."""
    out = {}
    subdirs = sorted((d for d in os.listdir(directory) if d.isdigit()), key=int)
    files = [os.path.join(directory, d, f) for d in subdirs for f in os.listdir(os.path.join(directory, d))]
    files += [os.path.join(directory, f) for f in os.listdir(directory)]
    for path in files:
        if re.fullmatch(r"cg\.out\.\d+(-01)?", os.path.basename(path)):
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith("desc: Trigger: Client Request: "):
                        out[line[len("desc: Trigger: Client Request: "):].rstrip("\n")] = path
                        break
                    if line.startswith("summary:"):
                        break
    return out


def row_costs(directory: str, key: str, n: int) -> dict[str, float]:
    """Self instructions per call of each function a row runs: its first
    repeat's loop minus the empty loop, function by function."""
    paths = dump_paths(directory)
    row, empty = paths.get(f"C{SEP}{key}{SEP}0"), paths.get(f"B{SEP}{key}{SEP}0")
    if row is None:
        return {}
    costs = self_costs(row)
    for fn, ir in (self_costs(empty) if empty else {}).items():
        costs[fn] = costs.get(fn, 0) - ir
    return {fn: ir / n for fn, ir in costs.items() if ir > 0}


def part_of(fn: str) -> str:
    """Which part of the process a function ("object: name") belongs to."""
    obj, _, name = fn.partition(": ")
    if obj.startswith("python3"):
        return "CPython"
    if obj.startswith("libc.") or obj.startswith("ld-linux"):
        return "libc"
    if obj.startswith("_isojson"):
        return "isojson extension (C)"
    if obj.startswith("libisojson_engine"):
        if name.startswith(("runtime.", "_cgo", "x_cgo", "crosscall2", "isojson_engine_", "internal/runtime")):
            return "Go runtime and cgo crossing"
        return "Go engine"
    return obj.split(".")[0]


def top_functions(directory: str, key: str, n: int, count: int) -> tuple[list, dict]:
    """The `count` functions that cost a row the most (self instructions per
    call), and the sums by part of the process (part_of)."""
    costs = row_costs(directory, key, n)
    parts = {}
    for fn, ir in costs.items():
        parts[part_of(fn)] = parts.get(part_of(fn), 0.0) + ir
    ranked = sorted(costs.items(), key=lambda x: -x[1])
    return ranked[:count], dict(sorted(parts.items(), key=lambda x: -x[1]))


def per_call(counts: dict, key: str, n: int, per_yield: float = 0.0) -> list[float]:
    """Instructions per call of each repeat: (its row loop - the least empty
    loop - its pacing yields) / n. Anything else (an interpreter's
    housekeeping) can only add instructions to a loop, so the least of the
    empty loops is the harness's cost, and the least of these values the
    row's. The yields: isojson calls the Go scheduler after every 4 ms of
    engine use (pyshim/engine_pace.c); under valgrind a call takes some 50
    times longer, so they would come 50 times as often as they do natively,
    and as often as the machine is busy: their count in each dump is exact,
    their cost per yield measured in the same process (key "yield")."""
    loops, empties = [], []
    rep = 0
    while (c := counts.get(f"C{SEP}{key}{SEP}{rep}")) is not None:
        loops.append(c)
        empties.append(counts.get(f"B{SEP}{key}{SEP}{rep}", (0, 0))[0])
        rep += 1
    if not loops:
        return []
    base = min(empties)
    return [(ir - base - yields * per_yield) / n for ir, yields in loops]


def valgrind_command(out_file: str, separate_threads: bool = True) -> list[str]:
    vg = os.environ.get("ISOJSON_VALGRIND") or shutil.which("valgrind")
    if not vg:
        raise SystemExit("callgrind: no valgrind; run this through scripts/bench-callgrind (make bench-callgrind)")
    return [vg, "--tool=callgrind", f"--callgrind-out-file={out_file}", "--dump-instr=no", "--dump-line=no",
            f"--separate-threads={'yes' if separate_threads else 'no'}"]


def run_child(directory: str, child_args: list[str], log, separate_threads: bool = True,
              resumable: bool = False) -> tuple[list[dict], dict]:
    """Runs this file with child_args under callgrind; its JSON lines and the
    instruction counts of its dumps: of the calling thread alone, or with
    separate_threads=False of every thread (the first call, which starts the
    Go runtime's). A run valgrind crashes in (the known assertion) is run
    again: a resumable one (the rows) from the measurement after the last one
    it finished, each attempt's dumps in directory/<attempt>/."""
    env = dict(os.environ, PYTHONHASHSEED="0", GODEBUG="asyncpreemptoff=1")
    shutil.rmtree(directory, ignore_errors=True)
    lines, counts, resume = [], {}, []
    for attempt in range(1, 4):
        adir = os.path.join(directory, str(attempt))
        os.makedirs(adir)
        cmd = valgrind_command(os.path.join(adir, "cg.out"), separate_threads) + [
            sys.executable, os.path.abspath(__file__)] + child_args + (["--dir", adir] if resumable else []) + resume
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        got = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
        if proc.returncode == 0:
            counts.update(read_dumps(adir))
            return lines + got, counts
        tail = "\n".join(proc.stderr.strip().splitlines()[-12:])
        crashed = "Assertion" in proc.stderr or "the 'impossible' happened" in proc.stderr
        if not crashed or attempt == 3:
            raise RuntimeError(f"{' '.join(child_args)} failed (exit {proc.returncode}):\n{tail}")
        done = [x for x in got if x["key"] != "yield"]
        if resumable:
            lines += got
            counts.update(read_dumps(adir))
            if done:
                resume = ["--resume-after", done[-1]["key"]]
        log(f"  valgrind crashed (a known callgrind assertion) after {len(done)} measurements; again"
            + (f" from after {done[-1]['key']}" if resumable and done else ""))
    raise AssertionError("unreachable")


def collect_rows(lines: list[dict], counts: dict) -> dict:
    out = {}
    per_yield = 0.0
    for line in lines:
        if line["key"] == "yield":
            per_yield = min(per_call(counts, "yield", line["n"]))
            out["yield"] = per_yield
    for line in lines:
        if line["key"] == "yield":
            continue
        row, op = line["key"].split(SEP)
        if "unsupported" in line:
            out[(row, op)] = {"unsupported": line["unsupported"]}
            continue
        values = per_call(counts, line["key"], line["n"], per_yield)
        if not values:
            out[(row, op)] = {"unsupported": "no dumps found"}
            continue
        lo = min(values)
        out[(row, op)] = {"ir": lo, "spread": (max(values) - lo) / lo if lo > 0 else 0.0,
                          "n": line["n"], "bytes": line["bytes"], "repeats": values,
                          "fresh": line.get("fresh", False)}
    return out


def measure(libs, pattern, ops, full, repeats, floors, firstcall, top=0, log=print) -> dict:
    import rows

    results = {"settings": {"rows": pattern, "libraries": list(libs), "ops": list(ops), "full": full,
                            "repeats": repeats},
               "valgrind": _valgrind_version(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    per_lib = {}
    for lib in libs:
        t = time.perf_counter()
        log(f"callgrind: {lib}, rows {pattern or 'all'} ...")
        directory = os.path.join(OUT_DIR, lib)
        lines, counts = run_child(directory,
                                  ["--child", lib, "--rows", pattern or "", "--ops", ",".join(ops),
                                   "--repeats", str(repeats)] + (["--full"] if full else []), log, resumable=True)
        per_lib[lib] = collect_rows(lines, counts)
        if top:
            for line in lines:
                if "n" in line and line["key"] != "yield":
                    fns, parts = top_functions(directory, line["key"], line["n"], top)
                    per_lib[lib][tuple(line["key"].split(SEP))].update(top=fns, parts=parts)
        if "yield" in per_lib[lib]:
            results.setdefault("yield", {})[lib] = per_lib[lib].pop("yield")
        log(f"  {len(lines)} measurements in {time.perf_counter() - t:.0f} s")
    order = [(r.name, op) for r in rows.select(pattern) for op in r.ops if op in ops]
    results["rows"] = []
    for row, op in order:
        entry = {"row": row, "op": op, "ir": {}, "spread": {}, "n": {}, "unsupported": {}, "bytes": 0}
        for lib in libs:
            got = per_lib[lib].get((row, op))
            if got is None:
                continue
            if "unsupported" in got:
                entry["unsupported"][lib] = got["unsupported"]
                continue
            entry["ir"][lib], entry["spread"][lib], entry["n"][lib] = got["ir"], got["spread"], got["n"]
            entry.setdefault("repeats", {})[lib] = got["repeats"]
            if "top" in got:
                entry.setdefault("top", {})[lib] = got["top"]
                entry.setdefault("parts", {})[lib] = got["parts"]
            if lib == "orjson" or not entry["bytes"]:
                entry["bytes"] = got["bytes"]
            if got.get("fresh"):
                entry["fresh"] = True
        if entry["ir"] or entry["unsupported"]:
            results["rows"].append(entry)
    if floors:
        log("callgrind: floors ...")
        lines, counts = run_child(os.path.join(OUT_DIR, "floors"), ["--child-floors", "--repeats", str(repeats)],
                                  log)
        results["floors"] = []
        for line in lines:
            values = per_call(counts, line["key"], line["n"])
            results["floors"].append({"floor": line["key"], "about": line["about"], "ir": min(values),
                                      "spread": (max(values) - min(values)) / max(min(values), 1)})
    if firstcall:
        results["firstcall"] = []
        for lib in libs:
            log(f"callgrind: first call of {lib} ...")
            _, counts = run_child(os.path.join(OUT_DIR, "first-" + lib), ["--child-firstcall", lib], log,
                                  separate_threads=False)
            results["firstcall"].append({"library": lib, **{k: counts.get(f"F{SEP}{k}", (None, 0))[0] for k in
                                                             ("import", "dumps", "loads")}})
    return results


def _valgrind_version() -> str:
    try:
        cmd = valgrind_command("/dev/null")[0]
        return subprocess.run([cmd, "--version"], capture_output=True, text=True).stdout.strip()
    except (OSError, SystemExit):
        return "?"


# ---- tables ------------------------------------------------------------------------------------------------

def fmt_ir(v: float | None) -> str:
    if v is None:
        return "–"
    if v >= 1e9:
        return f"{v / 1e9:.2f} G"
    if v >= 1e7:
        return f"{v / 1e6:.1f} M"
    if v >= 1e6:
        return f"{v / 1e6:.2f} M"
    return f"{v:,.0f}"


def _table(header, lines, align):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    return out + ["| " + " | ".join(x) + " |" for x in lines]


def rows_table(results: dict, before: dict | None = None) -> list[str]:
    import rows

    libs = results["settings"]["libraries"]
    old = {(e["row"], e["op"]): e for e in (before or {}).get("rows", [])}
    ratio_libs = [lib for lib in libs if lib != "orjson"] if "orjson" in libs else []
    lines = []
    for e in results["rows"]:
        cells = [f"`{e['row']}`" + (" †" if e.get("fresh") else ""), e["op"], rows.text_size(e["bytes"])]
        for lib in libs:
            cells.append(fmt_ir(e["ir"].get(lib)))
        ref = e["ir"].get("orjson")
        for lib in ratio_libs:
            v = e["ir"].get(lib)
            cells.append(f"{v / ref:.2f}×" if v is not None and ref else "–")
        spread = max(e["spread"].values(), default=0.0)
        cells.append(f"{spread * 100:.1f}%")
        if before is not None:
            o = old.get((e["row"], e["op"]), {}).get("ir", {})
            for lib in libs:
                v, w = e["ir"].get(lib), o.get(lib)
                cells.append(f"{(v - w) / w * 100:+.1f}%" if v is not None and w else "–")
        lines.append(cells)
    header = (["row", "op", "size"] + [f"{lib}" for lib in libs] + [f"{lib} ×orjson" for lib in ratio_libs]
              + ["spread"] + ([f"Δ {lib}" for lib in libs] if before is not None else []))
    return _table(header, lines, "lll" + "r" * (len(header) - 3))


def floors_table(results: dict) -> list[str]:
    lines = [[f["floor"], fmt_ir(f["ir"]), f["about"]] for f in results.get("floors", [])]
    return _table(["floor", "instructions", "measured as"], lines, "lrl")


def firstcall_table(results: dict) -> list[str]:
    lines = [[f["library"]] + [fmt_ir(f.get(k)) for k in ("import", "dumps", "loads")]
             for f in results.get("firstcall", [])]
    return _table(["library", "import", "first dumps", "first loads"], lines, "lrrr")


def markdown(results: dict, before: dict | None = None) -> str:
    s = results["settings"]
    out = [f"Instructions per call counted by callgrind ({results['valgrind']}), {results['date']}: "
           f"min of {s['repeats']} repeats, the harness's loop and empty call subtracted; spread: the largest "
           f"(max − min) / min of a row over its libraries. {'Full-size' if s['full'] else 'Small instances of the'} "
           "big rows. Made by `make bench-callgrind` (bench/python/callgrind.py).", ""]
    out += rows_table(results, before) + [""]
    if any(e.get("fresh") for e in results["rows"]):
        out += ["†: every call writes strs of its own, made anew before the count (`fresh_copy`): a str whose "
                "UTF-8 form CPython has cached (orjson asks for it) would be copied, not transcoded.", ""]
    for e in results["rows"]:
        for lib, fns in e.get("top", {}).items():
            total = e["ir"][lib]
            parts = e.get("parts", {}).get(lib, {})
            out += [f"Where `{e['row']}` {e['op']} goes in {lib} ({fmt_ir(total)} instructions per call; "
                    "self instructions per call, the empty loop's taken off function by function). By part: "
                    + ", ".join(f"{p} {fmt_ir(ir)}" for p, ir in parts.items()) + ".", ""]
            out += _table(["function", "per call", "share"],
                          [[f"`{fn}`", fmt_ir(ir), f"{ir / total * 100:.1f}%" if total else "–"] for fn, ir in fns],
                          "lrr") + [""]
    if results.get("floors"):
        out += ["Floors, each measured alone (instructions per call):", ""] + floors_table(results) + [""]
    if results.get("firstcall"):
        out += ["The first call in a fresh process (instructions, every thread):", ""]
        out += firstcall_table(results) + [""]
    return "\n".join(out)


def rewrite_section(path: str, name: str, text: str) -> bool:
    """Replaces the text between <!-- NAME:begin --> and <!-- NAME:end -->."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = f.read()
    except FileNotFoundError:
        return False
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(doc):
        return False
    new = pattern.sub(lambda _: f"{begin}\n{text.strip()}\n{end}", doc, count=1)
    if new != doc:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="", metavar="REGEXP", help="rows whose name matches (default: all)")
    ap.add_argument("--libs", default=",".join(LIBRARIES), help="comma-separated libraries")
    ap.add_argument("--ops", default="loads,dumps", help="loads, dumps or both")
    ap.add_argument("--full", action="store_true", help="the big rows at full size (256 MiB: minutes)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-floors", dest="floors", action="store_false")
    ap.add_argument("--no-firstcall", dest="firstcall", action="store_false")
    ap.add_argument("--json", default=os.path.join(OUT_DIR, "last.json"), help="where the results go")
    ap.add_argument("--compare", metavar="OLD_JSON", help="add the change from an earlier run's results")
    ap.add_argument("--render", metavar="JSON", help="measure nothing: rewrite bench/results/callgrind.md and "
                    "docs/performance.md's tables from saved results (bench/results/callgrind.json)")
    ap.add_argument("--top", type=int, default=0, metavar="N",
                    help="also list the N functions that cost each row the most (self instructions per call)")
    ap.add_argument("--child", metavar="LIBRARY", help=argparse.SUPPRESS)
    ap.add_argument("--child-floors", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--child-firstcall", metavar="LIBRARY", help=argparse.SUPPRESS)
    ap.add_argument("--dir", help=argparse.SUPPRESS)
    ap.add_argument("--resume-after", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    ops = [o for o in args.ops.split(",") if o]
    if args.child:
        child_rows(args.child, args.rows, ops, args.full, args.repeats, args.dir, args.resume_after)
        return 0
    if args.child_floors:
        child_floors(args.repeats)
        return 0
    if args.child_firstcall:
        child_firstcall(args.child_firstcall)
        return 0

    import rows

    if args.render:
        with open(args.render, encoding="utf-8") as f:
            results = json.load(f)
        write_outputs(results)
        return 0
    if not rows.select(args.rows):
        ap.error(f"no row matches {args.rows!r}")
    libs = [lib for lib in args.libs.split(",") if lib]
    t = time.perf_counter()
    results = measure(libs, args.rows, ops, args.full, args.repeats, args.floors, args.firstcall, args.top)
    results["elapsed_s"] = round(time.perf_counter() - t)
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
        f.write("\n")
    before = None
    if args.compare:
        with open(args.compare, encoding="utf-8") as f:
            before = json.load(f)
        if before.get("settings", {}).get("rows") != results["settings"]["rows"]:
            print(f"note: {args.compare} counted rows {before.get('settings', {}).get('rows')!r}, this run "
                  f"{results['settings']['rows']!r}: a library's count can depend on what ran before it in the "
                  "process (the allocator's state; orjson's dumps(None): 610 to 712), so compare runs of the same "
                  "--rows", file=sys.stderr)
    text = markdown(results, before)
    print("\n" + text)
    print(f"results in {args.json}; dumps for callgrind_annotate in {OUT_DIR}/<library>/; "
          f"{results['elapsed_s']} s")
    whole = not args.rows and set(libs) == set(LIBRARIES) and set(ops) == {"loads", "dumps"} and args.floors \
        and args.firstcall and not args.compare and not args.top
    if whole:
        with open(RESULTS_JSON, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, ensure_ascii=False)
            f.write("\n")
        write_outputs(results)
    return 0


def write_outputs(results: dict) -> None:
    """bench/results/callgrind.md and the tables of docs/performance.md."""
    with open(RESULTS_MD, "w", encoding="utf-8") as f:
        f.write("# isojson: instructions per call (callgrind)\n\n" + markdown(results) + "\n")
    print(f"wrote {RESULTS_MD}")
    stamp = f"Counted on {results['date']} ({results['valgrind']}); the results are in bench/results/callgrind.json."
    done = [rewrite_section(PERFORMANCE_MD, name, body) for name, body in
            (("callgrind-rows", stamp + "\n\n" + "\n".join(rows_table(results))),
             ("callgrind-floors", "\n".join(floors_table(results))),
             ("callgrind-firstcall", "\n".join(firstcall_table(results))))]
    print(f"{'rewrote' if all(done) else 'could not rewrite (markers missing in)'} {PERFORMANCE_MD}")


if __name__ == "__main__":
    sys.exit(main())
