"""Build variants: the same sources and the same builder, with C flags that
check more than a release build does. Only the C extension differs; the Go
engine is built as for a release (the race detector and go test check it).

    release  what ships (objects.C_FLAGS: -O2, -DNDEBUG)
    debug    for a Py_DEBUG interpreter (Debian's python3.14-dbg, ABI cp314d) or any
             other: C asserts on (-UNDEBUG, so CPython's inline functions keep theirs
             too), -Og -g
    asan     AddressSanitizer and UndefinedBehaviorSanitizer (gcc), for the release
             interpreter, which is not instrumented: libasan must be loaded first
             (LD_PRELOAD, scripts/asan-env); C asserts on, -O1 -g, frame pointers

A variant other than release is a build for this machine (tag linux_<machine>,
not stripped, so that a report names functions and lines), kept apart from
release builds (build/variants/NAME/). Its warnings fail it, maybe-uninitialized
too: the variants are compiled by the Python root's gcc, not a user's.
"""

from . import BuildError

VARIANTS = {
    "release": [],
    "debug": ["-UNDEBUG", "-Og", "-g"],
    # -fno-sanitize-recover: a UBSan finding ends the process (as an ASan one does), so that a
    # test cannot pass over it; UBSAN_OPTIONS=halt_on_error=1 says the same at run time.
    "asan": ["-UNDEBUG", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
             "-fno-sanitize-recover=all"],
}


def cflags(name):
    """The C flags variant name adds after the release ones (later flags win)."""
    if name not in VARIANTS:
        raise BuildError(f"no build variant {name!r} (there are {', '.join(VARIANTS)})")
    return list(VARIANTS[name])
