// Tests that a program returning its own argument, and one value twice,
// compiles and runs (MLIR 19's out-parameter hoisting crashed on both).
// RUN: torus-run %S/Inputs/aliased_results.mlir --seed=3 --print-outputs | FileCheck %s
// CHECK: replica 0 result 0: f32[3]{[[A0:.*]], [[A1:.*]], [[A2:.*]]}
// CHECK: replica 0 result 1: f32[3]{[[S:.*]]}
// CHECK: replica 0 result 2: f32[3]{[[S]]}
// CHECK: replica 0 result 3: f32[3]{[[A0]], [[A1]], [[A2]]}
