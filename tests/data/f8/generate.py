#!/usr/bin/env python3
"""Reference data for the f8 tests (api/Float8OpsTest.cpp, tests/tools).

Computed with ml_dtypes, the library JAX and XLA take their f8 semantics
from, and for f64 inputs with XLA:CPU through JAX, so that the tests
compare Torus against an independent reference. Run with an interpreter
that has numpy, ml_dtypes and jax (the outputs are committed; the suite
needs no Python):

    /work/venv-jax/bin/python tests/data/f8/generate.py

Files (every f8 value is stored as its bits, uint8):
  <t>_to_f32.npy        f32[256]: each bit pattern 0..255 of <t> as f32
  f32_inputs.npy        f32[N]: rounding ties and their neighbours at every
                        exponent, subnormals, overflow, max, NaN, inf, -0,
                        random values
  f32_to_<t>.npy        u8[N]: f32_inputs rounded to <t>
  f64_inputs.npy        f64[M]: values whose rounding through f32 would
                        differ (just off a tie), and the f32 inputs
  f64_to_<t>.npy        u8[M], from XLA:CPU (through JAX): XLA rounds f64 to
                        f8 once, ml_dtypes through f32 (twice), which
                        differs just off a tie; the script checks that
                        XLA's answer is the nearest wherever they differ
  f16_to_<t>.npy        u8[65536]: each f16 bit pattern rounded to <t>
  bf16_to_<t>.npy       u8[65536]: each bf16 bit pattern rounded to <t>
  <t>_to_<u>.npy        u8[256]: each pattern of <t> converted to the other
                        f8 type <u>
  <t>_add.npy, <t>_mul.npy
                        u8[256, 256]: element [i, j] is patterns i and j
                        widened to f32, added (multiplied) and rounded back
  int_inputs.npy        i32[K]; int_to_<t>.npy u8[K]
  run/               inputs and expected outputs of tests/tools/torus-run-f8.mlir
                     (tests/tools/Inputs/f8_convert.mlir), saved as ml_dtypes
                     saves f8 arrays ('<V1' for f8e4m3fn, '<f1' for f8e5m2)
"""
import os
from fractions import Fraction

import jax
import ml_dtypes
import numpy as np

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = {"f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2}


def save(name, array):
    np.save(os.path.join(HERE, name), array)


def bits(array):
    return np.ascontiguousarray(array).view(np.uint8)


def patterns(t):
    return np.arange(256, dtype=np.uint8).view(t)


def f32_inputs():
    values = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0]
    # NaNs with payloads, both signs.
    nan_bits = np.array([0x7F800001, 0x7FC00001, 0x7FFFFFFF, 0xFF800001,
                         0xFFC00000], np.uint32)
    values += list(nan_bits.view(np.float32))
    for t in TYPES.values():
        finite = patterns(t).astype(np.float32)
        finite = np.unique(finite[np.isfinite(finite)])
        # Each representable value, the midpoints between neighbours (ties)
        # and the f32 values just either side of each.
        mids = (finite[:-1].astype(np.float64) + finite[1:]) / 2
        mids = mids.astype(np.float32)
        for v in np.concatenate([finite, mids]):
            values += [v, np.nextafter(v, np.float32(np.inf)),
                       np.nextafter(v, np.float32(-np.inf))]
        info = ml_dtypes.finfo(t)
        top = np.float32(info.max)
        ulp = np.float32(top) - np.float32(np.nextafter(t(top), t(0)))
        # Around and beyond the overflow threshold (largest + half an ulp).
        for v in [top + ulp / 2, top + ulp, top * 2, 1e6, 1e30, 3.4e38]:
            v = np.float32(v)
            values += [v, -v, np.nextafter(v, np.float32(np.inf)),
                       np.nextafter(v, np.float32(0))]
        # Below half the smallest subnormal: rounds to zero.
        tiny = np.float32(info.smallest_subnormal)
        values += [tiny / 2, np.nextafter(tiny / 2, np.float32(1)), tiny / 4,
                   1e-30, 1e-40]
    rng = np.random.default_rng(8)
    values += list(rng.normal(0, 1, 500).astype(np.float32))
    values += list((rng.normal(0, 1, 500) * 100).astype(np.float32))
    values += list(np.exp(rng.uniform(-30, 20, 500)).astype(np.float32))
    values += list(rng.integers(0, 2**32, 500, dtype=np.uint64)
                   .astype(np.uint32).view(np.float32))
    return np.array(values, np.float32)


