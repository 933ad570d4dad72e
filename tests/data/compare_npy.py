#!/usr/bin/env python3
"""Compares torus-run's per-replica outputs with stacked expected arrays.

    compare_npy.py EXPECTED_DIR OUTPUT_DIR [--rtol 1e-5] [--atol 1e-5]

For every EXPECTED_DIR/result<i>.npy of shape [R, ...], checks that
OUTPUT_DIR/result<i>.replica<r>.npy equals slice r for every replica r,
and for every EXPECTED_DIR/result<i>.device<d>.npy (a partitioned
program's tile on device d) and result<i>.global.npy (the devices' results
joined) that OUTPUT_DIR's file of that name equals it,
within |got - want| <= atol + rtol * |want|. Standard library only (no
NumPy), so tests need nothing installed. Exits 1 with the first mismatches.
"""
import argparse
import ast
import math
import os
import re
import struct
import sys

FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?"}


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    major = data[6]
    if major == 1:
        (length,), start = struct.unpack("<H", data[8:10]), 10
    else:
        (length,), start = struct.unpack("<I", data[8:12]), 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    if header["fortran_order"] or header["descr"] not in FORMATS:
        raise ValueError(f"{path}: unsupported {header}")
    shape = tuple(header["shape"])
    count = math.prod(shape)
    fmt = "<" + FORMATS[header["descr"]] * count
    values = struct.unpack(fmt, data[start + length:])
    return shape, list(values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("expected")
    parser.add_argument("output")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-5)
    args = parser.parse_args()
    files = os.listdir(args.expected)
    names = sorted(n for n in files if re.fullmatch(r"result\d+\.npy", n))
    tiles = sorted(n for n in files
                   if re.fullmatch(r"result\d+\.(device\d+|global)\.npy", n))
    if not names:
        sys.exit(f"no result<i>.npy in {args.expected}")
    failures, checked = [], 0

    def compare(path, want_shape, want):
        nonlocal checked
        got_shape, got = read_npy(path)
        if got_shape != want_shape:
            failures.append(f"{path}: shape {got_shape}, want {want_shape}")
            return
        for k, (g, w) in enumerate(zip(got, want)):
            checked += 1
            if abs(g - w) > args.atol + args.rtol * abs(w):
                failures.append(f"{path}[{k}]: got {g}, want {w}")

    for name in names:
        shape, want = read_npy(os.path.join(args.expected, name))
        replicas, per = shape[0], math.prod(shape[1:])
        for r in range(replicas):
            path = os.path.join(args.output,
                                name.replace(".npy", f".replica{r}.npy"))
            compare(path, shape[1:], want[r * per:(r + 1) * per])
    for name in tiles:
        shape, want = read_npy(os.path.join(args.expected, name))
        compare(os.path.join(args.output, name), shape, want)
    if failures:
        print("\n".join(failures[:20]))
        sys.exit(f"{len(failures)} mismatches")
    print(f"all {checked} values match ({len(names)} results"
          + (f", {len(tiles)} device tiles or global results)" if tiles
             else ")"))


if __name__ == "__main__":
    main()
