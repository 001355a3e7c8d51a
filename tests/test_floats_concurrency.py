"""Float-heavy dumps (the amd64 assembly float kernel, its jump to the
portable path, runs of floats) from 4 threads and 4 own-GIL sub-interpreters
at once, then in a fork()ed child, with the engine's GC at GOGC=1: every
output must equal orjson's byte for byte. The scenario runs in a child Python
(the Go runtime reads GOGC when it loads)."""

import pytest

import _util

SCENARIO = """
import hashlib, os, sys, threading
from concurrent import interpreters
import _float_docs as fd
import _util

mod = _util.isojson
ref = _util.REFERENCE
SEEDS = list(range(160))
ROUNDS = 2
docs = [fd.document(s) for s in SEEDS]
want = [hashlib.sha256(ref.dumps(d)).hexdigest() for d in docs]
for s, d in zip(SEEDS, docs):
    got, exp = mod.dumps(d), ref.dumps(d)
    if got != exp:
        at = next((i for i in range(min(len(got), len(exp))) if got[i] != exp[i]), min(len(got), len(exp)))
        sys.exit(f"document {s}: differs at byte {at}: {got[at-40:at+40]!r} vs {exp[at-40:at+40]!r}")

errors = []

def in_thread(k):
    try:
        for _ in range(ROUNDS):
            for s in SEEDS[k::4] + SEEDS[:k]:
                if hashlib.sha256(mod.dumps(docs[s])).hexdigest() != want[s]:
                    errors.append(f"thread {k}: document {s}")
    except BaseException as e:
        errors.append(f"thread {k}: {e!r}")

def in_subinterpreter(k):
    try:
        interp = interpreters.create()
        try:
            interp.exec(f"import sys; sys.path.insert(0, {_util.TESTS_DIR!r})")
            seeds = SEEDS[k::4] + SEEDS[(k + 1) % 4::4]
            got = interp.call(fd.digests, _util.MODULE_NAME, seeds, ROUNDS)
        finally:
            interp.close()
        errors.extend(f"interpreter {k}: document {s}" for s, g in zip(seeds, got) if g != want[s])
    except BaseException as e:
        errors.append(f"interpreter {k}: {e!r}")

threads = [threading.Thread(target=in_thread, args=(k,)) for k in range(4)]
threads += [threading.Thread(target=in_subinterpreter, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if errors:
    sys.exit("\\n".join(errors[:20]))

# fork() only now: CPython 3.14 itself crashes a child forked while own-GIL
# sub-interpreters run (with no extension loaded at all).
pid = os.fork()
if pid == 0:
    bad = [s for s in SEEDS if hashlib.sha256(mod.dumps(docs[s])).hexdigest() != want[s]]
    threads = [threading.Thread(target=in_thread, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    os._exit(0 if not bad and not errors else 1)
_, status = os.waitpid(pid, 0)
if status != 0:
    sys.exit(f"forked child: status {status}")
print("ok")
"""


# Its child compares with orjson, which 3.14t cannot load (tests/test_free_threaded.py covers threads,
# sub-interpreters and fork there).
@pytest.mark.skipif(_util.FREE_THREADED, reason=_util.NO_ORJSON)
def test_float_documents_threads_subinterpreters_fork():
    out = _util.run_python(SCENARIO, 600, env=_util.child_env(GOGC="1"))
    assert out.strip().endswith("ok"), out
