#!/usr/bin/env python3
"""Writes log1p_complex/: points z and log1p(z) for
tests/tools/Inputs/stablehlo_log1p_complex.mlir (complex<f64> and
complex<f32>, real and imaginary parts returned as results).

The reference is exact arithmetic where it matters: Re log1p(z) =
log(u) / 2 with u = |1 + z|^2 computed exactly (fractions) and rounded once
(as log1p(u - 1) for u near 1), Im = atan2(y, 1 + x); for huge |z|, log|z| from log(max) and the
ratio. Points where |1 + z| is near 1 (s cancels), near -1, tiny and huge.

Standard library only; the files are committed. Results: c128/result0-1,
c64/result2-3, stacked for one replica as compare_npy.py reads them.
"""
import math
import os
import struct
from fractions import Fraction

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log1p_complex")
Z = [(-0.5, 0.8660254037844386), (-0.5, -0.86602540378), (0.6, -0.8),
     (-1e-3, 1e-4), (1e-9, -2e-9), (0.0, 0.0), (3.0, 4.0), (-2.0, 0.5),
     (-1.05, 0.01), (-0.999, -0.03), (1e20, 3e19), (-4e18, 1e10),
     (0.25, -1.2), (-1.8, -0.6), (0.001, 0.0447), (-0.3, 0.714)]


def log1p_ref(x, y):
    if max(abs(x), abs(y)) > 1e15:
        mx, mn = max(abs(x), abs(y)), min(abs(x), abs(y))
        re = math.log(mx) + 0.5 * math.log1p((mn / mx) ** 2)
    else:
        fx, fy = Fraction(x), Fraction(y)
        u = (1 + fx) ** 2 + fy ** 2  # |1 + z|^2, exact
        re = 0.5 * (math.log1p(float(u - 1)) if 0.5 < u < 2
                    else math.log(float(u)))
    return re, math.atan2(y, float(Fraction(x) + 1))


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def save(name, fmt, values, stacked):
    code = {"f": "<f4", "d": "<f8"}[fmt]
    shape = f"(1, {len(values)})" if stacked else f"({len(values)},)"
    header = f"{{'descr': '{code}', 'fortran_order': False, 'shape': {shape}, }}"
    header += " " * (63 - len(header)) + "\n"
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<" + fmt * len(values), *values))


for d in ("c128", "c64"):
    os.makedirs(os.path.join(out, d), exist_ok=True)
xs = [x for x, _ in Z]
ys = [y for _, y in Z]
save("re64.npy", "d", xs, False)
save("im64.npy", "d", ys, False)
save("re32.npy", "f", [f32(v) for v in xs], False)
save("im32.npy", "f", [f32(v) for v in ys], False)
r64 = [log1p_ref(x, y) for x, y in Z]
save("c128/result0.npy", "d", [r for r, _ in r64], True)
save("c128/result1.npy", "d", [i for _, i in r64], True)
r32 = [log1p_ref(f32(x), f32(y)) for x, y in Z]
save("c64/result2.npy", "f", [f32(r) for r, _ in r32], True)
save("c64/result3.npy", "f", [f32(i) for _, i in r32], True)
