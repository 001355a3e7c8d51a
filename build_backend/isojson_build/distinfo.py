"""The .dist-info directory of the binary distribution format (PEP 427, PEP
639): METADATA, WHEEL, the licence files and RECORD, written next to the
package in a staging directory. The wheel is that directory zipped; the
development build (build/python) gets the same, so importlib.metadata sees
the version there too."""

import base64
import hashlib
import os
import shutil

from . import BuildError
from .objects import PACKAGE

GENERATOR = "isojson_build"


def dist_info_name(project):
    return f"{project.dist_name}-{project.version}.dist-info"


def wheel_text(project, tags):
    lines = ["Wheel-Version: 1.0", f"Generator: {GENERATOR} {project.version}", "Root-Is-Purelib: false"]
    lines += [f"Tag: {t}" for t in tags]
    return "\n".join(lines) + "\n"


def record_hash(path):
    """RECORD's hash of a file: sha256=, then the digest in urlsafe base64 without padding."""
    with open(path, "rb") as f:
        return record_hash_bytes(f.read())


def record_hash_bytes(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def write_metadata(project, directory, tags):
    """METADATA and WHEEL into directory/NAME-VERSION.dist-info (also the
    PEP 517 prepare_metadata_for_build_wheel hook's answer). Returns its name."""
    name = dist_info_name(project)
    d = os.path.join(directory, name)
    os.makedirs(d, exist_ok=True)
    _write(os.path.join(d, "METADATA"), project.metadata())
    _write(os.path.join(d, "WHEEL"), wheel_text(project, tags))
    return name


def write_dist_info(project, stage, tags):
    """The complete .dist-info for the package staged in stage, RECORD last.
    Returns the files of the distribution (paths relative to stage, '/'
    separated), RECORD included, in the order a wheel stores them."""
    for old in os.listdir(stage):
        if old.endswith(".dist-info") and old.startswith(project.dist_name + "-"):
            shutil.rmtree(os.path.join(stage, old))
    name = write_metadata(project, stage, tags)
    d = os.path.join(stage, name)
    for lic in project.license_files:
        dst = os.path.join(d, "licenses", lic)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(project.root, lic), dst)
    files = package_files(stage) + sorted(_walk(stage, name))
    record = f"{name}/RECORD"
    lines = []
    for rel in files:
        path = os.path.join(stage, *rel.split("/"))
        lines.append(f"{_csv(rel)},{record_hash(path)},{os.path.getsize(path)}")
    lines.append(f"{_csv(record)},,")
    _write(os.path.join(d, "RECORD"), "\n".join(lines) + "\n")
    return files + [record]


def package_files(stage):
    """The package's files in stage (the build's work files and bytecode left out)."""
    files = sorted(f for f in _walk(stage, PACKAGE) if "__pycache__/" not in f and ".tmp." not in f)
    if not files:
        raise BuildError(f"nothing staged in {os.path.join(stage, PACKAGE)}")
    return files


def _walk(stage, top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(stage, top)):
        dirnames.sort()
        for f in sorted(filenames):
            yield os.path.relpath(os.path.join(dirpath, f), stage).replace(os.sep, "/")


def _csv(field):
    return f'"{field}"' if any(c in field for c in ',"\n') else field


def _write(path, text):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)
