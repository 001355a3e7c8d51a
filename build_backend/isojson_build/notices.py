"""THIRD_PARTY_NOTICES.md: the licence of every piece of other people's work
that isojson ships or vendors, with its text, written from the Go module
cache so that it cannot drift from go.mod:

- the Go runtime and standard library and the Go modules linked into the
  engine (`go list -deps ./pyshim/engine` for linux/amd64 and linux/arm64);
- the modules `go mod vendor` puts into the sdist (a superset: the tests'
  packages count too);
- the test data in the repository (neither in the wheel nor in the sdist).

`python3 -m isojson_build notices` rewrites the file, `--check` fails when it
is not what the module cache gives (make test runs that), and the sdist
build fails when a vendored module has no notice.
"""

import json
import os
import re
import subprocess
import tempfile

from . import BuildError
from .objects import ENGINE_PACKAGE
from .toolchain import find_go

FILE = "THIRD_PARTY_NOTICES.md"
ENGINE_PLATFORMS = [("linux", "amd64"), ("linux", "arm64")]
# Licence files: at a module's root, in a licenses/ folder there (sonic keeps the licences of the
# code it derives from there), and in any vendored package folder (klauspost/compress/s2, say).
_LICENCE_NAME = re.compile(r"(LICEN[CS]E|COPYING|NOTICE|PATENTS)([-_.][\w.-]*)?", re.I)
# The test data's licences, by folder (testdata/README.md says where each part comes from).
TEST_DATA = [
    ("testdata/JSONTestSuite/", "nst/JSONTestSuite: the parsing cases", "testdata/JSONTestSuite/LICENSE"),
    ("testdata/corpus/, testdata/roundtrip/",
     "miloyip/nativejson-benchmark: the four benchmark documents and the round-trip documents",
     "testdata/LICENSE-nativejson-benchmark"),
]


def spdx(text):
    """The SPDX identifiers of the licences a licence file's text holds (a file may hold several)."""
    ids = []
    if re.search(r"Apache License\s+Version 2\.0", text):
        ids.append("Apache-2.0")
    if "Permission is hereby granted, free of charge, to any person obtaining" in text:
        ids.append("MIT")
    if "Redistribution and use in source and binary forms" in text:
        ids.append("BSD-3-Clause" if "Neither the name" in text or "names of its contributors" in text
                   else "BSD-2-Clause")
    if "Boost Software License" in text:
        ids.append("BSL-1.0")
    if re.search(r"Additional IP Rights Grant \(Patents\)", text):
        ids.append("patent grant")
    return ids or ["see text"]


def _go(go, args, root, **env):
    e = dict(os.environ, GOTOOLCHAIN="local", **env)
    try:
        return subprocess.run([go, *args], cwd=root, env=e, capture_output=True, text=True, check=True).stdout
    except subprocess.CalledProcessError as err:
        raise BuildError(f"go {' '.join(args)} failed: {(err.stderr or '').strip()[-500:]}") from None


def linked_modules(go, root):
    """Module path → the GOOS/GOARCH whose engine links it."""
    out = {}
    for goos, goarch in ENGINE_PLATFORMS:
        extra = {"GOEXPERIMENT": "simd"} if goarch == "amd64" else {}
        text = _go(go, ["list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}{{end}}{{end}}",
                        ENGINE_PACKAGE], root, GOOS=goos, GOARCH=goarch, CGO_ENABLED="1", **extra)
        for m in sorted(set(filter(None, text.splitlines()))):
            out.setdefault(m, []).append(f"{goos}/{goarch}")
    return out


def vendored_modules(go, root):
    """The modules `go mod vendor` copies, with the package folders it copies
    of each (it takes every platform's imports, so it is asked itself)."""
    with tempfile.TemporaryDirectory(prefix="isojson-vendor-") as tmp:
        _go(go, ["mod", "vendor", "-o", os.path.join(tmp, "vendor")], root)
        return read_modules_txt(os.path.join(tmp, "vendor", "modules.txt"))


def read_modules_txt(path):
    """vendor/modules.txt → {module path: set of its vendored packages}."""
    out, mod = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                mod = line[2:].split()[0]
                out.setdefault(mod, set())
            elif line and not line.startswith("#") and mod:
                out[mod].add(line)
    return out


def module_dirs(go, root):
    text = _go(go, ["list", "-m", "-json", "all"], root)
    out = {}
    for chunk in re.split(r"(?<=\})\s*(?=\{)", text.strip()):
        m = json.loads(chunk)
        if not m.get("Main"):
            out[m["Path"]] = (m.get("Version", ""), m.get("Dir", ""))
    return out


