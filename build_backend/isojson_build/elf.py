"""What a shared object asks of the system, read from its ELF file: the
machine, the libraries it needs (DT_NEEDED) and the symbol versions it needs
from each (SHT_GNU_verneed, the table the dynamic loader checks at load
time). Enough for the wheel tag check; it reads sections, which strip keeps.

The layout is the System V ABI's (Elf32/Elf64 headers, Elf_Dyn) and glibc's
symbol versioning extension (Elf_Verneed, Elf_Vernaux in <elf.h>)."""

import dataclasses
import struct

MACHINES = {3: "i686", 40: "armv7l", 62: "x86_64", 183: "aarch64", 20: "ppc", 21: "ppc64", 22: "s390x",
            243: "riscv64", 258: "loongarch64"}

SHT_STRTAB = 3
SHT_DYNAMIC = 6
SHT_DYNSYM = 11
SHT_GNU_VERNEED = 0x6FFFFFFE
SHT_GNU_VERSYM = 0x6FFFFFFF
DT_NULL = 0
DT_NEEDED = 1
DT_RPATH = 15
DT_RUNPATH = 29


class ELFError(ValueError):
    pass


@dataclasses.dataclass
class SharedObject:
    name: str
    machine: str
    needed: list          # DT_NEEDED, in order
    versions: dict        # library file name → set of version names it must provide ("GLIBC_2.17")
    runpath: list         # DT_RPATH and DT_RUNPATH entries
    symbols: dict = dataclasses.field(default_factory=dict)   # version name → undefined symbols bound to it


def read(data, name="<bytes>"):
    """Parses an ELF shared object given as bytes."""
    if data[:4] != b"\x7fELF":
        raise ELFError(f"{name}: not an ELF file")
    cls, enc = data[4], data[5]
    if cls not in (1, 2) or enc not in (1, 2):
        raise ELFError(f"{name}: unknown ELF class {cls} or data encoding {enc}")
    is64 = cls == 2
    e = "<" if enc == 1 else ">"
    try:
        if is64:
            (e_type, e_machine, _, _, _, e_shoff, _, _, _, _, e_shentsize, e_shnum, e_shstrndx) = \
                struct.unpack_from(e + "HHIQQQIHHHHHH", data, 16)
        else:
            (e_type, e_machine, _, _, _, e_shoff, _, _, _, _, e_shentsize, e_shnum, e_shstrndx) = \
                struct.unpack_from(e + "HHIIIIIHHHHHH", data, 16)
        shfmt = e + ("IIQQQQIIQQ" if is64 else "IIIIIIIIII")
        sections = []
        for i in range(e_shnum):
            (sh_name, sh_type, _, _, sh_offset, sh_size, sh_link, sh_info, _, sh_entsize) = \
                struct.unpack_from(shfmt, data, e_shoff + i * e_shentsize)
            sections.append((sh_type, sh_offset, sh_size, sh_link, sh_info, sh_entsize))
    except struct.error:
        raise ELFError(f"{name}: truncated ELF header or section table") from None
    if e_type != 3:
        raise ELFError(f"{name}: not a shared object (ELF type {e_type})")

    def string(section_index, offset):
        _, off, size, _, _, _ = sections[section_index]
        end = data.index(b"\0", off + offset, off + size)
        return data[off + offset:end].decode("utf-8", "replace")

    needed, runpath, versions, version_index = [], [], {}, {}
    for sh_type, off, size, link, info, entsize in sections:
        if sh_type == SHT_DYNAMIC:
            fmt = e + ("qQ" if is64 else "iI")
            step = struct.calcsize(fmt)
            for pos in range(off, off + size, step):
                tag, val = struct.unpack_from(fmt, data, pos)
                if tag == DT_NULL:
                    break
                if tag == DT_NEEDED:
                    needed.append(string(link, val))
                elif tag in (DT_RPATH, DT_RUNPATH):
                    runpath.append(string(link, val))
        elif sh_type == SHT_GNU_VERNEED:
            # info entries of Elf_Verneed {vn_version, vn_cnt, vn_file, vn_aux, vn_next}, each with
            # vn_cnt Elf_Vernaux {vna_hash, vna_flags, vna_other, vna_name, vna_next}; same in 32/64 bit.
            pos = off
            for _ in range(info):
                _, cnt, file_off, aux, nxt = struct.unpack_from(e + "HHIII", data, pos)
                lib = string(link, file_off)
                apos = pos + aux
                for _ in range(cnt):
                    _, _, other, name_off, anext = struct.unpack_from(e + "IHHII", data, apos)
                    versions.setdefault(lib, set()).add(string(link, name_off))
                    version_index[other] = string(link, name_off)
                    apos += anext
                if nxt == 0:
                    break
                pos += nxt
    # Which undefined symbol needs which version: .gnu.version holds one version index per .dynsym
    # entry (vna_other of the Vernaux above), so that a message can name the symbols.
    symbols = {}
    dynsym = next((s for s in sections if s[0] == SHT_DYNSYM), None)
    versym = next((s for s in sections if s[0] == SHT_GNU_VERSYM), None)
    if dynsym and versym and version_index:
        _, off, size, link, _, entsize = dynsym
        count = size // entsize if entsize else 0
        for i in range(1, count):
            pos = off + i * entsize
            if is64:
                st_name, _, _, st_shndx = struct.unpack_from(e + "IBBH", data, pos)
            else:
                st_name, _, _, _, _, st_shndx = struct.unpack_from(e + "IIIBBH", data, pos)
            (ver,) = struct.unpack_from(e + "H", data, versym[1] + 2 * i)
            if st_shndx == 0 and (ver & 0x7FFF) in version_index:
                symbols.setdefault(version_index[ver & 0x7FFF], set()).add(string(link, st_name))
    return SharedObject(name=name, machine=MACHINES.get(e_machine, f"machine {e_machine}"), needed=needed,
                        versions=versions, runpath=runpath, symbols=symbols)


def read_file(path):
    with open(path, "rb") as f:
        return read(f.read(), path)
