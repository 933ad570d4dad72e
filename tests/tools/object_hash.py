#!/usr/bin/env python3
"""Prints an object file's hash as AOT metadata records it.

    object_hash.py FILE    ->  fnv1a64:<16 hex digits>

FNV-1a over the file's bytes (runtime/ProgramSpecIO.cpp, objectHash). The
corrupt-artifact tests use it to write metadata whose object_hash matches a
deliberately damaged object, so that the loader's checks behind the hash
(the object reader, the relocations) are reached.
"""

import sys


def main():
    h = 0xCBF29CE484222325
    for byte in open(sys.argv[1], "rb").read():
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    print("fnv1a64:%016x" % h)


if __name__ == "__main__":
    main()
