"""Code that runs inside sub-interpreters (and, for the expected answers, in
the main interpreter with the reference module). It imports nothing of the
suite's (orjson cannot load in a sub-interpreter) and takes the module's name
as an argument. Everything it receives and returns is builtins only."""

import importlib
import json
import sys
import threading


def default(obj):
    """The default= callback every call passes."""
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, complex):
        return [obj.real, obj.imag]
    raise TypeError(f"cannot serialize {type(obj).__name__}")


def _outcome(fn, *args, **kwargs):
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - compared with the expected outcome
        return ("error", type(e).__name__, str(e))


def roundtrip(modname, docs, options, repeat=1):
    """For each (doc, option): dumps with default=, then loads that and dumps
    it again. Returns the outcomes of the last repetition, and raises if an
    earlier repetition differed (which would be a race)."""
    mod = importlib.import_module(modname)
    last = None
    for _ in range(repeat):
        out = []
        for doc, option in zip(docs, options):
            first = _outcome(mod.dumps, doc, default=default, option=option)
            if first[0] == "ok":
                second = _outcome(lambda b: mod.dumps(mod.loads(b), default=default, option=option), first[1])
                out.append((first, second))
            else:
                out.append((first, None))
        if last is not None and out != last:
            raise AssertionError("the same calls gave different results in one interpreter")
        last = out
    return last


def threaded_roundtrip(modname, docs, options, n_threads, repeat=1):
    """roundtrip on n_threads threads of this interpreter at once; every
    thread must get the same results."""
    results, errors = [None] * n_threads, []

    def run(i):
        try:
            results[i] = roundtrip(modname, docs, options, repeat)
        except BaseException as e:  # noqa: BLE001
            errors.append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise AssertionError("; ".join(errors))
    if any(r != results[0] for r in results):
        raise AssertionError("threads of one sub-interpreter got different results")
    return results[0]


def smoke(modname):
    """Import the module here and report what this interpreter sees."""
    mod = importlib.import_module(modname)
    try:
        mod.loads(b'{"a": [1, 2.5, "\\u00e9", null]')
    except json.JSONDecodeError as e:
        err = (type(e).__name__, isinstance(e, ValueError), e.msg, e.pos, e.lineno, e.colno)
    else:
        err = None
    return {
        "module_in_sys_modules": sys.modules[modname] is mod,
        "decode_error_subclass": issubclass(mod.JSONDecodeError, json.JSONDecodeError),
        "dumps": mod.dumps({"a": [1, 2.5, "é", None, {3, 1}]}, default=default),
        "loads": mod.loads('{"a": [1, 2.5, "\\u00e9", null]}'),
        "error": err,
        "encode_error": _outcome(mod.dumps, object())[1:],
    }
