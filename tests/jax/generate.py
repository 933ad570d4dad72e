#!/usr/bin/env python3
"""Writes Torus's JAX program corpus (tests/jax/programs/), issue #19.

Tooling, not part of the build: the test suite reads the committed files and
needs no Python. Run it from the repository root with the JAX virtual
environment (JAX 0.10.2, CPU):

    /work/venv-jax/bin/python tests/jax/generate.py            # every program
    /work/venv-jax/bin/python tests/jax/generate.py --only mlp  # names with 'mlp'
    /work/venv-jax/bin/python tests/jax/generate.py --list

then rerun the test runner (docs/testing.md, "The JAX corpus") and commit
tests/jax/programs/ and, when verdicts changed, tests/jax/expected-failures.txt.

For every program NAME it writes tests/jax/programs/NAME/:

  program.hlo            jax.jit(f).lower(*args).compiler_ir('hlo')
                         .as_hlo_text() (pmap: the pmapped function's lower)
  program.stablehlo.mlir lowered.as_text(), StableHLO with `sdy` shardings
  program.gspmd.hlo      programs over several devices: program.hlo as JAX
                         lowers it with jax_use_shardy_partitioner=False
                         (GSPMD's `Sharding`/`SPMDFullToShardShape` custom
                         calls instead of Shardy's `xla.sdy.*` ones)
  xla_dump/              what XLA_FLAGS=--xla_dump_to writes for the program
                         that a user would send: before_optimizations.txt
                         (the module as given to XLA) and
                         cpu_after_optimizations.txt (XLA:CPU's optimized,
                         per-device HLO); the buffer and memory reports are
                         left out
  inK.npy                the K-th argument, a global array
  outK.npy               JAX's K-th result, global (np.asarray of it)
  outK.deviceD.npy       programs over several devices: the part of result
                         K that device D holds (arr.addressable_shards, by
                         device id; device D is partition D of the program);
                         not written for a result every device holds whole
                         (meta.json: "per_device": "replicated"), where
                         each device's value is outK.npy
  meta.json              name, category, JAX version, num_replicas and
                         num_partitions (from the lowering), the mesh,
                         input and output shardings (JAX's and as HLO
                         shardings), dtypes, the tolerance of every result

The programs are deterministic: inputs come from a NumPy generator seeded by
the program's name, random programs use a fixed key, and every file is
written from scratch (a program's folder is emptied first). The dumps quote
this script's source lines (their stack-frame tables and op metadata), with
its path relative to the repository.
"""

import os

# Eight CPU devices for the collectives, and XLA's dumps; both must be set
# before JAX is imported.
DUMP_DIR = "/tmp/torus-jax-corpus-dump"
os.environ["XLA_FLAGS"] = (
    "--xla_force_host_platform_device_count=8 "
    f"--xla_dump_to={DUMP_DIR} --xla_dump_hlo_as_text")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse
import hashlib
import json
import re
import shutil
import sys
import zlib
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

try:
    from jax import shard_map
except ImportError:  # older JAX
    from jax.experimental.shard_map import shard_map

ROOT = Path(__file__).resolve().parent / "programs"
REPO = Path(__file__).resolve().parents[2]
NUM_DEVICES = 8

# Tolerances (|got - want| <= atol + rtol * |want|), by how much rounding a
# result goes through; integers and booleans are always exact.
EXACT = {"rtol": 0.0, "atol": 0.0}
TIGHT = {"rtol": 1e-5, "atol": 1e-6}     # elementwise, small reductions
LOOSE = {"rtol": 1e-4, "atol": 1e-5}     # matmuls, convolutions, training
BF16 = {"rtol": 2e-2, "atol": 2e-2}      # bf16 results

PROGRAMS = []


def program(name, category, tol=TIGHT):
    """Registers `fn() -> (f, args, kind, extra)` as program `name`."""
    def register(fn):
        PROGRAMS.append((name, category, tol, fn))
        return fn
    return register


def rng(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


def normal(r, *shape, scale=1.0, dtype=np.float32):
    return (r.standard_normal(shape) * scale).astype(dtype)


def devices():
    return np.array(jax.devices()[:NUM_DEVICES])


def mesh1d():
    return Mesh(devices(), ("i",))


def mesh2d(a, b):
    # Device d of the mesh is jax.devices()[d] in row-major order, so that a
    # device's id is its partition number in the program.
    return Mesh(devices().reshape(a, b), ("x", "y"))


# --- single-device programs ------------------------------------------------

def mlp_init(r, sizes):
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        params.append((normal(r, fan_in, fan_out, scale=fan_in ** -0.5),
                       normal(r, fan_out, scale=0.1)))
    return params


def mlp_apply(params, x):
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i + 1 < len(params):
            x = jax.nn.relu(x)
    return x


def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))


