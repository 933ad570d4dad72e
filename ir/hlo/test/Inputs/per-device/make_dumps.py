#!/usr/bin/env python3
"""Writes XLA's optimized HLO of partitioned JAX programs for
../../run-per-device.hlo.

    XLA_FLAGS= /work/venv-jax/bin/python ir/hlo/test/Inputs/per-device/make_dumps.py

JAX 0.10.2 on 8 CPU devices (a 4x2 mesh, axes x and y). For each program
P, P.cpu_after_optimizations.txt is the file XLA writes with
--xla_dump_to: the program each device runs after SPMD partitioning, which
Torus must not partition again. For shard_map and pmap also the global
programs JAX lowers (`compiler_ir('hlo').as_hlo_text()`): P.hlo with
Shardy's custom-calls and attributes (JAX's default), P.gspmd.hlo with
GSPMD's (jax_use_shardy_partitioner off). P/in<i>.npy stacks input i's shard of every
device ([8, ...], device d's slice d, as torus-run splits inputs over
replicas) and P/expected/result<i>.npy the shards of JAX's result i, as
tests/data/compare_npy.py reads them. Tooling only.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def programs():
    import jax
    import jax.numpy as jnp
    from jax import shard_map
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    devices = np.array(jax.devices())
    mesh = Mesh(devices.reshape(4, 2), ("x", "y"))
    x = np.arange(32, dtype=np.float32).reshape(8, 4) / 8

    def body(x):
        # psum over x, and a swap over y: collectives of global device ids.
        return (jax.lax.psum(x, "x"),
                jax.lax.ppermute(x, "y", [(0, 1), (1, 0)]))

    shard_mapped = jax.jit(shard_map(
        body, mesh=mesh, in_specs=P("x", "y"),
        out_specs=(P(None, "y"), P("x", "y"))))
    # axis_index becomes partition-id.
    pmapped = jax.pmap(
        lambda x: jax.lax.psum(x, "i") * 2 + jax.lax.axis_index("i"),
        axis_name="i")
    named = jax.jit(
        lambda a, b: jnp.tanh(a @ b),
        in_shardings=(NamedSharding(mesh, P("x", "y")),
                      NamedSharding(mesh, P("y", None))),
        out_shardings=NamedSharding(mesh, P("x", "y")))
    w = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
    return devices, {
        "shard_map": (shard_mapped, (x,)),
        "pmap": (pmapped, (x.reshape(8, 1, 4),)),
        "named_sharding": (named, (x, w)),
    }


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        _, progs = programs()
        fn, args = progs[sys.argv[2]]
        fn.lower(*args).compile()
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--text":
        import jax
        jax.config.update("jax_use_shardy_partitioner",
                          sys.argv[3] == "shardy")
        _, progs = programs()
        fn, args = progs[sys.argv[2]]
        print(fn.lower(*args).compiler_ir("hlo").as_hlo_text())
        return
    env = dict(os.environ,
               XLA_FLAGS="--xla_force_host_platform_device_count=8")
    if os.environ.get("XLA_FLAGS") != env["XLA_FLAGS"]:
        os.execve(sys.executable, [sys.executable, __file__], env)
    devices, progs = programs()
    for name, (fn, args) in progs.items():
        out = os.path.join(HERE, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.join(out, "expected"))
        if name == "pmap":
            shardings = [None] * len(args)
        else:
            shardings = fn.lower(*args).compile().input_shardings[0]
        for i, a in enumerate(args):
            if shardings[i] is None:
                shards = [a[k:k + 1] for k in range(len(devices))]
            else:
                index = shardings[i].devices_indices_map(a.shape)
                shards = [a[index[d]] for d in devices.flat]
            np.save(os.path.join(out, f"in{i}.npy"), np.stack(shards))
        results = fn(*args)
        results = results if isinstance(results, tuple) else (results,)
        for i, r in enumerate(results):
            by_device = {s.device: np.asarray(s.data)
                         for s in r.addressable_shards}
            np.save(os.path.join(out, "expected", f"result{i}.npy"),
                    np.stack([by_device[d] for d in devices.flat]))
        with tempfile.TemporaryDirectory() as tmp:
            dump_env = dict(env, XLA_FLAGS=env["XLA_FLAGS"] +
                            f" --xla_dump_to={tmp}")
            subprocess.run([sys.executable, __file__, "--dump", name],
                           env=dump_env, check=True)
            (path,) = [p for p in glob.glob(
                f"{tmp}/*.cpu_after_optimizations.txt")
                if "jit_convert" not in p and "broadcast_in_dim" not in p]
            shutil.copy(path, os.path.join(
                HERE, f"{name}.cpu_after_optimizations.txt"))
        if name in ("shard_map", "pmap"):
            for partitioner, suffix in (("shardy", "hlo"),
                                        ("gspmd", "gspmd.hlo")):
                text = subprocess.run(
                    [sys.executable, __file__, "--text", name, partitioner],
                    env=env, check=True, capture_output=True,
                    text=True).stdout
                with open(os.path.join(HERE, f"{name}.{suffix}"), "w") as f:
                    f.write(text)


if __name__ == "__main__":
    main()