def f64_inputs(f32):
    values = list(f32.astype(np.float64))
    for t in TYPES.values():
        finite = patterns(t).astype(np.float64)
        finite = np.unique(finite[np.isfinite(finite)])
        mids = (finite[:-1] + finite[1:]) / 2
        for m in mids:
            # Off the tie by less than an f32 ulp: f64 -> f32 -> f8 rounds
            # twice and lands on the tie, one rounding does not.
            d = abs(m) * 2.0**-40 if m != 0 else 2.0**-200
            values += [m + d, m - d]
    return np.array(values, np.float64)


def f64_reference(f64, t):
    """f64 -> t as XLA computes it (one rounding), checked against
    ml_dtypes (two roundings, through f32) where they differ."""
    xla = bits(np.asarray(jax.jit(lambda a: a.astype(t))(f64)))
    double_rounded = bits(f64.astype(t))
    wide = np.arange(256, dtype=np.uint8).view(t).astype(np.float64)
    for i in np.nonzero(xla != double_rounded)[0]:
        x = Fraction(float(f64[i]))
        a, b = wide[xla[i]], wide[double_rounded[i]]
        assert np.isfinite(a) and np.isfinite(b), (f64[i], a, b)
        assert abs(x - Fraction(float(a))) < abs(x - Fraction(float(b))), (
            "XLA's f64 -> f8 is not the nearest", f64[i], a, b)
    return xla


def main():
    f32 = f32_inputs()
    save("f32_inputs.npy", f32)
    f64 = f64_inputs(f32)
    save("f64_inputs.npy", f64)
    ints = np.array([0, 1, -1, 7, 17, 100, 255, -255, 447, 448, 449, 463, 464,
                     465, 479, 480, 481, 1000, 57343, 57344, 61439, 61440,
                     61441, 65536, 2**24 + 1, 2**31 - 1, -2**31], np.int32)
    save("int_inputs.npy", ints)
    f16_all = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    with np.errstate(invalid="ignore", over="ignore"):
        for name, t in TYPES.items():
            save(f"{name}_to_f32.npy", patterns(t).astype(np.float32))
            save(f"f32_to_{name}.npy", bits(f32.astype(t)))
            save(f"f64_to_{name}.npy", f64_reference(f64, t))
            save(f"f16_to_{name}.npy", bits(f16_all.view(np.float16).astype(t)))
            save(f"bf16_to_{name}.npy",
                 bits(f16_all.view(ml_dtypes.bfloat16).astype(t)))
            save(f"int_to_{name}.npy", bits(ints.astype(np.float64).astype(t)))
            for other, u in TYPES.items():
                if other != name:
                    save(f"{name}_to_{other}.npy", bits(patterns(t).astype(u)))
            wide = patterns(t).astype(np.float32)
            save(f"{name}_add.npy",
                 bits((wide[:, None] + wide[None, :]).astype(t)))
            save(f"{name}_mul.npy",
                 bits((wide[:, None] * wide[None, :]).astype(t)))


def run_files():
    """For tests/tools/torus-run-f8.mlir: x f32[8], y f8e4m3fn[8],
    z f8e5m2[8] in; x as each f8, y and z widened, y * y out."""
    e4, e5 = TYPES["f8e4m3fn"], TYPES["f8e5m2"]
    os.makedirs(os.path.join(HERE, "run"), exist_ok=True)
    x = np.array([0.1, -3.3, 460, 470, 2.0**-10, -0.0, 60000, np.inf],
                 np.float32)
    y = np.array([1.5, -2, 448, 0.015625, 0.001953125, -0.0, 30, np.nan],
                 np.float32).astype(e4)
    z = np.array([1.5, -2, 57344, 0.015625, 2.0**-16, -0.0, 30, -np.inf],
                 np.float32).astype(e5)
    with np.errstate(invalid="ignore", over="ignore"):
        outs = [x.astype(e4), x.astype(e5), y.astype(np.float32),
                z.astype(np.float32),
                (y.astype(np.float32) * y.astype(np.float32)).astype(e4)]
    # For ir/hlo/test/run-float8.hlo.
    a = np.array([1.5, -2, 448, 0.015625], np.float32).astype(e4)
    matrix = np.array([[1, 2], [3, 4]], np.float32).astype(e4)
    for name, a in [("x", x), ("y", y), ("z", z), ("a", a),
                    ("matrix", matrix)]:
        save(f"run/{name}.npy", a)
    for i, a in enumerate(outs):
        save(f"run/result{i}.npy", a)


if __name__ == "__main__":
    run_files()
    main()