def flat_mlp_step(lr):
    """(w1, b1, w2, b2, w3, b3, x, labels) -> (loss, new params...)."""
    def step(w1, b1, w2, b2, w3, b3, x, labels):
        params = [(w1, b1), (w2, b2), (w3, b3)]
        loss, grads = jax.value_and_grad(
            lambda p: cross_entropy(mlp_apply(p, x), labels))(params)
        new = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
        return (loss,) + tuple(v for wb in new for v in wb)
    return step


def mlp_args(r, batch=16, sizes=(32, 64, 64, 10)):
    params = mlp_init(r, sizes)
    x = normal(r, batch, sizes[0])
    labels = r.integers(0, sizes[-1], batch).astype(np.int32)
    return [v for wb in params for v in wb] + [x, labels]


@program("mlp_train_step", "training", LOOSE)
def _():
    return flat_mlp_step(0.1), mlp_args(rng("mlp"))


@program("convnet_train_step", "training", LOOSE)
def _():
    r = rng("convnet")

    def forward(k1, k2, w, x):
        dn = ("NHWC", "HWIO", "NHWC")
        y = lax.conv_general_dilated(x, k1, (1, 1), "SAME",
                                     dimension_numbers=dn)
        y = jax.nn.relu(y)
        y = lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1),
                              "VALID") / 4.0
        y = lax.conv_general_dilated(y, k2, (2, 2), "SAME",
                                     dimension_numbers=dn)
        y = jax.nn.relu(y)
        return y.reshape(y.shape[0], -1) @ w

    def step(k1, k2, w, x, labels):
        loss, (g1, g2, gw) = jax.value_and_grad(
            lambda a, b, c: cross_entropy(forward(a, b, c, x), labels),
            argnums=(0, 1, 2))(k1, k2, w)
        return loss, k1 - 0.05 * g1, k2 - 0.05 * g2, w - 0.05 * gw

    args = [normal(r, 3, 3, 3, 8, scale=0.3), normal(r, 3, 3, 8, 8, scale=0.2),
            normal(r, 2 * 2 * 8, 10, scale=0.2), normal(r, 4, 8, 8, 3),
            r.integers(0, 10, 4).astype(np.int32)]
    return step, args


@program("attention", "nn", LOOSE)
def _():
    r = rng("attention")

    def attention(q, k, v, mask):
        # Two heads of 8 over a sequence of 8, batch 2, with a causal mask.
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
        s = jnp.where(mask, s, -1e9)
        return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)

    mask = np.tril(np.ones((8, 8), bool))
    return attention, [normal(r, 2, 2, 8, 8), normal(r, 2, 2, 8, 8),
                       normal(r, 2, 2, 8, 8), mask]


@program("attention_grad", "nn", LOOSE)
def _():
    r = rng("attention_grad")

    def loss(q, k, v):
        s = q @ k.T / jnp.sqrt(q.shape[-1])
        return jnp.sum(jax.nn.softmax(s, axis=-1) @ v)

    return jax.grad(loss, argnums=(0, 1, 2)), [
        normal(r, 8, 16), normal(r, 8, 16), normal(r, 8, 16)]


@program("layer_norm", "nn")
def _():
    r = rng("layer_norm")

    def layer_norm(x, gamma, beta):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
        return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta

    return layer_norm, [normal(r, 16, 32), normal(r, 32), normal(r, 32)]


@program("layer_norm_grad", "nn", LOOSE)
def _():
    r = rng("layer_norm_grad")

    def loss(x, gamma):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.var(x, axis=-1, keepdims=True)
        return jnp.sum(jnp.tanh((x - mean) / jnp.sqrt(var + 1e-5) * gamma))

    return jax.grad(loss, argnums=(0, 1)), [normal(r, 8, 16), normal(r, 16)]


@program("softmax", "nn")
def _():
    return (lambda x: jax.nn.softmax(x, axis=-1)), [
        normal(rng("softmax"), 8, 33, scale=4.0)]


@program("logsumexp", "nn")
def _():
    return (lambda x: (jax.nn.logsumexp(x, axis=0),
                       jax.nn.logsumexp(x, axis=1))), [
        normal(rng("logsumexp"), 12, 20, scale=10.0)]


@program("gelu_silu", "nn")
def _():
    return (lambda x: (jax.nn.gelu(x), jax.nn.silu(x), jax.nn.sigmoid(x),
                       jax.nn.softplus(x))), [
        normal(rng("gelu"), 4, 32, scale=3.0)]


@program("elementwise_math", "elementwise")
def _():
    r = rng("elementwise_math")

    def f(x, y):
        return (jnp.exp(x), jnp.log1p(jnp.abs(x)), jnp.tanh(x), jnp.sin(x),
                jnp.cos(y), jnp.sqrt(jnp.abs(y)), jnp.maximum(x, y),
                jnp.where(x > y, x * y, x - y), x / (1.0 + y * y),
                jnp.power(jnp.abs(x), 1.5), jnp.floor(3 * x), jnp.round(y))

    return f, [normal(r, 6, 10), normal(r, 6, 10)]


