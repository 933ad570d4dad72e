// Tests a dot_general with a rank-0 result (it crashed in the lowering):
// [1..8] . [8..1] = 1*8 + 2*7 + ... + 8*1 = 120.
// RUN: torus-run %S/Inputs/vector_dot.mlir %torus_src/tests/data/vector_dot/a.npy %torus_src/tests/data/vector_dot/b.npy --print-outputs | FileCheck %s
// CHECK: replica 0 result 0: f32[]{120}
