"""A staged package zipped into a wheel (the binary distribution format):
the package's files, then the .dist-info with RECORD last, every entry with
a fixed date (SOURCE_DATE_EPOCH when set), so that the same build gives the
same bytes."""

import csv
import io
import os
import time
import zipfile

from .distinfo import record_hash_bytes, write_dist_info


def wheel_name(project, tag):
    return f"{project.dist_name}-{project.version}-{tag}.whl"


def _date():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return time.gmtime(max(int(epoch), 315532800))[:6]   # the zip format starts at 1980
    return (1980, 1, 1, 0, 0, 0)


def write_wheel(project, stage, dist_dir, tag):
    """Writes dist_dir/NAME-VERSION-TAG.whl from stage; returns its path."""
    files = write_dist_info(project, stage, [tag])
    os.makedirs(dist_dir, exist_ok=True)
    path = os.path.join(dist_dir, wheel_name(project, tag))
    tmp = f"{path}.tmp.{os.getpid()}"
    date = _date()
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for rel in files:
                src = os.path.join(stage, *rel.split("/"))
                info = zipfile.ZipInfo(rel, date_time=date)
                mode = 0o755 if os.access(src, os.X_OK) else 0o644
                info.external_attr = (0o100000 | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(src, "rb") as f:
                    z.writestr(info, f.read(), compresslevel=6)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return path


def check_record(path):
    """The problems of a wheel's RECORD: a file missing from it or listed
    with another hash or size, or a listed file missing from the wheel."""
    out = []
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if not n.endswith("/")]
        records = [n for n in names if n.endswith(".dist-info/RECORD") and n.count("/") == 1]
        if len(records) != 1:
            return [f"{path}: {len(records)} RECORD files"]
        rows = {row[0]: row[1:] for row in csv.reader(io.StringIO(z.read(records[0]).decode("utf-8"))) if row}
        for n in names:
            if n not in rows:
                out.append(f"{path}: {n} is not in RECORD")
            elif n != records[0]:
                data = z.read(n)
                digest, size = rows[n][0], rows[n][1]
                if digest != record_hash_bytes(data) or size != str(len(data)):
                    out.append(f"{path}: {n} does not match its RECORD hash and size")
        for n in rows:
            if n not in names:
                out.append(f"{path}: RECORD lists {n}, which the wheel lacks")
    return out