@program("scan_rnn", "control_flow", LOOSE)
def _():
    r = rng("scan_rnn")

    def rnn(h0, w, u, xs):
        def cell(h, x):
            h = jnp.tanh(h @ w + x @ u)
            return h, jnp.sum(h)
        return lax.scan(cell, h0, xs)

    return rnn, [normal(r, 4, 16), normal(r, 16, 16, scale=0.25),
                 normal(r, 8, 16, scale=0.35), normal(r, 10, 4, 8)]


@program("scan_cumulative", "control_flow")
def _():
    def f(xs):
        return lax.scan(lambda c, x: (c * 0.5 + x, c), jnp.zeros(5), xs)
    return f, [normal(rng("scan_cumulative"), 12, 5)]


@program("fori_loop", "control_flow")
def _():
    def f(x, n):
        return lax.fori_loop(0, n, lambda i, v: v * 0.9 + jnp.sin(v) + i, x)
    return f, [normal(rng("fori"), 3, 4), np.int32(7)]


@program("fori_loop_static", "control_flow")
def _():
    def f(x):
        return lax.fori_loop(0, 5, lambda i, v: v @ v / 4.0 + 1.0, x)
    return f, [normal(rng("fori_static"), 4, 4, scale=0.5)]


@program("while_loop", "control_flow")
def _():
    def f(x, limit):
        def cond(c):
            return jnp.logical_and(jnp.sum(c[0]) < limit, c[1] < 100)

        def body(c):
            return c[0] * 1.5 + 1.0, c[1] + 1
        return lax.while_loop(cond, body, (x, jnp.int32(0)))
    return f, [np.abs(normal(rng("while"), 6)), np.float32(1000.0)]


@program("cond", "control_flow")
def _():
    def f(p, x, y):
        return lax.cond(p, lambda a, b: a @ b, lambda a, b: a - b.T, x, y)
    r = rng("cond")
    return f, [np.bool_(True), normal(r, 4, 4), normal(r, 4, 4)]


@program("cond_false", "control_flow")
def _():
    def f(x):
        return lax.cond(jnp.sum(x) > 100.0, jnp.sin, jnp.cos, x)
    return f, [normal(rng("cond_false"), 7)]


@program("switch", "control_flow")
def _():
    def f(i, x):
        return lax.switch(i, [jnp.sin, jnp.cos, lambda v: v * v, jnp.exp], x)
    return f, [np.int32(2), normal(rng("switch"), 3, 5)]


@program("gather_indexing", "indexing")
def _():
    r = rng("gather")

    def f(x, idx, rows):
        return x[idx], x[rows, 3], x[:, idx[:4]], x[2:6, ::2]

    return f, [normal(r, 10, 12), r.integers(0, 10, 7).astype(np.int32),
               r.integers(-10, 10, 5).astype(np.int32)]


@program("take_along_axis", "indexing")
def _():
    r = rng("take_along_axis")
    return (lambda x, i: jnp.take_along_axis(x, i, axis=1)), [
        normal(r, 6, 9), r.integers(0, 9, (6, 4)).astype(np.int32)]


@program("embedding_lookup_grad", "indexing", LOOSE)
def _():
    r = rng("embedding")

    def loss(table, ids):
        return jnp.sum(jnp.tanh(table[ids]))
    return jax.value_and_grad(loss), [normal(r, 16, 8),
                                      r.integers(0, 16, (4, 5)).astype(
                                          np.int32)]


@program("scatter_add", "indexing")
def _():
    r = rng("scatter_add")

    def f(x, idx, upd):
        return x.at[idx].add(upd), x.at[idx, 1].multiply(2.0)
    # Repeated indices: the additions accumulate.
    return f, [normal(r, 8, 4), np.array([1, 3, 1, 7, 0, 3], np.int32),
               normal(r, 6, 4)]


@program("scatter_set_min_max", "indexing")
def _():
    r = rng("scatter_set")

    def f(x, idx, upd):
        return (x.at[idx].set(upd), x.at[idx].min(upd), x.at[idx].max(upd))
    return f, [normal(r, 10), np.array([2, 5, 9, 0], np.int32),
               normal(r, 4)]


@program("dynamic_slice_update", "indexing")
def _():
    r = rng("dynamic_slice")

    def f(x, i, j, patch):
        s = lax.dynamic_slice(x, (i, j), (3, 4))
        u = lax.dynamic_update_slice(x, patch, (j, i))
        return s, u
    return f, [normal(r, 8, 10), np.int32(2), np.int32(5), normal(r, 2, 3)]


