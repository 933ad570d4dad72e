#!/usr/bin/env python3
"""Writes the bf16 .npy files of tests/tools/torus-run-bf16.mlir with NumPy
and ml_dtypes (`pip install numpy ml_dtypes`), as JAX users make them:
x = [1, -2.5, 0.1, inf] in bf16, and what the test's program returns, -x in
bf16 and x widened to f32. Run from this folder."""
import ml_dtypes
import numpy as np

x = np.array([1, -2.5, 0.1, np.inf], dtype=ml_dtypes.bfloat16)
np.save("x.npy", x)
np.save("neg_x.npy", -x)
np.save("x_f32.npy", x.astype(np.float32))
