#!/usr/bin/env python3
"""Reference vectors for rng_bit_generator and the tracer's random ops, from JAX.

Writes api/RngXlaVectors.inc, which api/RandomOpsTest.cpp includes: the
expected values there come from XLA (through JAX on CPU), never from Torus,
and the test does not need JAX. Not run by the test suite; rerun it by hand
after changing the cases below:

    python3 -m venv /tmp/venv-jax && /tmp/venv-jax/bin/pip install jax jaxlib
    /tmp/venv-jax/bin/python tests/data/rng/make_vectors.py  # from the repo root

Cases:
  * bits: jax.lax.rng_bit_generator(state, shape, dtype, algorithm) for
    THREE_FRY, PHILOX and DEFAULT (XLA's CPU compiler expands DEFAULT as
    PHILOX), u8/u16/u32/u64 and shapes with odd, even, unit and zero sizes.
    The state is a u64[2] (JAX's x64 mode), as HLO's rng-bit-generator takes
    it, and for PHILOX/DEFAULT also a u64[3] (the StableHLO op compiled by
    jaxlib's CPU client, as jax.lax only takes 2 words); the expected new
    state is XLA's too.
  * uniform: jax.random.uniform with a key whose PRNG implementation draws
    its bits with rng_bit_generator(THREE_FRY) from the key's 128 bits, as
    Torus's randomUniform does from its i64[2] key [k0, k1] (the u32[4] key
    is [lo(k0), hi(k0), lo(k1), hi(k1)], the bitcast JAX's own lowering
    uses). The float conversion is JAX's own (_uniform in jax/_src/random).
"""
import os
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)
A = lax.RandomAlgorithm

ALGORITHMS = [("THREE_FRY", A.RNG_THREE_FRY), ("PHILOX", A.RNG_PHILOX),
              ("DEFAULT", A.RNG_DEFAULT)]
STATES = [
    (0x0123456789ABCDEF, 1000),
    (0, 0),
    (42, 0xFFFFFFFF),                        # Threefry's counter crosses 2^32
    (0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFE),  # Philox's counter carries
]
# (shape, dtype, which states): every shape with the first state, a few with
# all of them.
CASES = [
    ((), "uint32"), ((1,), "uint32"), ((5,), "uint32"), ((8,), "uint32"),
    ((2, 3), "uint32"), ((3, 4), "uint32"), ((3, 5), "uint32"),
    ((3, 1, 5), "uint32"), ((1, 7), "uint32"), ((0, 3), "uint32"),
    ((), "uint64"), ((5,), "uint64"), ((3, 3), "uint64"), ((2, 1, 3), "uint64"),
    ((7,), "uint16"), ((2, 3), "uint16"), ((9,), "uint8"), ((3, 3), "uint8"),
]
ALL_STATES = [((5,), "uint32"), ((3, 3), "uint64"), ((7,), "uint16")]
TORUS_TYPE = {"uint8": "ui8", "uint16": "ui16", "uint32": "ui32",
              "uint64": "ui64"}


def u64(x):
    return f"0x{int(x) & 0xFFFFFFFFFFFFFFFF:X}ull"


def rng_bit_generator3(name, state, shape, dtype):
    """XLA's rng-bit-generator on a u64[3] state, which jax.lax does not take:
    the StableHLO op compiled by the CPU client directly."""
    out = "tensor<%s%s>" % ("".join(f"{d}x" for d in shape), TORUS_TYPE[dtype])
    text = f"""module @m attributes {{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func public @main(%arg0: tensor<3xui64>) -> (tensor<3xui64>, {out}) {{
    %s, %o = stablehlo.rng_bit_generator %arg0, algorithm = {name} : (tensor<3xui64>) -> (tensor<3xui64>, {out})
    return %s, %o : tensor<3xui64>, {out}
  }}
}}"""
    client = jax.devices()[0].client
    exe = client.compile_and_load(text, jax.devices()[:1])
    s, b = exe.execute([jax.device_put(np.array(state, np.uint64))])
    return np.asarray(s), np.asarray(b)