@program("bf16_matmul", "dtypes", BF16)
def _():
    r = rng("bf16_matmul")
    a = normal(r, 16, 32).astype(jnp.bfloat16)
    b = normal(r, 32, 24).astype(jnp.bfloat16)
    return (lambda a, b: (a @ b, jnp.dot(a, b,
                                         preferred_element_type=jnp.float32))
            ), [a, b]


@program("bf16_mlp_forward", "dtypes", BF16)
def _():
    r = rng("bf16_mlp")

    def f(x, w1, w2):
        h = jax.nn.relu(x @ w1)
        return jax.nn.softmax((h @ w2).astype(jnp.float32), axis=-1)
    return f, [normal(r, 8, 32).astype(jnp.bfloat16),
               normal(r, 32, 32, scale=0.2).astype(jnp.bfloat16),
               normal(r, 32, 10, scale=0.2).astype(jnp.bfloat16)]


@program("f16_elementwise", "dtypes", BF16)
def _():
    r = rng("f16")
    return (lambda x, y: (x * y + x, jnp.exp(x), (x / (jnp.abs(y) + 1)))), [
        normal(r, 4, 8).astype(np.float16), normal(r, 4, 8).astype(np.float16)]


@program("reductions", "reduction")
def _():
    def f(x):
        return (jnp.sum(x, axis=0), jnp.max(x, axis=1), jnp.min(x),
                jnp.prod(x[:3, :4] * 0.5 + 1.0, axis=1), jnp.mean(x),
                jnp.all(x > -3.0), jnp.any(x > 2.0, axis=0))
    return f, [normal(rng("reductions"), 12, 10)]


@program("argmax_argmin", "reduction")
def _():
    def f(x):
        return (jnp.argmax(x, axis=1), jnp.argmin(x, axis=0),
                jnp.argmax(x.reshape(-1)))
    return f, [normal(rng("argmax"), 9, 13)]


@program("cumsum_cumprod", "reduction")
def _():
    def f(x, n):
        return (jnp.cumsum(x, axis=1), jnp.cumprod(1.0 + 0.1 * x, axis=0),
                jnp.cumsum(n, axis=0), lax.cummax(x, axis=1))
    r = rng("cumsum")
    return f, [normal(r, 6, 17), r.integers(-50, 50, (10, 3)).astype(
        np.int32)]


@program("sort", "sort")
def _():
    r = rng("sort")

    def f(x, k):
        return (jnp.sort(x, axis=1), jnp.argsort(x[0]), jnp.sort(k),
                lax.sort((k, x[:, 0][:k.shape[0]]), num_keys=1)[1])
    return f, [normal(r, 6, 11), r.permutation(6).astype(np.int32)]


@program("top_k", "sort")
def _():
    return (lambda x: lax.top_k(x, 3)), [normal(rng("top_k"), 5, 12)]


@program("conv_strided_padded_dilated", "convolution", LOOSE)
def _():
    r = rng("conv")

    def f(x, k):
        dn = ("NCHW", "OIHW", "NCHW")
        a = lax.conv_general_dilated(x, k, (2, 2), ((1, 2), (0, 1)),
                                     dimension_numbers=dn)
        b = lax.conv_general_dilated(x, k, (1, 1), "SAME",
                                     rhs_dilation=(2, 2),
                                     dimension_numbers=dn)
        c = lax.conv_general_dilated(x, k, (1, 1), ((1, 1), (1, 1)),
                                     lhs_dilation=(2, 1),
                                     dimension_numbers=dn)
        return a, b, c
    return f, [normal(r, 2, 3, 9, 8), normal(r, 4, 3, 3, 3)]


@program("conv_grouped_grad", "convolution", LOOSE)
def _():
    r = rng("conv_grouped")

    def loss(x, k):
        y = lax.conv_general_dilated(x, k, (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO",
                                                        "NHWC"),
                                     feature_group_count=2)
        return jnp.sum(y * y)
    return jax.grad(loss, argnums=(0, 1)), [normal(r, 2, 6, 6, 4),
                                            normal(r, 3, 3, 2, 4)]


@program("max_pool_grad", "convolution", LOOSE)
def _():
    def loss(x):
        y = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1),
                              (1, 2, 2, 1), "VALID")
        return jnp.sum(y * y)
    return jax.value_and_grad(loss), [normal(rng("max_pool"), 2, 6, 6, 3)]


@program("random_threefry", "random")
def _():
    def f(seed):
        key = jax.random.key(seed)
        k1, k2 = jax.random.split(key)
        return jax.random.uniform(k1, (4, 5)), jax.random.normal(k2, (6,))
    return f, [np.uint32(42)]


@program("random_dropout", "random")
def _():
    def f(key_data, x):
        key = jax.random.wrap_key_data(key_data)
        keep = jax.random.bernoulli(key, 0.75, x.shape)
        return jnp.where(keep, x / 0.75, 0.0), jax.random.permutation(key, 10)
    return f, [np.array([0, 1234], np.uint32), normal(rng("dropout"), 4, 8)]


