#!/usr/bin/env python3
"""Torus against JAX's XLA:CPU on the same programs, in one run (issue #23).

    python3 benchmarks/jax_compare.py [--build build] [--python PY]
                                      [--only mlp] [--rounds 3] [--steps 20]

The programs are the JAX corpus's (tests/jax/generate.py) at the sizes users
train at: the MLP training step 784-512-512-10 at batch 256, the conv net's
gradient step, attention, layer norm, a scan (an RNN) and the MLP step data
parallel over 8 devices (pmap). For each, a JAX process (the virtual
environment's Python: --python, else $TORUS_JAX_PYTHON, else
/work/venv-jax/bin/python) writes the program as HLO text and its inputs,
then, for 1 and 2 host threads, JAX and `program_bench` (benchmarks/
program_bench.cpp) take turns (--rounds times, each a fresh process pinned
to the same cores with taskset) timing compilation and steps. Each prints
min and median; the table gives the best median of the rounds and the ratio
Torus / JAX (below 1: Torus is faster), with the CPU named. Torus's results
are checked against JAX's before anything is timed.

Beside them, the compute floor: the flops of the program's dots and
convolutions (counted on its jaxpr, loops times their trip count) over this
host's peak f32 multiply-add rate on the same cores (`peak_flops`, measured
in the same run). No code runs the step faster than that, so floor / JAX is
a lower bound on the step ratio any compiler could reach on this host.

Threads: 1 thread is `taskset -c 0`, JAX with
`--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1` and
Torus with `--host-threads=1`; 2 threads is `taskset -c 0,1` and both
unrestricted. The 8-device run forces 8 host devices in JAX
(`--xla_force_host_platform_device_count=8`) and runs 8 emulated cores in
Torus, both on the same 2 host cores.

Without JAX it prints why and exits 0: it is a benchmark, not a test.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# --- the JAX side, run in the virtual environment ---------------------------

JAX_SIDE = r'''
import json, os, sys, time
import numpy as np
mode, workdir, name = sys.argv[1], sys.argv[2], sys.argv[3]
if mode == "check":
    # Torus's results (torus/result<k>.npy) against JAX's (out<k>.npy).
    d = os.path.join(workdir, name)
    k = 0
    while os.path.exists(os.path.join(d, f"out{k}.npy")):
        want = np.load(os.path.join(d, f"out{k}.npy"))
        got = np.load(os.path.join(d, "torus", f"result{k}.npy"))
        if want.shape != got.shape:
            print(f"MISMATCH: result {k} is {got.shape}, JAX's {want.shape}")
            sys.exit(0)
        if not np.allclose(got, want, rtol=1e-3, atol=1e-4):
            err = np.max(np.abs(got.astype(np.float64) - want))
            print(f"MISMATCH: result {k} off by up to {err:.3g}")
            sys.exit(0)
        k += 1
    print(f"ok ({k} results)")
    sys.exit(0)
import jax, jax.numpy as jnp
from jax import lax

def normal(r, *shape, scale=1.0):
    return (r.standard_normal(shape) * scale).astype(np.float32)

def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))

def mlp_step(w1, b1, w2, b2, w3, b3, x, labels, mean=lambda v: v):
    """Loss and SGD-updated weights; `mean` averages over the replicas."""
    params = [(w1, b1), (w2, b2), (w3, b3)]
    def loss(p):
        h = x
        for i, (w, b) in enumerate(p):
            h = h @ w + b
            if i + 1 < len(p):
                h = jax.nn.relu(h)
        return cross_entropy(h, labels)
    l, g = jax.value_and_grad(loss)(params)
    g = mean(g)
    new = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, g)
    return (mean(l),) + tuple(v for wb in new for v in wb)

def mlp_args(r, batch=256, sizes=(784, 512, 512, 10)):
    args = []
    for fi, fo in zip(sizes[:-1], sizes[1:]):
        args += [normal(r, fi, fo, scale=fi ** -0.5), normal(r, fo, scale=0.1)]
    return args + [normal(r, batch, sizes[0]),
                   r.integers(0, sizes[-1], batch).astype(np.int32)]

def convnet():
    r = np.random.default_rng(1)
    def forward(k1, k2, w, x):
        dn = ("NHWC", "HWIO", "NHWC")
        y = jax.nn.relu(lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=dn))
        y = lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0
        y = jax.nn.relu(lax.conv_general_dilated(y, k2, (2, 2), "SAME", dimension_numbers=dn))
        return y.reshape(y.shape[0], -1) @ w
    def step(k1, k2, w, x, labels):
        l, (g1, g2, gw) = jax.value_and_grad(
            lambda a, b, c: cross_entropy(forward(a, b, c, x), labels), argnums=(0, 1, 2))(k1, k2, w)
        return l, k1 - 0.05 * g1, k2 - 0.05 * g2, w - 0.05 * gw
    return step, [normal(r, 3, 3, 3, 32, scale=0.3), normal(r, 3, 3, 32, 64, scale=0.1),
                  normal(r, 8 * 8 * 64, 10, scale=0.02), normal(r, 64, 32, 32, 3),
                  r.integers(0, 10, 64).astype(np.int32)]

def attention():
    r = np.random.default_rng(2)
    def f(q, k, v, mask):
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
        s = jnp.where(mask, s, -1e9)
        return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)
    shape = (4, 8, 128, 64)
    return f, [normal(r, *shape), normal(r, *shape), normal(r, *shape),
               np.tril(np.ones((128, 128), bool))]

def layer_norm():
    r = np.random.default_rng(3)
    def f(x, gamma, beta):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
        return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta
    return f, [normal(r, 4096, 1024), normal(r, 1024), normal(r, 1024)]

def scan_rnn():
    r = np.random.default_rng(4)
    def f(h0, w, u, xs):
        def cell(h, x):
            h = jnp.tanh(h @ w + x @ u)
            return h, jnp.sum(h)
        return lax.scan(cell, h0, xs)
    return f, [normal(r, 32, 256), normal(r, 256, 256, scale=0.06),
               normal(r, 128, 256, scale=0.08), normal(r, 64, 32, 128)]

PROGRAMS = {
    "mlp_train_step": lambda: (mlp_step, mlp_args(np.random.default_rng(0))),
    "convnet_train_step": convnet,
    "attention": attention,
    "layer_norm": layer_norm,
    "scan_rnn": scan_rnn,
    # The MLP step data parallel over 8 devices: each gets batch 32 and the
    # gradients are averaged (pmean), as MirroredStrategy does.
    "dp8_mlp_train_step": lambda: (mlp_step, mlp_args(np.random.default_rng(5), batch=32)),
}
DP = {"dp8_mlp_train_step"}

def dp_step(*args):
    # The gradients and the loss averaged over the devices (pmean).
    return mlp_step(*args, mean=lambda v: lax.pmean(v, "i"))

fn, args = PROGRAMS[name]()
d = os.path.join(workdir, name)
if name in DP:
    fn = jax.pmap(dp_step, axis_name="i")
    call_args = [np.broadcast_to(a, (8,) + a.shape).copy() for a in args]
else:
    fn = jax.jit(fn)
    call_args = args

if mode == "export":
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "program.hlo"), "w") as f:
        f.write(fn.lower(*call_args).compiler_ir("hlo").as_hlo_text())
    # pmap's per-device program keeps the mapped axis, of size 1.
    for i, a in enumerate(args):
        np.save(os.path.join(d, f"in{i}.npy"), a[None] if name in DP else a)
    outs = jax.tree_util.tree_leaves(fn(*call_args))
    for i, o in enumerate(outs):
        o = np.asarray(o)
        np.save(os.path.join(d, f"out{i}.npy"), o[0:1] if name in DP else o)
    sys.exit(0)

def matmul_flops(jaxpr):
    """2 x the multiply-adds of the program's dots and convolutions, loops
    counted as many times as they run (XLA's cost analysis counts a loop's
    body once), taps on a dilated input's zeros not counted. Elementwise work
    is left out: the floor it gives is low."""
    total = 0.0
    for e in jaxpr.eqns:
        p = e.primitive.name
        out = e.outvars[0].aval.shape if e.outvars else ()
        if p == "dot_general":
            (lc, _), _ = e.params["dimension_numbers"]
            lhs = e.invars[0].aval.shape
            total += 2.0 * np.prod(out) * np.prod([lhs[d] for d in lc])
        elif p == "conv_general_dilated":
            rhs = e.invars[1].aval.shape
            o = e.params["dimension_numbers"].rhs_spec[0]
            # An input dilated by d (a strided convolution's gradient) puts
            # d - 1 zeros between its elements: 1 / d of the taps are work.
            dilated = np.prod(e.params.get("lhs_dilation") or (1,))
            total += 2.0 * np.prod(out) * np.prod(rhs) / rhs[o] / dilated
        times = e.params.get("length", 1) if p == "scan" else 1
        for v in e.params.values():
            for sub in (v if isinstance(v, (tuple, list)) else (v,)):
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    total += times * matmul_flops(inner)
    return total

compiles, steps = int(sys.argv[4]), int(sys.argv[5])
compile_ms = []
for _ in range(compiles):
    jax.clear_caches()
    t = time.perf_counter()
    compiled = fn.lower(*call_args).compile()
    compile_ms.append((time.perf_counter() - t) * 1e3)
if name in DP:
    dev = jax.pmap(lambda *a: a)(*call_args)
else:
    dev = [jax.device_put(a) for a in call_args]
step_ms = []
for i in range(steps + 3):
    t = time.perf_counter()
    jax.block_until_ready(compiled(*dev))
    if i >= 3:
        step_ms.append((time.perf_counter() - t) * 1e3)
compile_ms.sort(); step_ms.sort()
flops = matmul_flops(jax.make_jaxpr(dp_step if name in DP else PROGRAMS[name]()[0],
                                     **({"axis_env": [("i", 8)]} if name in DP else {}))(*args).jaxpr)
flops *= 8 if name in DP else 1
print(json.dumps({"compile_ms": {"min": compile_ms[0], "median": compile_ms[len(compile_ms) // 2]},
                  "flops": flops,
                  "step_ms": {"min": step_ms[0], "median": step_ms[len(step_ms) // 2]},
                  "devices": len(jax.devices())}))
'''

PROGRAM_NAMES = ["mlp_train_step", "convnet_train_step", "attention",
                 "layer_norm", "scan_rnn", "dp8_mlp_train_step"]


def jax_env(threads, devices):
    flags = []
    if devices > 1:
        flags.append(f"--xla_force_host_platform_device_count={devices}")
    if threads == 1:
        flags += ["--xla_cpu_multi_thread_eigen=false",
                  "intra_op_parallelism_threads=1"]
    env = dict(os.environ, JAX_PLATFORMS="cpu", XLA_FLAGS=" ".join(flags))
    return env


def cores(threads):
    return "0" if threads == 1 else "0,1"


def run_json(cmd, env=None):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd[:4]))} ...: exit "
                           f"{p.returncode}\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=str(REPO / "build"))
    ap.add_argument("--python", default=os.environ.get(
        "TORUS_JAX_PYTHON", "/work/venv-jax/bin/python"))
    ap.add_argument("--only", default="")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--compiles", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()

    bench = Path(args.build) / "bin" / "program_bench"
    if not bench.exists():
        print(f"skipped: {bench} is not built (ninja -C {args.build} program_bench)")
        return 0
    probe = None
    if shutil.which(args.python) or Path(args.python).exists():
        probe = subprocess.run(
            [args.python, "-c", "import jax, numpy; print(jax.__version__)"],
            capture_output=True, text=True)
    if probe is None or probe.returncode != 0:
        print(f"skipped: no JAX at {args.python} (pip install jax in a virtual "
              "environment and pass --python or set TORUS_JAX_PYTHON)")
        return 0
    if shutil.which("taskset") is None:
        print("skipped: taskset (util-linux) is needed to pin both to the same cores")
        return 0
    jax_version = probe.stdout.strip()
    # This host's peak multiply-add rate on the cores each run is pinned to.
    peak = Path(args.build) / "bin" / "peak_flops"
    args.peaks = {}
    if peak.exists():
        for t in [int(t) for t in args.threads.split(",")]:
            args.peaks[t] = run_json(["taskset", "-c", cores(t), str(peak),
                                      f"--threads={t}"])["gflops"]
    names = [n for n in PROGRAM_NAMES if args.only in n]
    threads = [int(t) for t in args.threads.split(",")]

    work = Path(tempfile.mkdtemp(prefix="torus-jax-compare-"))
    side = work / "jax_side.py"
    side.write_text(JAX_SIDE)
    rows = []
    try:
        for name in names:
            try:
                rows += compare(name, args, bench, side, work, threads)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                print(f"{name}: failed: {e}", flush=True)
                rows.append((name, 0, None, f"failed: {str(e).splitlines()[-1]}", "?"))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print()
    timed = [r for r in rows if r[2]]
    print(f"CPU: {timed[0][4] if timed else '?'} ({cpu_model()}), JAX {jax_version}; "
          f"best median of {args.rounds} interleaved rounds, {args.steps} steps "
          f"and {args.compiles} compiles each; ratio = Torus / JAX (< 1: Torus faster)")
    if args.peaks:
        print("Peak f32 multiply-add rate (peak_flops): " + ", ".join(
            f"{g:.0f} GFLOP/s on {t} thread{'s' if t > 1 else ''}"
            for t, g in sorted(args.peaks.items())))
    print("| program | threads | Torus step ms | JAX step ms | step ratio | "
          "floor ms | floor / JAX | "
          "Torus compile ms | JAX compile ms | compile ratio | results |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(table_row(r))
    return 0


def compare(name, args, bench, side, work, threads):
    """The rows of one program: its check, then each thread count."""
    rows = []
    devices = 8 if name.startswith("dp8") else 1
    subprocess.run([args.python, str(side), "export", str(work), name],
                   env=jax_env(2, devices), check=True)
    d = work / name
    inputs = sorted(d.glob("in*.npy"), key=lambda p: int(p.stem[2:]))
    torus_cmd = [str(bench), str(d / "program.hlo"),
                 *[f"--input={p}" for p in inputs],
                 f"--replicas={devices}", f"--compiles={args.compiles}",
                 f"--steps={args.steps}"]
    check = run_json(torus_cmd + [f"--output-dir={d / 'torus'}",
                                  "--steps=1", "--compiles=1"])
    verdict = subprocess.run(
        [args.python, str(side), "check", str(work), name],
        capture_output=True, text=True, check=True).stdout.strip()
    for t in threads:
        best = {"torus": None, "jax": None, "flops": 0.0}
        for _ in range(args.rounds):
            tj = run_json(["taskset", "-c", cores(t), args.python, str(side),
                           "time", str(work), name, str(args.compiles),
                           str(args.steps)], jax_env(t, devices))
            tt = run_json(["taskset", "-c", cores(t)] + torus_cmd +
                          [f"--host-threads={0 if t > 1 else 1}"])
            best["flops"] = tj.get("flops", 0.0)
            for key, r in (("jax", tj), ("torus", tt)):
                b = best[key]
                if b is None:
                    best[key] = r
                else:
                    for m in ("compile_ms", "step_ms"):
                        b[m]["median"] = min(b[m]["median"], r[m]["median"])
                        b[m]["min"] = min(b[m]["min"], r[m]["min"])
        best["peak_gflops"] = args.peaks.get(t, 0.0)
        rows.append((name, t, best, verdict, check["cpu"]))
        print_row(rows[-1], flush=True)
    return rows


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def table_row(row):
    name, t, best, verdict, _ = row
    if best is None:
        return f"| {name} | | | | | | | | | | {verdict} |"
    ts, js = best["torus"]["step_ms"]["median"], best["jax"]["step_ms"]["median"]
    tc, jc = best["torus"]["compile_ms"]["median"], best["jax"]["compile_ms"]["median"]
    floor = ""
    if best["flops"] > 0 and best["peak_gflops"] > 0:
        f = best["flops"] / (best["peak_gflops"] * 1e6)  # ms
        floor = f"{f:.3f} | {f / js:.2f}"
    else:
        floor = "- | -"  # no dots or convolutions to bound it
    return (f"| {name} | {t} | {ts:.3f} | {js:.3f} | {ts / js:.2f} | {floor} | "
            f"{tc:.0f} | {jc:.0f} | {tc / jc:.2f} | {verdict} |")


def print_row(row, flush=False):
    print(table_row(row), flush=flush)


if __name__ == "__main__":
    sys.exit(main())
