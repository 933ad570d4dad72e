#!/usr/bin/env python3
"""Moves one relocation of an x86-64 ELF object far outside its section.

    corrupt_elf_relocation.py IN.o OUT.o

The first entry of the first SHT_RELA section gets r_offset 0x3d0008bf, as
the AOT fuzzer's crashing input had it: a linker that trusts the offset
writes 1 GB past the section (torus-run-aot-corrupt.mlir).
"""

import struct
import sys

SHT_RELA = 4


def main():
    data = bytearray(open(sys.argv[1], "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    for i in range(shnum):
        at = shoff + i * shentsize
        sh_type, = struct.unpack_from("<I", data, at + 4)
        sh_offset, sh_size = struct.unpack_from("<QQ", data, at + 0x18)
        if sh_type == SHT_RELA and sh_size >= 24:
            struct.pack_into("<Q", data, sh_offset, 0x3D0008BF)
            open(sys.argv[2], "wb").write(data)
            return 0
    raise SystemExit("no relocation section")


if __name__ == "__main__":
    sys.exit(main())