@program("int32_ops", "integer", EXACT)
def _():
    r = rng("int32")

    def f(a, b):
        return (a + b, a * b, a // b, a % b, lax.div(a, b), lax.rem(a, b),
                a << (b & 7), a >> (b & 7), lax.shift_right_logical(a, b & 7),
                a & b, a | b, a ^ b, ~a, -a, jnp.abs(a), jnp.maximum(a, b),
                a < b, a == b, jnp.sign(a), lax.clamp(-20, a, 20))
    a = r.integers(-1000, 1000, (5, 6)).astype(np.int32)
    b = r.integers(1, 50, (5, 6)).astype(np.int32) * \
        np.where(r.random((5, 6)) < 0.5, -1, 1).astype(np.int32)
    return f, [a, b]


@program("uint_ops", "integer", EXACT)
def _():
    r = rng("uint")

    def f(a, b, c):
        return (a + b, a * b, a // (b | 1), a % (b | 1), a >> (b & 15),
                a - b, a > b, jnp.maximum(a, b), c + c, c * 3, c >> 1,
                (c.astype(np.uint32) + a[0, :4]), a.astype(jnp.int32),
                c.astype(jnp.float32), a ^ b)
    return f, [r.integers(0, 2 ** 32, (3, 4), dtype=np.uint32),
               r.integers(0, 2 ** 32, (3, 4), dtype=np.uint32),
               r.integers(0, 256, (4,), dtype=np.uint8)]


@program("int8_int16_convert", "integer", EXACT)
def _():
    r = rng("int8")

    def f(a, b, x):
        return (a + a, a * a, b * 3, a.astype(jnp.int16) * b,
                x.astype(jnp.int8), x.astype(jnp.int32),
                x.astype(jnp.uint8), jnp.round(x).astype(jnp.int32),
                b.astype(jnp.float32) / 7)
    return f, [r.integers(-128, 128, (10,), dtype=np.int8),
               r.integers(-2000, 2000, (10,), dtype=np.int16),
               normal(r, 10, scale=50.0)]


@program("shape_ops", "shape")
def _():
    r = rng("shape")

    def f(x, y):
        return (x.T, x.reshape(4, 3, 2), jnp.concatenate([x, y], axis=0),
                jnp.pad(x, ((1, 2), (0, 3)), constant_values=-1.0),
                jnp.flip(x, axis=1), x[::-1, 1:5:2], jnp.tile(y, (2, 1)),
                jnp.broadcast_to(y[:, None, :], (3, 2, 6)),
                jnp.stack([x[:3], y]), jnp.expand_dims(y, 0).squeeze(0))
    return f, [normal(r, 4, 6), normal(r, 3, 6)]


@program("batched_einsum", "contraction", LOOSE)
def _():
    r = rng("einsum")

    def f(a, b, c):
        return (jnp.einsum("bij,bjk->bik", a, b),
                jnp.einsum("bij,kj->bki", a, c),
                jnp.einsum("bij,bij->b", a, a), jnp.outer(c[0], c[1]))
    return f, [normal(r, 3, 4, 5), normal(r, 3, 5, 6), normal(r, 7, 5)]


@program("iota_select_clamp", "elementwise")
def _():
    def f(x):
        i = jnp.arange(x.shape[0])[:, None] + jnp.arange(x.shape[1])
        return (jnp.where(i % 3 == 0, x, 0.0), jnp.clip(x, -0.5, 0.5),
                jnp.triu(x), jnp.eye(4, 6, k=1))
    return f, [normal(rng("iota"), 5, 6)]


# --- pmap over 8 devices ---------------------------------------------------

def pmap_program(name, fn, args, **pmap_kwargs):
    @program(name, "pmap", LOOSE if "pmean" in name else TIGHT)
    def _():
        return ("pmap", jax.pmap(fn, axis_name="i", **pmap_kwargs)), args


r8 = rng("pmap")
pmap_program("pmap_psum", lambda x: lax.psum(x, "i"), [normal(r8, 8, 5)])
pmap_program("pmap_pmean", lambda x: lax.pmean(x * 3.0, "i"),
             [normal(r8, 8, 2, 3)])
pmap_program("pmap_all_gather", lambda x: lax.all_gather(x, "i") * 2.0,
             [normal(r8, 8, 3)])
pmap_program("pmap_psum_scatter",
             lambda x: lax.psum_scatter(x, "i", tiled=True),
             [normal(r8, 8, 16)])
pmap_program("pmap_ppermute",
             lambda x: lax.ppermute(x, "i",
                                    [(d, (d + 1) % 8) for d in range(8)]),
             [normal(r8, 8, 4)])
pmap_program("pmap_all_to_all",
             lambda x: lax.all_to_all(x, "i", split_axis=0, concat_axis=1),
             [normal(r8, 8, 8, 2)])
