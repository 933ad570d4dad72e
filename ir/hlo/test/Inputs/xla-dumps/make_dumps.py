#!/usr/bin/env python3
"""Writes XLA's dumps of small JAX programs for ../../run-xla-dumps.hlo.

    XLA_FLAGS= /work/venv-jax/bin/python ir/hlo/test/Inputs/xla-dumps/make_dumps.py

For each program P below (JAX 0.10.2 on CPU), the files XLA writes with
`--xla_dump_to` for its jit: P.before_optimizations.txt and
P.cpu_after_optimizations.txt, as XLA names them (stack-frame tables,
metadata with stack_frame_id, fusions, bitcasts, copies, TopK), the inputs
P/in<i>.npy and JAX's outputs P/expected/result<i>.npy, stacked over the one
replica as tests/data/compare_npy.py reads them. Tooling only: the test
reads the committed files and needs neither JAX nor NumPy.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def mlp_step(params, x, y):
    import jax
    import jax.numpy as jnp

    def loss(p):
        h = jnp.tanh(x @ p["w1"] + p["b1"])
        o = h @ p["w2"] + p["b2"]
        return jnp.mean((o - y) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    return value, jax.tree.map(lambda a, b: a - 0.1 * b, params, grads)


def conv_grad(x, w):
    # The kernel's gradient is a convolution whose result XLA transposes to
    # the kernel's layout with a bitcast of layout {3,1,0,2}.
    import jax

    def loss(w):
        y = jax.lax.conv_general_dilated(
            x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return (jax.nn.relu(y) ** 2).sum()

    return jax.value_and_grad(loss)(w)


def max_pool_grad(x, w, w2):
    # XLA:CPU's optimized HLO computes a max pool's gradient with a
    # reduce-window of (values, iota indices) and a scatter.
    import jax
    import jax.numpy as jnp

    def loss(w, w2):
        y = jax.lax.conv_general_dilated(
            x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jax.lax.reduce_window(jax.nn.relu(y), -jnp.inf, jax.lax.max,
                                  (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return jnp.sum(jnp.tanh(y.reshape(2, -1) @ w2))

    return jax.grad(loss, argnums=(0, 1))(w, w2)


def sort_top_k(x):
    # Sorted with a total-order comparator (bitcasts f32 -> s32); top_k
    # becomes the TopK custom-call.
    import jax
    import jax.numpy as jnp
    return jnp.sort(x, axis=-1), jax.lax.top_k(x, 3)


def programs(rng):
    f32 = np.float32
    return {
        "mlp_step": (mlp_step, (
            {"w1": rng.standard_normal((8, 16)).astype(f32),
             "b1": rng.standard_normal(16).astype(f32),
             "w2": rng.standard_normal((16, 4)).astype(f32),
             "b2": rng.standard_normal(4).astype(f32)},
            rng.standard_normal((5, 8)).astype(f32),
            rng.standard_normal((5, 4)).astype(f32))),
        "conv_grad": (conv_grad, (
            rng.standard_normal((2, 6, 6, 3)).astype(f32),
            rng.standard_normal((3, 3, 3, 4)).astype(f32))),
        "max_pool_grad": (max_pool_grad, (
            rng.standard_normal((2, 6, 6, 3)).astype(f32),
            rng.standard_normal((3, 3, 3, 4)).astype(f32),
            rng.standard_normal((36, 5)).astype(f32))),
        "sort_top_k": (sort_top_k, (
            rng.standard_normal((4, 10)).astype(f32),)),
    }


def dump(name, dump_dir):
    """Runs in a child process, whose XLA_FLAGS name the dump folder."""
    import jax
    fn, args = programs(np.random.default_rng(19))[name]
    jax.jit(fn).lower(*args).compile()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        return dump(sys.argv[2], None)
    import jax
    for name, (fn, args) in programs(np.random.default_rng(19)).items():
        out = os.path.join(HERE, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.join(out, "expected"))
        for i, leaf in enumerate(jax.tree.leaves(args)):
            np.save(os.path.join(out, f"in{i}.npy"), leaf)
        results = jax.tree.leaves(jax.jit(fn)(*args))
        for i, r in enumerate(results):
            np.save(os.path.join(out, "expected", f"result{i}.npy"),
                    np.asarray(r)[None])
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, XLA_FLAGS=f"--xla_dump_to={tmp}")
            subprocess.run([sys.executable, __file__, "--dump", name],
                           env=env, check=True)
            for stage in ("before_optimizations", "cpu_after_optimizations"):
                (path,) = glob.glob(f"{tmp}/*.jit_{fn.__name__}.{stage}.txt")
                shutil.copy(path, os.path.join(HERE, f"{name}.{stage}.txt"))


if __name__ == "__main__":
    main()
