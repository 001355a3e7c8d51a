"""isojson's build: one builder behind `pip install .` (the PEP 517 hooks in
isojson_backend.py), `make build`, `make wheel` and `make sdist`.

    project.py    pyproject.toml: the name, the version (its one source), the core metadata
    target.py     what one build is for: an interpreter's tags, headers and
                  EXT_SUFFIX, the C compiler, GOARCH, the command prefix (a chroot)
    toolchain.py  finding Go >= 1.26 and the C compiler, or one sentence saying what is missing
    objects.py    the Go engine and the C extension into a staging directory
    variants.py   the build variants' C flags: release, debug (C asserts on), asan (ASan + UBSan)
    distinfo.py   the .dist-info directory: METADATA, WHEEL, licences, RECORD
    wheel.py      the staging directory zipped into a wheel
    sdist.py      the source distribution, with the Go modules vendored
    elf.py        the ELF reader for the tag check: NEEDED libraries, symbol versions
    manylinux.py  the tag an object allows and the check of a wheel's tag
    notices.py    THIRD_PARTY_NOTICES.md from the Go module cache

`python3 -m isojson_build --help` (with build_backend/ on sys.path) lists the
commands the Makefile runs. Standard library only, Python 3.11 or newer (the
host's Python runs it for `make`; pip runs it under the Python it installs for).
"""


class BuildError(Exception):
    """A build that cannot go on, with one sentence for the user."""