pmap_program("pmap_axis_index",
             lambda x: x * lax.axis_index("i") + lax.psum(1, "i"),
             [normal(r8, 8, 3)])
pmap_program("pmap_train_step",
             lambda w, x: w - 0.1 * lax.pmean(
                 jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w)))(w), "i"),
             [np.broadcast_to(normal(r8, 4, 3), (8, 4, 3)).copy(),
              normal(r8, 8, 2, 4)], in_axes=(0, 0))


# --- shard_map on a 1-D mesh of 8 and a 4x2 mesh ---------------------------

def smap_program(name, mesh_fn, in_specs, out_specs, fn, args,
                 tol=TIGHT, check_vma=True):
    @program(name, "shard_map", tol)
    def _():
        mesh = mesh_fn()
        f = jax.jit(shard_map(fn, mesh=mesh, in_specs=in_specs,
                              out_specs=out_specs, check_vma=check_vma))
        placed = [jax.device_put(a, NamedSharding(mesh, s))
                  for a, s in zip(args, in_specs)]
        return ("sharded", f, mesh), placed


rs = rng("shard_map")
smap_program("smap8_psum", mesh1d, (P("i"),), P(),
             lambda x: lax.psum(x, "i"), [normal(rs, 8, 4)])
smap_program("smap8_pmean", mesh1d, (P("i"),), P(),
             lambda x: lax.pmean(x, "i"), [normal(rs, 16, 3)], LOOSE)
smap_program("smap8_all_gather", mesh1d, (P("i"),), P("i"),
             lambda x: lax.all_gather(x, "i", tiled=True) + x[0],
             [normal(rs, 8, 3)])
smap_program("smap8_psum_scatter", mesh1d, (P(),), P("i"),
             lambda x: lax.psum_scatter(x, "i", tiled=True),
             [normal(rs, 16, 2)])
smap_program("smap8_ppermute", mesh1d, (P("i"),), P("i"),
             lambda x: lax.ppermute(x, "i",
                                    [(d, (d + 3) % 8) for d in range(8)]),
             [normal(rs, 8, 5)])
smap_program("smap8_all_to_all", mesh1d, (P("i"),), P("i"),
             lambda x: lax.all_to_all(x, "i", 1, 1, tiled=True),
             [normal(rs, 8, 16)])
smap_program("smap8_axis_index", mesh1d, (P("i"),), P("i"),
             lambda x: x + lax.axis_index("i").astype(jnp.float32),
             [normal(rs, 16, 2)])
smap_program("smap4x2_psum", lambda: mesh2d(4, 2), (P("x", "y"),),
             P(None, "y"), lambda x: lax.psum(x, "x"), [normal(rs, 8, 4)])
smap_program("smap4x2_pmean", lambda: mesh2d(4, 2), (P("x", "y"),),
             P("x"), lambda x: lax.pmean(x, "y"), [normal(rs, 8, 4)], LOOSE)
smap_program("smap4x2_psum_both", lambda: mesh2d(4, 2), (P("x", "y"),),
             P(), lambda x: lax.psum(x, ("x", "y")), [normal(rs, 4, 6)])
smap_program("smap4x2_all_gather", lambda: mesh2d(4, 2), (P("x", "y"),),
             P(None, "y"), lambda x: lax.all_gather(x, "x", tiled=True),
             [normal(rs, 8, 4)], check_vma=False)
smap_program("smap4x2_psum_scatter", lambda: mesh2d(4, 2), (P("x"),),
             P("x", "y"), lambda x: lax.psum_scatter(x, "y", scatter_dimension=1,
                                                     tiled=True),
             [normal(rs, 8, 6)])
smap_program("smap4x2_ppermute", lambda: mesh2d(4, 2), (P("x", "y"),),
             P("x", "y"),
             lambda x: lax.ppermute(x, "x", [(d, 3 - d) for d in range(4)]),
             [normal(rs, 8, 4)])
smap_program("smap4x2_all_to_all", lambda: mesh2d(4, 2), (P("x", "y"),),
             P("x", "y"),
             lambda x: lax.all_to_all(x, "x", 0, 1, tiled=True),
             [normal(rs, 16, 8)])
smap_program("smap4x2_axis_index", lambda: mesh2d(4, 2), (P("x", "y"),),
             P("x", "y"),
             lambda x: x * 10 + (lax.axis_index("x") * 2 +
                                 lax.axis_index("y")).astype(jnp.float32),
             [normal(rs, 4, 4)])


# --- jit with NamedSharding on 4x2 and 2x4 meshes --------------------------

