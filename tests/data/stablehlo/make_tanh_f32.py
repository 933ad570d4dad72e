#!/usr/bin/env python3
"""Writes tanh_f32/: f32 inputs and XLA's tanh of them (jax.numpy.tanh,
jaxlib 0.10.2 on CPU: Eigen's rational approximation with fused
multiply-adds) for the bit-exact check in tests/tools/torus-run-stablehlo.mlir.

The points: a random spread over [-10, 10], the edges of the ranges (4e-4,
the clamp at 7.9988, 20), zeros, and tiny and huge values.

Run with /work/venv-jax/bin/python; the files are committed so that tests
need no Python packages.
"""
import os

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_platforms", "cpu")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tanh_f32")
rng = np.random.default_rng(18)
edges = [0.0, -0.0, 1e-30, -3.9e-4, 4e-4, 4.1e-4, 0.5, -0.75, 1.0, 2.0,
         7.9988, -7.99882, 8.5, 19.99, 20.0, -20.0, 1e10, -3e38]
x = np.concatenate([np.array(edges, np.float32),
                    rng.uniform(-10, 10, 238).astype(np.float32),
                    rng.uniform(-1, 1, 256).astype(np.float32)])
np.save(os.path.join(out, "x.npy"), x)
y = np.asarray(jax.jit(jnp.tanh)(x))
np.save(os.path.join(out, "expected", "result0.npy"), y[None])
