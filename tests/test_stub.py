"""isojson's type stub (isojson/__init__.pyi) against the module it describes,
and what mypy makes of typed code: mypy.stubtest compares the stub with the
imported module (names, signatures, positional-only parameters, final types,
option values); mypy --strict must accept tests/typing/typed_ok.py and the
CLI's own source, and report exactly the errors written in
tests/typing/typed_wrong.py. Also the docstrings help() shows.

mypy and stubtest run in a child with the working directory in a temporary
directory, and find isojson as any program would (sys.path: the built package
in the repository, or an installed wheel)."""

import inspect
import os
import re
import subprocess
import sys

import pytest

import isojson

TYPING_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "typing")
TYPED_OK = os.path.join(TYPING_DIR, "typed_ok.py")
TYPED_WRONG = os.path.join(TYPING_DIR, "typed_wrong.py")
ALLOWLIST = os.path.join(TYPING_DIR, "stubtest-allowlist.txt")
PACKAGE_DIR = os.path.dirname(isojson.__file__)
CLI_SOURCE = os.path.join(PACKAGE_DIR, "__main__.py")


def _run(args, cwd, timeout=300):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout)


def test_stub_and_marker_ship_beside_the_module():
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "__init__.pyi"))
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "py.typed"))
    assert os.path.isfile(CLI_SOURCE)


def test_stubtest_finds_no_difference(tmp_path):
    r = _run(["-m", "mypy.stubtest", "--allowlist", ALLOWLIST, "isojson"], tmp_path)
    assert r.returncode == 0, f"stubtest exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    # Not a pass by checking nothing: the package and its submodules were compared.
    assert re.search(r"Success: no issues found in [1-9]\d* modules?", r.stdout), r.stdout


def _expected_errors(path):
    """{(line, "message  [code]")} from the "# E: ..." comments of path."""
    want = set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            for message in re.findall(r"#\s*E:\s*(.*?)\s*(?=#\s*E:|$)", line):
                want.add((number, message))
    return want


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory):
    """mypy --strict over the samples and the CLI's source, run once: its
    errors as {file: {(line, message)}}, notes left out."""
    files = [TYPED_OK, TYPED_WRONG, CLI_SOURCE]
    r = _run(["-m", "mypy", "--strict", "--cache-dir", os.devnull, "--show-error-codes", "--no-error-summary",
              "--hide-error-context", "--no-color-output", "--no-pretty", *files], tmp_path_factory.mktemp("mypy"))
    errors = {os.path.realpath(f): set() for f in files}
    unparsed = []
    for line in r.stdout.splitlines():
        m = re.fullmatch(r"(.+?):(\d+): (error|note): (.*)", line)
        if m is None:
            unparsed.append(line)
        elif m[3] == "error":
            errors.setdefault(os.path.realpath(m[1]), set()).add((int(m[2]), m[4]))
    # Exit 1 is "errors found" (typed_wrong.py has them); anything else is mypy failing.
    assert r.returncode == 1 and not unparsed and not r.stderr, f"mypy exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return errors


def test_mypy_accepts_typed_use(mypy_errors):
    assert mypy_errors[os.path.realpath(TYPED_OK)] == set()


def test_mypy_accepts_the_cli_source(mypy_errors):
    assert mypy_errors[os.path.realpath(CLI_SOURCE)] == set()


def test_mypy_reports_exactly_the_expected_errors(mypy_errors):
    want = _expected_errors(TYPED_WRONG)
    assert len(want) >= 20, "the expectations were not read"
    got = mypy_errors[os.path.realpath(TYPED_WRONG)]
    assert not (want - got), f"errors mypy did not report: {sorted(want - got)}"
    assert not (got - want), f"errors nobody expected: {sorted(got - want)}"


def test_mypy_reports_nothing_elsewhere(mypy_errors):
    """No error in a file that was not given (the stub itself, say)."""
    given = {os.path.realpath(f) for f in (TYPED_OK, TYPED_WRONG, CLI_SOURCE)}
    assert {f: e for f, e in mypy_errors.items() if f not in given} == {}


def test_signatures_are_introspectable():
    assert str(inspect.signature(isojson.dumps)) == "(obj, /, default=None, option=None)"
    assert str(inspect.signature(isojson.loads)) == "(obj, /)"
    assert str(inspect.signature(isojson.Fragment)) == "(contents, /)"


@pytest.mark.parametrize("name, words", [
    ("dumps", ("bytes", "default", "option", "OPT_INDENT_2", "JSONEncodeError", "TypeError", "__cause__")),
    ("loads", ("bytes", "bytearray", "memoryview", "str", "JSONDecodeError", "1024")),
    ("Fragment", ("bytes", "str", "dumps")),
    ("JSONDecodeError", ("json.JSONDecodeError",)),
])
def test_docstrings_say_what_the_call_does(name, words):
    doc = inspect.getdoc(getattr(isojson, name))
    assert doc and len(doc) > 60, doc
    missing = [w for w in words if w not in doc]
    assert not missing, f"{name}.__doc__ does not mention {missing}:\n{doc}"