def jit_program(name, shape, in_specs, out_specs, fn, args, tol=LOOSE):
    @program(name, "jit_sharded", tol)
    def _():
        mesh = mesh2d(*shape)
        f = jax.jit(fn,
                    in_shardings=tuple(NamedSharding(mesh, s)
                                       for s in in_specs),
                    out_shardings=(tuple(NamedSharding(mesh, s)
                                         for s in out_specs)
                                   if isinstance(out_specs, tuple)
                                   else NamedSharding(mesh, out_specs)))
        return ("sharded", f, mesh), args


rj = rng("jit_sharded")
for mesh_shape in ((4, 2), (2, 4)):
    tag = f"{mesh_shape[0]}x{mesh_shape[1]}"
    # Data parallel: the batch over both axes, the parameters replicated.
    jit_program(f"jit{tag}_dp_mlp_step", mesh_shape,
                (P(),) * 6 + (P(("x", "y")), P(("x", "y"))), (P(),) * 7,
                flat_mlp_step(0.1),
                mlp_args(rng(f"dp{tag}"), batch=16, sizes=(16, 32, 32, 10)))
    # Model parallel: rows of x over 'x', columns of w over 'y'.
    jit_program(f"jit{tag}_mp_matmul", mesh_shape,
                (P("x", None), P(None, "y")), P("x", "y"),
                lambda a, b: jnp.tanh(a @ b),
                [normal(rj, 8, 16), normal(rj, 16, 8)])
    # Megatron-style: the hidden dimension over 'y', the batch over 'x'.
    jit_program(f"jit{tag}_mp_mlp", mesh_shape,
                (P("x", None), P(None, "y"), P("y", None)), P("x", None),
                lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2,
                [normal(rj, 8, 16), normal(rj, 16, 32), normal(rj, 32, 8)])
    jit_program(f"jit{tag}_elementwise_reduce", mesh_shape,
                (P("x", "y"),), (P("x", "y"), P("y"), P()),
                lambda x: (jnp.exp(x) * 2, jnp.sum(x, axis=0), jnp.max(x)),
                [normal(rj, 8, 8)], TIGHT)


# --- writing ---------------------------------------------------------------

def hlo_sharding(sharding, ndim):
    try:
        return str(sharding._to_xla_hlo_sharding(ndim))
    except Exception:  # single device, or no HLO form
        return None


def tolerance_for(dtype, tol):
    if np.issubdtype(dtype, np.integer) or dtype == np.bool_:
        return dict(EXACT)
    if tol == EXACT:  # a float result of an integer program
        tol = TIGHT
    if dtype in (jnp.bfloat16, np.float16):
        return {"rtol": max(tol["rtol"], BF16["rtol"]),
                "atol": max(tol["atol"], BF16["atol"])}
    return dict(tol)


def dtype_name(dtype):
    return str(jnp.dtype(dtype))


def dump_modules():
    return set(p.name for p in Path(DUMP_DIR).glob("*")) if Path(
        DUMP_DIR).exists() else set()


