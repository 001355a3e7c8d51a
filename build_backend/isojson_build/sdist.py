"""The source distribution: what `pip install isojson-X.tar.gz` needs to
build, with no network, given Go and a C compiler.

    isojson-X/PKG-INFO, pyproject.toml, README.md, CHANGELOG.md, LICENSE, THIRD_PARTY_NOTICES.md
    isojson-X/build_backend/          the PEP 517 backend and this builder
    isojson-X/pyshim/                 the extension's C and Python files and the engine's package
    isojson-X/<the engine's Go packages in this module>   (go list -deps, for every engine platform)
    isojson-X/go.mod, go.sum, vendor/ the Go modules (`go mod vendor`): the build uses -mod=vendor
    isojson-X/docs/                   the engineering notes the README links to

The tests and their data stay in the repository (tens of megabytes, and they
need orjson as the oracle). The archive is deterministic: sorted, owned by
root, dated SOURCE_DATE_EPOCH (else 2000-01-01).
"""

import gzip
import io
import os
import subprocess
import tarfile
import tempfile

from . import BuildError
from .objects import ENGINE_PACKAGE, PYSHIM, vendored
from .notices import ENGINE_PLATFORMS, modules_listed, read_modules_txt
from .toolchain import find_go

TOP_FILES = ["pyproject.toml", "README.md", "CHANGELOG.md", "go.mod", "go.sum"]
TOP_DIRS = ["build_backend", PYSHIM, "docs"]


def _tracked(root):
    """The repository's files (git ls-files), else every file under root."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                             capture_output=True, check=True).stdout
        files = [f for f in out.decode("utf-8").split("\0") if f and os.path.isfile(os.path.join(root, f))]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", "build", "dist", "__pycache__")]
        out += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames]
    return out


def engine_package_dirs(go, root):
    """The folders (relative to root) of the module's own packages the engine
    imports, on every platform the engine is built for."""
    dirs = set()
    for goos, goarch in ENGINE_PLATFORMS:
        env = dict(os.environ, GOOS=goos, GOARCH=goarch, CGO_ENABLED="1", GOTOOLCHAIN="local")
        if goarch == "amd64":
            env["GOEXPERIMENT"] = "simd"
        if vendored(root):
            env["GOFLAGS"] = "-mod=vendor"
        try:
            out = subprocess.run([go, "list", "-deps", "-f", "{{with .Module}}{{if .Main}}{{$.Dir}}{{end}}{{end}}",
                                  ENGINE_PACKAGE], cwd=root, env=env, capture_output=True, text=True,
                                 check=True).stdout
        except subprocess.CalledProcessError as e:
            raise BuildError(f"go list {ENGINE_PACKAGE} failed: {e.stderr.strip()[-300:]}") from None
        dirs |= {os.path.relpath(d, root) for d in out.split()}
    return dirs


def _included(rel, go_dirs, license_files):
    parts = rel.split("/")
    if "__pycache__" in parts or rel.endswith((".pyc", ".so", ".o")) or "testdata" in parts[:-1]:
        return False
    if rel.endswith("_test.go"):
        return False
    if len(parts) == 1:
        return rel in TOP_FILES or rel in license_files
    if parts[0] in TOP_DIRS:
        return True
    return "/".join(parts[:-1]) in go_dirs


def _vendor(go, root, dest):
    """go mod vendor into dest/vendor (from the module cache, else the proxy)."""
    env = dict(os.environ, GOTOOLCHAIN="local")
    p = subprocess.run([go, "mod", "vendor", "-o", os.path.join(dest, "vendor")], cwd=root, env=env,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise BuildError(f"go mod vendor failed (the sdist needs the Go modules: network or module cache): "
                         f"{p.stderr.strip()[-300:]}")
    return os.path.join(dest, "vendor")


def write_sdist(project, dist_dir):
    """Writes dist_dir/NAME-VERSION.tar.gz; returns its path."""
    root = project.root
    go = find_go()
    base = f"{project.dist_name}-{project.version}"
    license_files = project.license_files
    go_dirs = engine_package_dirs(go, root)
    files = sorted(f.replace(os.sep, "/") for f in _tracked(root))
    files = [f for f in files if _included(f, go_dirs, license_files) and not f.startswith("vendor/")]
    missing = [f for f in TOP_FILES + license_files if f not in files]
    if missing:
        raise BuildError(f"the sdist needs {', '.join(missing)}, which the source tree lacks")
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "946684800"))

    def add(tar, arcname, data=None, path=None):
        info = tarfile.TarInfo(f"{base}/{arcname}")
        if path is not None:
            with open(path, "rb") as f:
                data = f.read()
            mode = 0o755 if os.access(path, os.X_OK) else 0o644
        else:
            mode = 0o644
        info.size = len(data)
        info.mtime = epoch
        info.mode = mode
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        tar.addfile(info, io.BytesIO(data))

    os.makedirs(dist_dir, exist_ok=True)
    out = os.path.join(dist_dir, base + ".tar.gz")
    tmp = f"{out}.tmp.{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="isojson-sdist-") as work:
        vendor = os.path.join(root, "vendor") if vendored(root) else _vendor(go, root, work)
        mods = read_modules_txt(os.path.join(vendor, "modules.txt"))
        unlisted = modules_listed(root, sorted(mods))
        if unlisted:
            raise BuildError(f"THIRD_PARTY_NOTICES.md has no notice for the vendored {', '.join(unlisted)} "
                             "(python3 -m isojson_build notices rewrites it)")
        vendor_files = []
        for dirpath, dirnames, filenames in os.walk(vendor):
            dirnames.sort()
            for f in sorted(filenames):
                full = os.path.join(dirpath, f)
                vendor_files.append(("vendor/" + os.path.relpath(full, vendor).replace(os.sep, "/"), full))
        try:
            with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=6) as gz, \
                    tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                add(tar, "PKG-INFO", data=project.metadata().encode("utf-8"))
                for rel in files:
                    add(tar, rel, path=os.path.join(root, *rel.split("/")))
                for rel, full in sorted(vendor_files):
                    add(tar, rel, path=full)
            os.replace(tmp, out)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
    return out
