#!/usr/bin/env python3
"""Writes chlo_complex/: inputs and NumPy's values (C99 casin, cacosh, ...
through npymath, an implementation independent of Torus's) for
tests/tools/Inputs/stablehlo_chlo_complex.mlir, which applies chlo.asin,
asinh, acosh, atan, atanh (to z), cosh and sinh (to w) of complex<f64>
and complex<f32> and returns the real and imaginary parts.

The points of z reach every branch of the decomposition: |x| < 1 and > 1,
a <= 1.5 and above, y below sqrt(smallest normal) * 4, |x| or |y| beyond
sqrt(largest) / 8 and beyond 4 / eps^2 (atanh's far range), all four
quadrants, zeros. w stays where cosh and sinh are finite.

Run with /work/venv-jax/bin/python; the files are committed so that tests
need no Python packages. Results are stacked for one replica, as
compare_npy.py reads them: the inverse functions in c128/ (results 0-9)
and c64/ (14-23), cosh and sinh in c128_hyp/ (10-13) and c64_hyp/ (24-27),
checked with their own tolerance: XLA's formula exp(z + log 1/2) +-
exp(log 1/2 - z), which Torus follows, rounds x + log 1/2 (a relative
error up to |x| eps/2) and cancels for small |x| (an absolute error of a
few eps).
"""
import os

import numpy as np

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chlo_complex")

Z64 = [0.5 + 0.3j, -0.7 - 1.2j, 2.0 + 0.5j, -3.0 + 4.0j, 1.0 + 2.5j,
       0.0 + 0.0j, 0.3 + 1e-200j, -0.5 - 1e-170j, 0.9 + 0.05j, -1.5 - 0.02j,
       1e160 + 3e159j, -2e-3 + 5e158j, 1e40 + 2.0j, 3.0 - 1e40j,
       0.0 - 7.0j, 1e200 - 1e-300j, 0.999 + 1e-9j, -1.001 + 1e-8j]
Z32 = [0.5 + 0.3j, -0.7 - 1.2j, 2.0 + 0.5j, -3.0 + 4.0j, 1.0 + 2.5j,
       0.0 + 0.0j, 0.3 + 1e-25j, -0.5 - 1e-20j, 0.9 + 0.05j, -1.5 - 0.02j,
       1e20 + 3e19j, -2e-3 + 5e18j, 1e15 + 2.0j, 3.0 - 1e15j,
       0.0 - 7.0j, 1e30 - 1e-30j, 0.999 + 1e-4j, -1.001 + 1e-3j]
W = [0.5 + 0.3j, -0.7 - 1.2j, 2.0 + 0.5j, -3.0 + 4.0j, 0.0 + 0.0j,
     1e-3 + 3.1j, -10.0 + 0.5j, 20.0 - 2.0j, 0.0 - 7.0j, -1e-5 + 1e-6j,
     9.0 + 1.0j, -5.0 - 0.1j]


def results(z, w):
    out = []
    for v in (np.arcsin(z), np.arcsinh(z), np.arccosh(z), np.arctan(z),
              np.arctanh(z), np.cosh(w), np.sinh(w)):
        assert np.all(np.isfinite(v)), v
        out += [v.real, v.imag]
    return out


def save(name, a):
    np.save(os.path.join(out, name), a)


for d in ("c128", "c64", "c128_hyp", "c64_hyp"):
    os.makedirs(os.path.join(out, d), exist_ok=True)
z64, w64 = np.array(Z64, np.complex128), np.array(W, np.complex128)
z32, w32 = np.array(Z32, np.complex64), np.array(W, np.complex64)
for name, v in (("z_re64", z64.real), ("z_im64", z64.imag),
                ("w_re64", w64.real), ("w_im64", w64.imag),
                ("z_re32", z32.real), ("z_im32", z32.imag),
                ("w_re32", w32.real), ("w_im32", w32.imag)):
    save(name + ".npy", v)
def group(i):
    return "" if i % 14 < 10 else "_hyp"


for i, v in enumerate(results(z64, w64)):
    save(f"c128{group(i)}/result{i}.npy", v[None])
# The c64 reference: the complex128 values at the same (rounded) points,
# rounded once to f32.
for i, v in enumerate(results(z32.astype(np.complex128),
                              w32.astype(np.complex128))):
    save(f"c64{group(i)}/result{14 + i}.npy", v.astype(np.float32)[None])
