"""python -m isojson, the command line (isojson/__main__.py), run as a user
runs it: `sys.executable -m isojson` in a child process whose working
directory is a temporary directory, finding isojson the normal way (sys.path:
the built package, or an installed wheel). Output is checked byte for byte
against orjson's dumps of orjson's loads; errors by their exact text, exit
status and what is left in the output file."""

import json
import os
import subprocess
import sys

from _util import orjson  # on 3.14t a stand-in that skips what needs orjson (_util.py)
import pytest

import isojson
import isojson.__main__ as cli

import _util

TIMEOUT = 120
USAGE_ERROR = 2
BROKEN_PIPE = 141

# Text with what reformatting must keep: escapes decoded and re-encoded the
# orjson way, non-ASCII (written raw), floats, 64-bit edges, empty containers,
# key order. json.dumps's ensure_ascii output holds the non-ASCII as \u escapes.
DOCUMENT = {
    "name": "café ☕ 日本 😀",
    "escapes": "tab\tquote\"back\\slash\u0001\u2028",
    "ints": [0, -1, 2**63 - 1, -2**63, 2**64 - 1],
    "floats": [0.1, 1e16, 100.0, -0.0, 1.5e-7, 0.30000000000000004],
    "nested": {"z": {"y": [True, False, None]}, "a": []},
    "empty": {},
}
TEXT = json.dumps(DOCUMENT, indent=3).encode()


def run(cwd, *args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "isojson", *map(str, args)], input=stdin, capture_output=True,
                          cwd=cwd, timeout=TIMEOUT)


def expected(text, option=orjson.OPT_INDENT_2):
    return orjson.dumps(orjson.loads(text), option=option | orjson.OPT_APPEND_NEWLINE)


def ok(r):
    assert r.returncode == 0 and r.stderr == b"", (r.returncode, r.stderr)
    return r.stdout


def fails(r, status, stderr):
    assert (r.returncode, r.stderr.decode()) == (status, stderr)
    return r.stdout


def prog(r):
    """The program name in a usage error (argparse's, as the child saw it)."""
    first = r.stderr.decode().splitlines()[-1]
    return first.split(": error:")[0]


@pytest.fixture
def tmp(tmp_path):
    doc = tmp_path / "doc.json"
    doc.write_bytes(TEXT)
    return tmp_path


# ---------------------------------------------------------------------------
# The module the command line runs, and its help


