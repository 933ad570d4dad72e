#!/usr/bin/env python3
"""Writes inputs and NumPy's expected outputs for ../../run-allreduce8.hlo.

    python3 ir/hlo/test/Inputs/allreduce8/make_data.py   # rewrites this folder

x.npy is stacked per replica ([8, 8, 4]: torus-run gives slice r to replica
r); w.npy is shared. expected/result<i>.npy stacks result i of every replica
([8, ...]), as tests/data/compare_npy.py reads them. Tooling only: the test
reads the committed files and needs no NumPy.
"""
import os

import numpy as np

R = 8
here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(31)
x = rng.uniform(-1, 1, size=(R, 8, 4)).astype(np.float32)
w = rng.uniform(-1, 1, size=(4, 3)).astype(np.float32)

x64, w64 = x.astype(np.float64), w.astype(np.float64)
y = np.einsum("rbk,kn->rbn", x64, w64)                 # [R, 8, 3]
relu = np.maximum(y, 0)
loss = np.sum(relu ** 2)                               # all-reduce, all replicas
g = np.einsum("rbk,rbn->rkn", x64, relu)               # [R, 4, 3]
group = [list(range(0, 4)), list(range(4, 8))]         # [2,4]<=[8]
gsum = np.stack([sum(g[m] for m in grp) for r in range(R)
                 for grp in group if r in grp])
ry = np.stack([r * y[r] for r in range(R)])
parity = [[0, 2, 4, 6], [1, 3, 5, 7]]
mx = np.stack([np.max(ry[grp], axis=0) for r in range(R)
               for grp in parity if r in grp])
idx = np.argmax(y, axis=2).astype(np.int32)            # ties: first index
scaled = gsum * 8

np.save(os.path.join(here, "x.npy"), x)
np.save(os.path.join(here, "w.npy"), w)
os.makedirs(os.path.join(here, "expected"), exist_ok=True)
results = [np.full((R,), loss), gsum, mx, idx, scaled]
for i, result in enumerate(results):
    dtype = np.int32 if result.dtype.kind == "i" else np.float32
    np.save(os.path.join(here, "expected", f"result{i}.npy"),
            np.ascontiguousarray(result, dtype=dtype))
print(f"wrote {here}")
