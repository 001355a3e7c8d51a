"""The platform tag shared objects allow, and the check that a wheel's tag
claims no more than that (what auditwheel checks, for what isojson ships).

A manylinux_X_Y tag (PEP 600) promises that the wheel runs on every Linux of
its machine with glibc X.Y or newer. Its objects may therefore need only
libraries that every glibc system has (glibc's own: libc, libm, libdl,
libpthread, librt, libutil, libresolv, libnsl, the dynamic loader), and from
those only symbol versions up to GLIBC_X.Y. The dynamic loader refuses an
object that needs a newer version ("version `GLIBC_2.34' not found"), so the
newest GLIBC_ version any object needs is the oldest glibc the wheel can
claim. Anything else (libstdc++, libgcc_s, libpython, a private glibc
version, an RPATH) fails the check rather than being judged: isojson's
objects need none of them.
"""

import re
import zipfile

from . import elf

# glibc's libraries, present on every glibc system (the dynamic loaders by machine).
GLIBC_LIBRARIES = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libutil.so.1",
                   "libresolv.so.2", "libnsl.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
                   "ld-linux.so.2", "ld-linux-armhf.so.3", "ld64.so.2", "ld64.so.1", "ld-linux-riscv64-lp64d.so.1"}
# The legacy names of PEP 513, 571 and 599.
LEGACY = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def parse_platform(tag):
    """manylinux_2_17_x86_64 → ((2, 17), "x86_64"); manylinux2014_x86_64 too;
    linux_x86_64 → (None, "x86_64")."""
    m = re.fullmatch(r"manylinux_(\d+)_(\d+)_(\w+)", tag)
    if m:
        return (int(m.group(1)), int(m.group(2))), m.group(3)
    m = re.fullmatch(r"(manylinux1|manylinux2010|manylinux2014)_(\w+)", tag)
    if m:
        return LEGACY[m.group(1)], m.group(2)
    m = re.fullmatch(r"linux_(\w+)", tag)
    if m:
        return None, m.group(1)
    raise ValueError(f"not a Linux platform tag: {tag}")


def _glibc(version):
    """GLIBC_2.3.4 → (2, 3); None for other version names."""
    m = re.fullmatch(r"GLIBC_(\d+)\.(\d+)(?:\.\d+)?", version)
    return (int(m.group(1)), int(m.group(2))) if m else None


def glibc_needed(obj):
    """The newest GLIBC_X.Y obj needs, as (X, Y); (0, 0) when none."""
    return max([_glibc(v) for vs in obj.versions.values() for v in vs if _glibc(v)] + [(0, 0)])


def problems(obj, platform_tag):
    """What in obj contradicts platform_tag (an empty list when nothing). A
    linux_<machine> tag (PEP 425: a build for this machine, which promises
    nothing of other systems; the variant wheels of scripts/build wheel
    --variant) allows any library and version: the asan variant needs the
    sanitizers' runtimes, libasan and libubsan."""
    glibc, machine = parse_platform(platform_tag)
    out = []
    if obj.machine != machine:
        out.append(f"{obj.name}: built for {obj.machine}, the tag says {machine}")
    if obj.runpath:
        out.append(f"{obj.name}: has an RPATH/RUNPATH ({':'.join(obj.runpath)})")
    if platform_tag.startswith("linux_"):
        return out
    for lib in obj.needed:
        if lib not in GLIBC_LIBRARIES:
            out.append(f"{obj.name}: needs {lib}, which is not part of glibc (not on every Linux)")
    for lib, versions in sorted(obj.versions.items()):
        for v in sorted(versions):
            if not re.fullmatch(r"GLIBC_\d+\.\d+(\.\d+)?", v) or lib not in GLIBC_LIBRARIES:
                out.append(f"{obj.name}: needs version {v} of {lib}, which no manylinux tag promises")
    need = glibc_needed(obj)
    if glibc is not None and need > glibc:
        newer = sorted(f"{sym}@{v}" for v, syms in obj.symbols.items() for sym in syms
                       if _glibc(v) and _glibc(v) > glibc)
        newer = newer or sorted(v for vs in obj.versions.values() for v in vs if _glibc(v) and _glibc(v) > glibc)
        out.append(f"{obj.name}: needs glibc {need[0]}.{need[1]}, the tag {platform_tag} promises "
                   f"{glibc[0]}.{glibc[1]} (needs {', '.join(newer)})")
    return out


def best_tag(objects, machine):
    """The manylinux tag of the oldest glibc every object runs with."""
    need = max([glibc_needed(o) for o in objects] + [(2, 17) if machine in ("x86_64", "aarch64") else (2, 5)])
    return f"manylinux_{need[0]}_{need[1]}_{machine}"


def shared_objects_of_wheel(path):
    """The ELF files in a wheel, parsed."""
    out = []
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            with z.open(info) as f:
                head = f.read(4)
            if head == b"\x7fELF":
                out.append(elf.read(z.read(info), info.filename))
    return out


def wheel_tags(path):
    """The Tag lines of a wheel's WHEEL file."""
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if re.fullmatch(r"[^/]+\.dist-info/WHEEL", n)]
        if len(names) != 1:
            raise ValueError(f"{path}: {len(names)} .dist-info/WHEEL files")
        text = z.read(names[0]).decode("utf-8")
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Tag:")]


def check_wheel(path):
    """Every problem of the wheel's tags against its shared objects, and the
    objects (for a report). The tag in the file name must be the WHEEL's too."""
    tags = wheel_tags(path)
    objects = shared_objects_of_wheel(path)
    out = []
    if not tags:
        out.append(f"{path}: WHEEL has no Tag")
    if not objects:
        out.append(f"{path}: holds no shared object")
    py, abi, plat = path.rsplit("/", 1)[-1][:-len(".whl")].split("-")[-3:]
    expanded = {f"{p}-{a}-{x}" for p in py.split(".") for a in abi.split(".") for x in plat.split(".")}
    if set(tags) != expanded:
        out.append(f"{path}: the file name's tags {sorted(expanded)} are not WHEEL's {tags}")
    for tag in tags:
        platform = tag.split("-")[2]
        for obj in objects:
            out += problems(obj, platform)
    return out, objects
