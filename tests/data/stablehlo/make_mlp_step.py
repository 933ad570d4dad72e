#!/usr/bin/env python3
"""Writes tests/tools/Inputs/stablehlo_mlp_step.mlir and mlp_step/: one SGD step of a two-layer MLP with a softmax
cross-entropy loss, as JAX lowers it to StableHLO
(`jax.jit(step).lower(...).as_text()`), its inputs and JAX's results
(stacked for one replica, as compare_npy.py reads them).

Run with /work/venv-jax/bin/python (JAX 0.10.2, CPU); the files are
committed so that tests need no Python packages.
"""
import os

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_platforms", "cpu")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mlp_step")
rng = np.random.default_rng(0)
x = rng.standard_normal((8, 16)).astype(np.float32)
w1 = (rng.standard_normal((16, 32)) * 0.1).astype(np.float32)
w2 = (rng.standard_normal((32, 4)) * 0.1).astype(np.float32)
y = rng.integers(0, 4, (8,)).astype(np.int32)


def loss(w1, w2, x, y):
    h = jax.nn.relu(x @ w1)
    lp = jax.nn.log_softmax(h @ w2)
    # take_along_axis: a gather with batching dimensions.
    return -jnp.mean(jnp.take_along_axis(lp, y[:, None], axis=1))


def step(w1, w2, x, y):
    l, (g1, g2) = jax.value_and_grad(loss, argnums=(0, 1))(w1, w2, x, y)
    return l, w1 - 0.1 * g1, w2 - 0.1 * g2


os.makedirs(os.path.join(out, "expected"), exist_ok=True)
inputs = os.path.join(os.path.dirname(out), "..", "..", "tools", "Inputs")
with open(os.path.join(inputs, "stablehlo_mlp_step.mlir"), "w") as f:
    f.write(jax.jit(step).lower(w1, w2, x, y).as_text())
for name, a in (("w1", w1), ("w2", w2), ("x", x), ("y", y)):
    np.save(os.path.join(out, name + ".npy"), a)
for i, r in enumerate(jax.jit(step)(w1, w2, x, y)):
    np.save(os.path.join(out, "expected", f"result{i}.npy"), np.asarray(r)[None])