def licence_files(mod, mod_dir, packages):
    """A module's licence files, relative to its folder: at its root, in
    licenses/, and in the folders of the packages that are vendored."""
    found = set()
    if not mod_dir or not os.path.isdir(mod_dir):
        raise BuildError(f"the Go module {mod} is not in the module cache (run go mod download)")
    dirs = {"", "licenses"} | {os.path.relpath(p, mod) if p != mod else "" for p in packages}
    for d in sorted(dirs):
        full = os.path.join(mod_dir, d)
        if os.path.isdir(full):
            for f in os.listdir(full):
                if _LICENCE_NAME.fullmatch(f) and os.path.isfile(os.path.join(full, f)):
                    found.add(os.path.normpath(os.path.join(d, f)))
    if not any(re.match(r"(.*/)?LICEN[CS]E", f, re.I) for f in found):
        raise BuildError(f"the Go module {mod} has no licence file in {mod_dir}")
    return sorted(found, key=lambda f: (f.count("/"), f.lower()))


def _block(text):
    return "````text\n" + text.rstrip("\n") + "\n````\n"


def generate(root):
    go = find_go()
    goroot = _go(go, ["env", "GOROOT"], root).strip()
    linked = linked_modules(go, root)
    vendored = vendored_modules(go, root)
    dirs = module_dirs(go, root)
    mods = sorted(set(linked) | set(vendored))
    entries = []
    for mod in mods:
        version, mod_dir = dirs[mod]
        files = licence_files(mod, mod_dir, vendored.get(mod, set()))
        texts = []
        for f in files:
            with open(os.path.join(mod_dir, f), encoding="utf-8", errors="replace") as fh:
                texts.append((f, fh.read()))
        ids = []
        for _, t in texts:
            ids += [i for i in spdx(t) if i not in ids]
        entries.append((mod, version, ids, linked.get(mod, []), mod in vendored, texts))

    out = ["# Third-party notices", "",
           "isojson's own code is under the MIT licence (`LICENSE`). The Go engine in the wheel",
           "(`isojson/libisojson_engine.so.0`) is a Go program: it contains the Go runtime and standard library",
           "and the Go modules below marked *engine*. The sdist carries the sources of the modules marked",
           "*sdist* in `vendor/` (`go mod vendor`). Each licence follows, as its authors wrote it.",
           "",
           f"Written by `python3 -m isojson_build notices` from go.mod and the Go module cache; `make test`",
           "checks that it is current.",
           "",
           "| component | version | licence | in |", "|---|---|---|---|",
           "| Go runtime and standard library | the Go that builds the engine (1.26 or newer) | BSD-3-Clause, "
           "patent grant | engine |"]
    for mod, version, ids, platforms, in_sdist, _ in entries:
        where = []
        if platforms:
            where.append("engine (" + ", ".join(platforms) + ")")
        if in_sdist:
            where.append("sdist")
        out.append(f"| {mod} | {version} | {', '.join(ids)} | {'; '.join(where)} |")
    out += ["| test data (repository only) | | MIT | neither: see the last section |", ""]

    out += ["## Go runtime and standard library", ""]
    for f in ("LICENSE", "PATENTS"):
        with open(os.path.join(goroot, f), encoding="utf-8") as fh:
            out += [f"`{f}` of the Go distribution:", "", _block(fh.read())]
    for mod, version, ids, _, _, texts in entries:
        out += [f"## {mod} {version}", ""]
        for f, t in texts:
            out += [f"`{f}`:", "", _block(t)]
    out += ["## Test data (in the repository only; neither the wheel nor the sdist holds it)", ""]
    for where, what, lic in TEST_DATA:
        with open(os.path.join(root, lic), encoding="utf-8") as fh:
            out += [f"{where} ({what}), `{lic}`:", "", _block(fh.read())]
    out += ["`testdata/transform/` was written for this project; `testdata/golden/` and `testdata/orjson/` are",
            "orjson 3.13's outputs and messages, recorded by `scripts/gen_golden.py` and",
            "`scripts/gen_orjson_errors.py`.", ""]
    return "\n".join(out)


def check(root):
    """The problems of THIRD_PARTY_NOTICES.md: not what generate() writes."""
    path = os.path.join(root, FILE)
    want = generate(root)
    try:
        with open(path, encoding="utf-8") as f:
            have = f.read()
    except FileNotFoundError:
        return [f"{FILE} does not exist (python3 -m isojson_build notices writes it)"]
    if have != want:
        return [f"{FILE} is not current: go.mod's modules or their licences changed "
                "(python3 -m isojson_build notices rewrites it)"]
    return []


def modules_listed(root, modules):
    """The modules (paths) that THIRD_PARTY_NOTICES.md has no section for."""
    with open(os.path.join(root, FILE), encoding="utf-8") as f:
        text = f.read()
    return [m for m in modules if not re.search(rf"^## {re.escape(m)} ", text, re.M)]