def test_runs_the_isojson_under_test(tmp):
    r = subprocess.run([sys.executable, "-c", "import isojson.__main__ as m, isojson; print(m.__file__)"],
                       capture_output=True, text=True, cwd=tmp, timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr
    assert os.path.dirname(r.stdout.strip()) == os.path.dirname(isojson.__file__)
    assert ok(run(tmp, "--version")) == f"isojson {isojson.__version__}\n".encode()


def test_importing_the_module_runs_nothing(tmp):
    # stubtest and pydoc import isojson.__main__: it must not read stdin or exit.
    r = subprocess.run([sys.executable, "-c", "import isojson.__main__; print('imported')"], input=b"[1",
                       capture_output=True, cwd=tmp, timeout=TIMEOUT)
    assert ok(r) == b"imported\n"


def test_help(tmp):
    out = ok(run(tmp, "--help")).decode()
    assert out.startswith("usage: ") and "-m isojson [options] [infile [outfile]]" in out
    for option in ("--indent 2", "--compact", "--sort-keys", "--json-lines", "--validate", "--no-ensure-ascii",
                   "--version", "infile [outfile]"):
        assert option in out, option
    # What json.tool users need to know, said in the help itself.
    for words in ("only 2", "OPT_INDENT_2", "--tab and --no-indent are not", "always UTF-8", "FILE:LINE:COL: MESSAGE",
                  "exit status", "141"):
        assert words in " ".join(out.split()), words


# ---------------------------------------------------------------------------
# Reformatting: orjson's bytes


@pytest.mark.parametrize("args, option", [
    ((), orjson.OPT_INDENT_2),
    (("--indent", "2"), orjson.OPT_INDENT_2),
    (("--compact",), 0),
    (("--sort-keys",), orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS),
    (("--compact", "--sort-keys"), orjson.OPT_SORT_KEYS),
    (("--no-ensure-ascii",), orjson.OPT_INDENT_2),
])
def test_reformat_file_to_stdout(tmp, args, option):
    assert ok(run(tmp, *args, "doc.json")) == expected(TEXT, option)


def test_stdin_to_stdout_and_dash_names(tmp):
    assert ok(run(tmp, "--compact", stdin=TEXT)) == expected(TEXT, 0)
    assert ok(run(tmp, "--compact", "-", stdin=TEXT)) == expected(TEXT, 0)
    assert ok(run(tmp, "--compact", "-", "-", stdin=TEXT)) == expected(TEXT, 0)


def test_file_to_file(tmp):
    assert ok(run(tmp, "--sort-keys", "doc.json", "out.json")) == b""
    assert (tmp / "out.json").read_bytes() == expected(TEXT, orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    assert ok(run(tmp, "--compact", "-", "out.json", stdin=b"[1, 2]")) == b""
    assert (tmp / "out.json").read_bytes() == b"[1,2]\n"


def test_in_place(tmp):
    assert ok(run(tmp, "--compact", "doc.json", "doc.json")) == b""
    assert (tmp / "doc.json").read_bytes() == expected(TEXT, 0)
    lines = tmp / "lines.jsonl"
    # (A lone \r is JSON whitespace, not a line break, read whole as when streaming.)
    lines.write_bytes(b'[1,\r 2]\n{"a": 3}\n')
    assert ok(run(tmp, "--json-lines", "--compact", "lines.jsonl", "lines.jsonl")) == b""
    assert lines.read_bytes() == b'[1,2]\n{"a":3}\n'


def test_isojson_differences_hold_on_the_command_line(tmp):
    # Integers beyond 64 bits keep their digits; duplicate keys: the last wins.
    big = b"[123456789012345678901234567890, -18446744073709551617]"
    assert ok(run(tmp, "--compact", stdin=big)) == big.replace(b" ", b"") + b"\n"
    assert ok(run(tmp, "--compact", stdin=b'{"a": 1, "a": 2}')) == b'{"a":2}\n'


# ---------------------------------------------------------------------------
# Invalid input: FILE:LINE:COL: MESSAGE, exit 1, output file untouched


@pytest.mark.parametrize("text, where", [
    (b"[1,\n  2,,]", "2:5: unexpected character, expected a JSON value"),
    (b'{"a": 1,}', "1:8: trailing comma is not allowed"),
    (b"[1, 2", "1:6: unexpected end of data"),
    (b"[1] [2]", "1:5: unexpected content after document"),
    (b'{"a": NaN}', "1:7: unexpected character, expected a JSON value"),
    (b"[1e400]", "1:2: number is infinity when parsed as double"),
    ("[\n\"é日😀\", x]".encode(), "2:8: unexpected character, expected a JSON value"),  # columns in characters
    (b"[" * 1025 + b"]" * 1025, "1:1026: depth limit exceeded"),
    (b"", "1:1: Input is a zero-length, empty document"),
    (b" \n\t", "1:1: input data is empty"),
    (b"\xef\xbb\xbf[1]", "1:1: UTF-8 byte order mark (BOM) is not supported"),
    # Invalid UTF-8 anywhere, before or after a syntax error: the first bad sequence.
    (b'[1,\n "a\xff"]', "2:4: invalid UTF-8: invalid start byte"),
    (b'[1,,\n "a\xc3("]', "2:4: invalid UTF-8: invalid continuation byte"),
    ('["é", "'.encode() + b"\xe6\x97", "1:8: invalid UTF-8: unexpected end of data"),
    ('"é\ud800"'.encode("utf-8", "surrogatepass"), "1:3: invalid UTF-8: invalid continuation byte"),
])
def test_invalid_document(tmp, text, where):
    (tmp / "bad.json").write_bytes(text)
    (tmp / "out.json").write_bytes(b"kept")
    assert fails(run(tmp, "bad.json", "out.json"), 1, f"bad.json:{where}\n") == b""
    assert (tmp / "out.json").read_bytes() == b"kept"
    assert fails(run(tmp, stdin=text), 1, f"<stdin>:{where}\n") == b""
    assert fails(run(tmp, "--validate", "bad.json"), 1, f"bad.json:{where}\n") == b""


def test_valid_but_too_deep_to_write(tmp):
    # loads takes 1024 levels, dumps writes 254 (as orjson): valid, not writable.
    text = b"[" * 300 + b"]" * 300
    assert ok(run(tmp, "--validate", stdin=text)) == b""
    assert fails(run(tmp, stdin=text), 1,
                 "<stdin>: valid JSON, but isojson.dumps cannot write it: Recursion limit reached\n") == b""


# ---------------------------------------------------------------------------
# --validate


def test_validate_writes_nothing_for_valid_input(tmp):
    assert ok(run(tmp, "--validate", "doc.json")) == b""
    assert ok(run(tmp, "--validate", stdin=TEXT)) == b""


def test_validate_reports_every_file(tmp):
    (tmp / "bad.json").write_bytes(b"[1,]")
    (tmp / "bad2.json").write_bytes(b"\n\n  }")
    r = run(tmp, "--validate", "bad.json", "doc.json", "bad2.json")
    assert fails(r, 1, "bad.json:1:3: trailing comma is not allowed\n"
                       "bad2.json:3:3: unexpected character, expected a JSON value\n") == b""
    # A file that cannot be read is trouble (2), not an answer (1); the others are still checked.
    r = run(tmp, "--validate", "bad.json", "missing.json", "doc.json")
    assert fails(r, USAGE_ERROR, "bad.json:1:3: trailing comma is not allowed\n"
                                 f"{prog(r)}: error: missing.json: No such file or directory\n") == b""


# ---------------------------------------------------------------------------
# --json-lines


def test_json_lines(tmp):
    text = b'{"b": 1, "a": [1, 2]}\n\n  \r\n"caf\\u00e9"\r\n[]\n12345678901234567890123'
    want = b'{"b":1,"a":[1,2]}\n"caf\xc3\xa9"\n[]\n12345678901234567890123\n'
    assert ok(run(tmp, "--json-lines", "--compact", stdin=text)) == want
    assert ok(run(tmp, "--json-lines", "--compact", "--sort-keys", stdin=text)) == want.replace(
        b'{"b":1,"a":[1,2]}', b'{"a":[1,2],"b":1}')
    assert ok(run(tmp, "--json-lines", stdin=b'{"a": [1]}\n[]\n')) == b'{\n  "a": [\n    1\n  ]\n}\n[]\n'
    # Empty input, or blank lines only: no document, no output, no error.
    assert ok(run(tmp, "--json-lines", stdin=b"")) == b""
    assert ok(run(tmp, "--json-lines", "--validate", stdin=b"\n \n\r\n")) == b""


def test_json_lines_stops_at_the_first_invalid_line(tmp):
    (tmp / "in.jsonl").write_bytes(b"[1]\n[2,\n[3]\n")
    out = fails(run(tmp, "--json-lines", "--compact", "in.jsonl"), 1, "in.jsonl:2:4: unexpected end of data\n")
    assert out == b"[1]\n"


def test_json_lines_validate_reports_every_invalid_line(tmp):
    text = b'{"a": 1}\n[1,\n\n{"a" 1}\r\n"\xff"\n  x\n"\xc3\xa9\xc3"\n[1]'
    assert fails(run(tmp, "--json-lines", "--validate", stdin=text), 1,
                 "<stdin>:2:4: unexpected end of data\n"  # at the end of the line, not at the next one's start
                 "<stdin>:4:6: unexpected character, expected ':' after key\n"
                 "<stdin>:5:2: invalid UTF-8: invalid start byte\n"
                 "<stdin>:6:3: unexpected character, expected a JSON value\n"
                 "<stdin>:7:3: invalid UTF-8: invalid continuation byte\n") == b""


# `python -m isojson ARGS...` that writes its own peak RSS in KiB (VmHWM: the high-water mark of
# the address space the exec made) to the file argv[1] at exit. Not wait4's ru_maxrss: Linux keeps
# a process's maximum RSS across execve, and subprocess's vfork shares pytest's address space up to
# the exec, so ru_maxrss is at least pytest's own peak. In make test's pydev part that peak (395 MiB,
# the suite under PYTHONMALLOC=debug) was above every child's, and all three readings were the same
# 404,772 KiB: the test measured nothing (and in a plain run it can be the same whenever pytest has
# grown past the children).
PEAK_RSS_MAIN = """if True:
    import atexit, runpy, sys
    out = sys.argv.pop(1)
    def peak():
        with open("/proc/self/status") as f:
            kib = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
        with open(out, "w") as f:
            f.write(kib)
    atexit.register(peak)
    runpy.run_module("isojson", run_name="__main__", alter_sys=True)
"""


@pytest.mark.slow
def test_json_lines_memory_stays_bounded(tmp):
    """A JSON Lines file is read and written a line at a time: the peak RSS
    of a 64 MiB file stays within a few MiB of that of a file of one line
    (a reading of the whole file would add at least its 64 MiB). Under
    ISOJSON_TEST_SAMPLE (the bounded parts of make test) the file is 32 MiB,
    still twice the bound, so that a whole read still fails it."""
    size = (64 if _util.SAMPLE >= 1 else 32) << 20
    line = isojson.dumps({"id": 1, "name": "x" * 100, "tags": ["a", "b"], "n": 1.5}) + b"\n"
    (tmp / "big.jsonl").write_bytes(line * (size // len(line)))
    (tmp / "one.jsonl").write_bytes(line)

    def peak_rss_kib(*args):
        report = tmp / "peak-rss"
        report.unlink(missing_ok=True)
        with open(os.devnull, "wb") as devnull:
            r = subprocess.run([sys.executable, "-c", PEAK_RSS_MAIN, str(report), *args], stdout=devnull,
                               stderr=subprocess.PIPE, cwd=tmp, timeout=TIMEOUT)
        assert r.returncode == 0 and r.stderr == b"", (args, r.returncode, r.stderr)
        return int(report.read_text())

    baseline = peak_rss_kib("--json-lines", "one.jsonl")
    for args in (("--json-lines", "big.jsonl"), ("--json-lines", "--validate", "big.jsonl")):
        growth = peak_rss_kib(*args) - baseline
        assert growth < 16 << 10, f"{args}: peak RSS {growth} KiB above one line's"
    # And the measure can see a whole read: the same file as one document (an array) costs more than itself.
    (tmp / "big.json").write_bytes(b"[" + b",".join([line.rstrip()] * (size // len(line))) + b"]")
    growth = peak_rss_kib("--validate", "big.json") - baseline
    assert growth > size >> 10, f"a whole read of {size >> 10} KiB: peak RSS {growth} KiB above one line's"


# ---------------------------------------------------------------------------
# Bad options and bad files


@pytest.mark.parametrize("args, message", [
    (("--indent", "4"), "argument --indent: '4': isojson indents by 2 spaces only (orjson's OPT_INDENT_2); "
                        "use --indent 2 or --compact"),
    (("--indent", "x"), "argument --indent: 'x': isojson indents by 2 spaces only (orjson's OPT_INDENT_2); "
                        "use --indent 2 or --compact"),
    (("--indent",), "argument --indent: expected one argument"),
    (("--tab",), "--tab is not offered: isojson writes 2-space indentation (--indent 2, the default) "
                 "or compact output (--compact)"),
    (("--no-indent",), "--no-indent is not offered: isojson writes 2-space indentation (--indent 2, the default) "
                       "or compact output (--compact)"),
    (("--compact", "--indent", "2"), "argument --indent: not allowed with argument --compact"),
    (("--pretty",), "unrecognized arguments: --pretty"),
    (("doc.json", "out.json", "third.json"), "takes one infile and one outfile (several files only with --validate)"),
])
def test_bad_options(tmp, args, message):
    r = run(tmp, *args, stdin=TEXT)
    assert r.returncode == USAGE_ERROR and r.stdout == b""
    err = r.stderr.decode()
    assert err.startswith("usage: ") and err.endswith(f"{prog(r)}: error: {message}\n"), err
    assert not (tmp / "out.json").exists()


def test_bad_files(tmp):
    r = run(tmp, "missing.json", "out.json")
    assert fails(r, USAGE_ERROR, f"{prog(r)}: error: missing.json: No such file or directory\n") == b""
    r = run(tmp, "--json-lines", "missing.json", "out.json")
    assert fails(r, USAGE_ERROR, f"{prog(r)}: error: missing.json: No such file or directory\n") == b""
    assert not (tmp / "out.json").exists(), "a missing input must not create the output"
    (tmp / "adir").mkdir()
    r = run(tmp, "adir")
    assert fails(r, USAGE_ERROR, f"{prog(r)}: error: adir: Is a directory\n") == b""
    r = run(tmp, "doc.json", "adir")
    assert fails(r, USAGE_ERROR, f"{prog(r)}: error: adir: Is a directory\n") == b""
    r = run(tmp, "--json-lines", "doc.json", "no/such/dir/out.jsonl")
    assert fails(r, USAGE_ERROR, f"{prog(r)}: error: no/such/dir/out.jsonl: No such file or directory\n") == b""


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
@pytest.mark.parametrize("json_lines", [False, True], ids=["document", "json-lines"])
def test_broken_pipe_to_head(tmp, json_lines, unbuffered):
    """`python -m isojson big | head -n 3`: head gets its lines, isojson
    stops quietly with 141 (as a filter killed by SIGPIPE), no traceback.
    Also under PYTHONUNBUFFERED, where sys.stdout.buffer's write() writes only
    what one system call takes (a writer that ignored its count lost the
    rest and exited 0)."""
    rows = [{"i": i, "name": f"row {i}"} for i in range(100_000)]
    if json_lines:
        (tmp / "big").write_bytes(b"".join(isojson.dumps(r) + b"\n" for r in rows))
        args, want = ("--json-lines", "--compact", "big"), b'{"i":0,"name":"row 0"}\n{"i":1,"name":"row 1"}\n{"i":2,"name":"row 2"}\n'
    else:
        (tmp / "big").write_bytes(isojson.dumps(rows))
        args, want = ("big",), b'[\n  {\n    "i": 0,\n'
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    producer = subprocess.Popen([sys.executable, "-m", "isojson", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=tmp, env=env)
    head = subprocess.Popen(["head", "-n", "3"], stdin=producer.stdout, stdout=subprocess.PIPE)
    producer.stdout.close()
    try:
        out, _ = head.communicate(timeout=TIMEOUT)
        err = producer.stderr.read()
        producer.wait(timeout=TIMEOUT)
    finally:
        for p in (producer, head):
            if p.poll() is None:
                p.kill()
                p.wait()
        producer.stderr.close()
    assert out == want
    assert (producer.returncode, err) == (BROKEN_PIPE, b"")


# ---------------------------------------------------------------------------
# The search for the first invalid UTF-8 sequence, a chunk at a time


@pytest.mark.parametrize("chunk", [1, 2, 3, 4, 5, 7, 64])
def test_utf8_error_across_chunks(monkeypatch, chunk):
    monkeypatch.setattr(cli, "UTF8_CHUNK", chunk)
    samples = [b"", b"abc", "é日😀".encode(), b"ab\xff", "é日".encode() + b"\xe6\x97", b"\xc3(", "x😀".encode()[:-1],
               "日".encode() * 5 + b"\xed\xa0\x80", b"a" * 10 + b"\x80"]
    for data in samples:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            want = (e.start, e.reason)
        else:
            want = None
        assert cli._utf8_error(data) == want, (data, chunk)
