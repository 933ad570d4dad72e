#!/usr/bin/env python3
"""Writes chlo_special/: inputs and SciPy's values (scipy.special.i1e and
erfc, Cephes' C code) for tests/tools/Inputs/stablehlo_chlo_special.mlir,
which returns chlo.bessel_i1e of x as f64, f32 and f16 (the f16 result
widened to f32) and chlo.erfc of y as f64.

x reaches both of i1e's ranges (|x| <= 8 and above) with both signs; y
reaches erfc's |x| < 1, 1 <= |x| < 8 and |x| >= 8 ranges, both signs, and
the underflow to 0 (and 2).

Run with /work/venv-jax/bin/python; the files are committed so that tests
need no Python packages. Results are stacked for one replica, as
compare_npy.py reads them, one directory per tolerance: f64/ (results 0
and 3), f32/ (1), f16/ (2).
"""
import os

import numpy as np
from scipy import special

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chlo_special")
X = [0.0, 1e-3, -0.5, 1.0, 2.5, -3.75, 6.0, 7.99, 8.0, -8.01, 9.5, 15.0,
     -40.0, 123.0, 1e3]
Y = [0.0, 1e-8, -0.3, 0.99, -1.0, 1.5, -2.25, 4.0, 7.5, 8.0, 9.0, -12.0,
     26.0, 27.5, -30.0]

for d in ("f64", "f32", "f16"):
    os.makedirs(os.path.join(out, d), exist_ok=True)
x64 = np.array(X, np.float64)
x32 = x64.astype(np.float32)
x16 = x32.astype(np.float16)
y64 = np.array(Y, np.float64)
np.save(os.path.join(out, "x64.npy"), x64)
np.save(os.path.join(out, "x32.npy"), x32)
np.save(os.path.join(out, "y64.npy"), y64)
# Each reference at the points the program sees (x rounded to f32, then
# to f16), computed in f64 and rounded once.
np.save(os.path.join(out, "f64/result0.npy"), special.i1e(x64)[None])
np.save(os.path.join(out, "f32/result1.npy"),
        special.i1e(x32.astype(np.float64)).astype(np.float32)[None])
np.save(os.path.join(out, "f16/result2.npy"),
        special.i1e(x16.astype(np.float64)).astype(np.float32)[None])
np.save(os.path.join(out, "f64/result3.npy"), special.erfc(y64)[None])