def bits_case(name, alg, state, shape, dtype):
    if len(state) == 3:
        s, b = rng_bit_generator3(name, state, shape, dtype)
    else:
        s, b = lax.rng_bit_generator(np.array(state, np.uint64), shape,
                                     np.dtype(dtype), algorithm=alg)
        s, b = np.asarray(s), np.asarray(b)
    return ("  {RngAlgorithm::%s, \"%s\", {%s}, {%s}, {%s},\n   {%s}},"
            % (name, TORUS_TYPE[dtype], ", ".join(map(str, shape)),
               ", ".join(u64(x) for x in state),
               ", ".join(u64(x) for x in s),
               ", ".join(u64(x) for x in b.reshape(-1))))


# A PRNG implementation whose bits are rng_bit_generator(THREE_FRY) of the
# key, so jax.random.uniform runs JAX's own bits-to-float code on them.
from jax._src.random import prng  # noqa: E402  (jax >= 0.10)


def _threefry_rbg_bits(key, bit_width, shape):
    dtype = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
    return lax.rng_bit_generator(key, shape, dtype=dtype[bit_width],
                                 algorithm=A.RNG_THREE_FRY)[1]


def _unused(*args):
    raise NotImplementedError


THREEFRY_RBG = prng.PRNGImpl(key_shape=(4,), seed=_unused, split=_unused,
                             random_bits=_threefry_rbg_bits, fold_in=_unused,
                             name="torus_threefry_rbg", tag="trb")


def uniform_case(key, shape, dtype, minval, maxval):
    words = np.array([key[0] & 0xFFFFFFFF, key[0] >> 32,
                      key[1] & 0xFFFFFFFF, key[1] >> 32], np.uint32)
    k = jax.random.wrap_key_data(words, impl=THREEFRY_RBG)
    u = np.asarray(jax.random.uniform(k, shape, jnp.dtype(dtype), minval,
                                      maxval)).astype(np.float64)
    return ("  {%s, {%s}, DType::%s, %r, %r,\n   {%s}},"
            % (", ".join(u64(x) for x in key), ", ".join(map(str, shape)),
               {"float32": "F32", "float64": "F64", "float16": "F16",
                "bfloat16": "BF16"}[dtype], float(minval), float(maxval),
               ", ".join(float(x).hex() for x in u.reshape(-1))))


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    lines = [
        "// Generated by tests/data/rng/make_vectors.py with jax "
        f"{jax.__version__}, jaxlib",
        f"// {jax.lib.__version__} on {jax.default_backend()}: XLA's values, "
        "do not edit.",
        "",
        "// {algorithm, element type, shape, state, XLA's new state, XLA's "
        "bits}",
        "static const RngVector kRngVectors[] = {",
    ]
    for name, alg in ALGORITHMS:
        for shape, dtype in CASES:
            states = STATES if (shape, dtype) in ALL_STATES else STATES[:1]
            for state in states:
                lines.append(bits_case(name, alg, state, shape, dtype))
    # PHILOX and DEFAULT also take a u64[3] state: the whole 128-bit counter.
    for name in ["PHILOX", "DEFAULT"]:
        for state, shape, dtype in [
                ((1, 2, 3), (5,), "uint32"),
                ((1, 0xFFFFFFFFFFFFFFFF, 7), (3,), "uint64"),
                ((0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFE, 0xFFFFFFFFFFFFFFFF),
                 (2, 3), "uint16")]:
            lines.append(bits_case(name, None, state, shape, dtype))
    lines += ["};", "",
              "// {key, shape, dtype, minval, maxval, jax.random.uniform's "
              "values}",
              "static const UniformVector kUniformVectors[] = {"]
    key = (7, 0)
    for shape, dtype, lo, hi in [((6,), "float32", 0, 1),
                                 ((2, 3), "float64", -2, 3),
                                 ((5,), "float16", 0, 1),
                                 ((5,), "bfloat16", 0, 1)]:
        lines.append(uniform_case(key, shape, dtype, lo, hi))
    lines.append(uniform_case((0x0123456789ABCDEF, 1000), (3, 3), "float32",
                              -1, 1))
    lines += ["};", ""]
    out = os.path.join(root, "api", "RngXlaVectors.inc")
    with open(out, "w") as f:
        f.write("\n".join(lines))
    print("wrote", out, file=sys.stderr)


if __name__ == "__main__":
    main()
