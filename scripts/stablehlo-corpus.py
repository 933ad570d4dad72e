#!/usr/bin/env python3
"""Runs the public StableHLO test programs through torus-run and judges them.

The test suite runs the corpus in process instead, much faster and against
the known failures: tests/stablehlo/StableHloCorpus.cpp (ctest
StableHloCorpus.0-3, docs/testing.md), whose judge (CorpusJudge.cpp) is a
port of close() below; keep the two alike. This script remains for a look
at torus-run itself and for --compare, which runs two builds.

The corpus (../shared/corpora/stablehlo, README there) holds one-op programs
as HLO text whose entry returns (result_0, expected_0, result_1, ...), with
the inputs as .npy files and the check kind in NAME.json. Each program is
run with `torus-run NAME.hlo in0.npy ... --output-dir=DIR` and judged as the
README says: integers exactly (same-width integers by bits, so that a u32
result Torus holds as signless i32 matches), f32/f64 by the check kind,
f16/bf16 (or their widened results) with rtol 1e-2, NaN matching NaN.

  scripts/stablehlo-corpus.py [--torus-run build/bin/torus-run]
      [--corpus DIR] [--sample N] [--compare OTHER_TORUS_RUN]

Prints a line per failing program (with --verbose), the pass count, and the
failures by exit code. With --compare, also runs OTHER_TORUS_RUN on every
program and lists the programs whose verdict or outputs differ: the check
that a refactoring changed no result. Needs numpy (a tooling dependency,
`pip install numpy`).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.normpath(
    os.path.join(HERE, "..", "..", "shared", "corpora", "stablehlo"))


def run(torus_run, hlo_dir, name, out_dir):
    """Runs one program; returns (exit code, [outputs], stderr tail)."""
    inputs = []
    k = 0
    while os.path.exists(os.path.join(hlo_dir, f"{name}.in{k}.npy")):
        inputs.append(os.path.join(hlo_dir, f"{name}.in{k}.npy"))
        k += 1
    cmd = [torus_run, os.path.join(hlo_dir, f"{name}.hlo"), *inputs,
           f"--output-dir={out_dir}"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        code, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", [], ""
    outputs = []
    i = 0
    while os.path.exists(os.path.join(out_dir, f"result{i}.replica0.npy")):
        outputs.append(load(os.path.join(out_dir, f"result{i}.replica0.npy")))
        i += 1
    return code, outputs, err.strip().splitlines()[-1:] if err else []


class Bf16(np.ndarray):
    """A bf16 array (torus-run writes bf16 as ml_dtypes does, the 2-byte
    void '<V2'), widened to f32: a narrow float."""


def load(path):
    a = np.load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        bits = a.view(np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).view(Bf16)
    return a


def close(got, want, kind, narrow):
    if got.shape != want.shape:
        return False
    # Complex: the real and imaginary parts each as their float type.
    if got.dtype.kind == "c" or want.dtype.kind == "c":
        if got.dtype != want.dtype:
            return False
        return (close(got.real, want.real, kind, narrow) and
                close(got.imag, want.imag, kind, narrow))
    if got.dtype.kind in "biu" or want.dtype.kind in "biu":
        if (got.dtype.kind in "iu" and want.dtype.kind in "iu" and
                got.dtype.itemsize == want.dtype.itemsize):
            return np.array_equal(got.view(want.dtype), want)
        return np.array_equal(got, want)
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    finite = np.isfinite(w)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return False
    if not np.array_equal(g[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)]):
        return False
    g, w = g[finite], w[finite]
    if narrow or got.dtype == np.float16 or isinstance(got, Bf16):
        return bool(np.all(np.abs(g - w) <= 1e-2 * np.abs(w) + 1e-2))
    if kind == "expect_almost_eq":
        return bool(np.all(np.abs(g - w) <= 1e-3))
    if kind == "expect_close":
        ulp = np.spacing(np.abs(want[finite]).astype(got.dtype)).astype(np.float64)
        return bool(np.all(np.abs(g - w) <= 3 * ulp))
    return bool(np.all(np.abs(g - w) <= 1e-5 * np.abs(w) + 1e-6))


def judge(hlo_dir, name, outputs):
    with open(os.path.join(hlo_dir, f"{name}.json")) as f:
        meta = json.load(f)
    checks = meta.get("checks") or [{"check": meta.get("check", "expect_eq"),
                                      "result_types": meta.get("result_types", [])}]
    if len(outputs) < 2 or len(outputs) % 2:
        return False
    for r in range(len(outputs) // 2):
        got, want = outputs[2 * r], outputs[2 * r + 1]
        file = os.path.join(hlo_dir, f"{name}.expected{'' if r == 0 else r}.npy")
        if os.path.exists(file):
            want = load(file)
        check = checks[min(r, len(checks) - 1)]
        types = str(check.get("result_types", ""))
        narrow = "bf16" in types or "f16" in types
        if not close(got, want, check.get("check", "expect_eq"), narrow):
            return False
    return True


def same_outputs(a, b):
    return len(a) == len(b) and all(
        x.shape == y.shape and x.dtype == y.dtype and
        np.array_equal(x, y, equal_nan=x.dtype.kind == "f") for x, y in zip(a, b))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torus-run", default=os.path.join(HERE, "..", "build", "bin", "torus-run"))
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--sample", type=int, default=0,
                    help="run N programs chosen with a fixed seed (0: all)")
    ap.add_argument("--filter", default="",
                    help="only the programs whose name contains this")
    ap.add_argument("--compare", help="another torus-run to compare with")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    hlo_dir = os.path.join(args.corpus, "hlo")
    names = sorted(f[:-4] for f in os.listdir(hlo_dir)
                   if f.endswith(".hlo") and args.filter in f)
    if args.sample:
        names = sorted(random.Random(17).sample(names, min(args.sample, len(names))))
    passed, by_code, differ = 0, {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for n, name in enumerate(names):
            out = os.path.join(tmp, str(n))
            os.makedirs(out)
            code, outputs, err = run(args.torus_run, hlo_dir, name, out)
            ok = code == 0 and judge(hlo_dir, name, outputs)
            passed += ok
            if not ok:
                key = f"exit {code}" if code != 0 else "wrong values"
                by_code[key] = by_code.get(key, 0) + 1
                if args.verbose:
                    print(f"FAIL {name}: {key} {' '.join(err)}")
            if args.compare:
                other = os.path.join(tmp, f"{n}.other")
                os.makedirs(other)
                code2, outputs2, _ = run(args.compare, hlo_dir, name, other)
                ok2 = code2 == 0 and judge(hlo_dir, name, outputs2)
                if ok != ok2 or code != code2 or not same_outputs(outputs, outputs2):
                    differ.append(f"{name}: exit {code} vs {code2}, "
                                  f"{'pass' if ok else 'fail'} vs {'pass' if ok2 else 'fail'}")
    print(f"{passed} of {len(names)} programs pass")
    for key, count in sorted(by_code.items()):
        print(f"  {count:5d} {key}")
    if args.compare:
        print(f"{len(differ)} programs differ from {args.compare}")
        for d in differ:
            print(f"  {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