def write_program(name, category, tol, make):
    out = ROOT / name
    if out.exists():
        shutil.rmtree(out)
    (out / "xla_dump").mkdir(parents=True)
    fn, args = make()
    mesh = None
    kind = "jit"
    if isinstance(fn, tuple):
        kind = fn[0]
        mesh = fn[2] if kind == "sharded" else None
        fn = fn[1]
        jitted = fn
    else:
        jitted = jax.jit(fn)
    lowered = jitted.lower(*args)
    hlo = lowered.compiler_ir("hlo").as_hlo_text()
    stablehlo = lowered.as_text()
    (out / "program.hlo").write_text(hlo)
    (out / "program.stablehlo.mlir").write_text(stablehlo)
    if re.search(r"mhlo.num_partitions = ([2-9]|\d\d)", stablehlo):
        # The same program lowered for GSPMD, Shardy's predecessor (its
        # `Sharding` and `SPMDFullToShardShape` custom calls).
        jax.config.update("jax_use_shardy_partitioner", False)
        try:
            gspmd = jitted.lower(*args).compiler_ir("hlo").as_hlo_text()
        finally:
            jax.config.update("jax_use_shardy_partitioner", True)
        if "xla.sdy" in gspmd:
            raise RuntimeError(f"{name}: the GSPMD lowering has Shardy ops")
        (out / "program.gspmd.hlo").write_text(gspmd)

    before = dump_modules()
    compiled = lowered.compile()
    new = sorted(dump_modules() - before)
    kept = []
    for f in new:
        # module_0042.jit_f.before_optimizations.txt -> before_optimizations.txt
        for suffix in ("before_optimizations.txt",
                       "cpu_after_optimizations.txt"):
            if f.endswith("." + suffix):
                # The source file's path relative to the repository, so
                # that the files do not depend on where it is checked out.
                text = (Path(DUMP_DIR) / f).read_text().replace(
                    str(REPO) + "/", "")
                module = f[:-len(suffix) - 1].split(".", 1)[1]
                (out / "xla_dump" / f"{module}.{suffix}").write_text(text)
                kept.append(f"{module}.{suffix}")
    if len(kept) != 2:
        raise RuntimeError(f"{name}: expected two dump files, got {new}")

    results = compiled(*args)
    results = results if isinstance(results, (tuple, list)) else (results,)
    results = jax.tree_util.tree_leaves(results)
    for k, a in enumerate(args):
        np.save(out / f"in{k}.npy", np.asarray(a))
    per_device = []
    outputs_meta = []
    multi = len(compiled.output_shardings if isinstance(
        compiled.output_shardings, (list, tuple)) else [None]) and \
        any(len(r.sharding.device_set) > 1 for r in results)
    for k, res in enumerate(results):
        np.save(out / f"out{k}.npy", np.asarray(res))
        entry = {"dtype": dtype_name(res.dtype), "shape": list(res.shape),
                 "tolerance": tolerance_for(res.dtype, tol),
                 "sharding": str(res.sharding),
                 "hlo_sharding": hlo_sharding(res.sharding, res.ndim)}
        if len(res.sharding.device_set) > 1:
            shards = sorted(res.addressable_shards, key=lambda s: s.device.id)
            entry["devices"] = [int(s.device.id) for s in shards]
            if res.sharding.is_fully_replicated:
                # Every device holds all of it: outK.npy is each device's
                # value, and no copies are written.
                entry["per_device"] = "replicated"
            else:
                for s in shards:
                    np.save(out / f"out{k}.device{s.device.id}.npy",
                            np.asarray(s.data))
                entry["per_device"] = "files"
            per_device.append(k)
        outputs_meta.append(entry)

    inputs_meta = []
    in_shardings = jax.tree_util.tree_leaves(compiled.input_shardings[0])
    for k, a in enumerate(args):
        a = np.asarray(a)
        s = in_shardings[k] if k < len(in_shardings) else None
        inputs_meta.append({"dtype": dtype_name(a.dtype),
                            "shape": list(a.shape),
                            "sharding": str(s) if s is not None else None,
                            "hlo_sharding": hlo_sharding(s, a.ndim)
                            if s is not None else None})

    def attr(text, key, default):
        m = re.search(rf"{key} = (\d+)", text)
        return int(m.group(1)) if m else default
    meta = {
        "name": name,
        "category": category,
        "jax_version": jax.__version__,
        "jaxlib_version": jax.lib.__version__
        if hasattr(jax.lib, "__version__") else jax.__version__,
        "kind": kind,
        "num_replicas": attr(stablehlo, "mhlo.num_replicas", 1),
        "num_partitions": attr(stablehlo, "mhlo.num_partitions", 1),
        "mesh": ({"shape": [int(v) for v in mesh.devices.shape],
                  "axis_names": list(mesh.axis_names),
                  "device_ids": [int(d.id) for d in mesh.devices.flat]}
                 if mesh is not None else
                 {"shape": [NUM_DEVICES], "axis_names": ["i"],
                  "device_ids": list(range(NUM_DEVICES))}
                 if kind == "pmap" else None),
        "inputs": inputs_meta,
        "outputs": outputs_meta,
        "per_device_outputs": per_device,
        "dump_files": sorted(kept),
    }
    text = json.dumps(meta, indent=1)
    # Lists of numbers on one line.
    text = re.sub(r"\[\s*([-0-9.e,\s]*?)\s*\]",
                  lambda m: "[" + ", ".join(m.group(1).split()).replace(
                      ",,", ",") + "]", text)
    (out / "meta.json").write_text(text + "\n")
    data = sum(p.stat().st_size for p in out.rglob("*.npy"))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return data, size


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="",
                        help="write only programs whose name contains this")
    parser.add_argument("--list", action="store_true")
    options = parser.parse_args()
    names = [p[0] for p in PROGRAMS]
    assert len(names) == len(set(names)), "duplicate program names"
    if options.list:
        print("\n".join(sorted(names)))
        return 0
    if len(jax.devices()) < NUM_DEVICES:
        sys.exit(f"need {NUM_DEVICES} devices, JAX has {len(jax.devices())}")
    shutil.rmtree(DUMP_DIR, ignore_errors=True)
    ROOT.mkdir(parents=True, exist_ok=True)
    selected = [p for p in PROGRAMS if options.only in p[0]]
    if not options.only:
        # Folders of programs no longer generated go away.
        for d in ROOT.iterdir():
            if d.is_dir() and d.name not in names:
                shutil.rmtree(d)
    for name, category, tol, make in sorted(selected):
        data, size = write_program(name, category, tol, make)
        print(f"{name}: {data} bytes of arrays, {size} bytes in all")
        if data > 64_000:
            sys.exit(f"{name}: {data} bytes of .npy files, over the 64 KB "
                     "budget: make its dimensions smaller")
    print(f"{len(selected)} programs written to {ROOT}, JAX {jax.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
