#!/usr/bin/env python3
"""Writes inputs and NumPy's expected outputs for tests/tools/Inputs/allreduce8.mlir.

    python3 tests/data/make_allreduce8.py     # rewrites tests/data/allreduce8/

x.npy is stacked per replica ([8, 8, 4]: torus-run gives slice r to replica
r); w.npy is the same for every replica. expected/result<i>.npy stacks the
result i of every replica ([8, ...]). Tooling only: the test itself reads
the committed files without NumPy (compare_npy.py).
"""
import os

import numpy as np

REPLICAS = 8
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "allreduce8")
rng = np.random.default_rng(2026)
x = rng.uniform(-1, 1, size=(REPLICAS, 8, 4)).astype(np.float32)
w = rng.uniform(-1, 1, size=(4, 3)).astype(np.float32)

y = np.einsum("rbk,kn->rbn", x.astype(np.float64), w.astype(np.float64))
gsum = sum(x[r].astype(np.float64).T @ y[r] for r in range(REPLICAS))
groups = [[0, 2, 4, 6], [1, 3, 5, 7]]
ymax = np.stack([np.max(y[g], axis=0) for r in range(REPLICAS)
                 for g in groups if r in g])
ysum = sum(r * y[r] for r in range(REPLICAS))

os.makedirs(os.path.join(here, "expected"), exist_ok=True)
np.save(os.path.join(here, "x.npy"), x)
np.save(os.path.join(here, "w.npy"), w)
results = [np.broadcast_to(gsum, (REPLICAS,) + gsum.shape), ymax,
           np.broadcast_to(ysum, (REPLICAS,) + ysum.shape)]
for i, result in enumerate(results):
    np.save(os.path.join(here, "expected", f"result{i}.npy"),
            np.ascontiguousarray(result, dtype=np.float32))
print(f"wrote {here}")
