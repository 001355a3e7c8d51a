"""isojson's PEP 517 build backend (pyproject.toml: build-backend, backend-path).

`pip install .` (or of the sdist) builds the Go engine and the C extension
for the interpreter pip runs under, from its sysconfig (include directory,
EXT_SUFFIX, CC; $CC overrides), and installs them as a wheel tagged
cp314-cp314-linux_<machine>: a build for this machine, not a manylinux wheel
(`make wheel` makes those). It needs nothing from PyPI: Go >= 1.26 and a C
compiler, and a missing one is said in one sentence. Warnings of the user's
compiler do not fail the build, unless asked (`pip install -C werror=true .`,
as the project's own tests do).

The work is isojson_build's, which `make` uses too: one builder.
"""

import os
import sys
import tempfile

from isojson_build import BuildError, distinfo, objects, sdist, target, wheel
from isojson_build.project import Project


def _werror(config_settings):
    return str((config_settings or {}).get("werror", "")).lower() in ("1", "true", "yes")


def _fail(e):
    # One sentence, no traceback: pip shows the backend's output when a hook fails.
    print(f"error: {e}", file=sys.stderr)
    raise SystemExit(1)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    try:
        t = target.from_interpreter(werror=False)
        return distinfo.write_metadata(Project(), metadata_directory, [t.tag])
    except BuildError as e:
        _fail(e)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    try:
        project = Project()
        t = target.from_interpreter(werror=_werror(config_settings))
        with tempfile.TemporaryDirectory(prefix="isojson-wheel-") as stage:
            objects.build(project, t, stage, strip=True)
            return os.path.basename(wheel.write_wheel(project, stage, wheel_directory, t.tag))
    except BuildError as e:
        _fail(e)


def build_sdist(sdist_directory, config_settings=None):
    try:
        return os.path.basename(sdist.write_sdist(Project(), sdist_directory))
    except BuildError as e:
        _fail(e)
