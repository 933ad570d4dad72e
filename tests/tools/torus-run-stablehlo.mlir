// Tests that torusc and torus-run read StableHLO text (a .mlir file naming
// stablehlo ops, as JAX writes it): x @ w, relu, a private call to a
// reduce; expected [[1,2,3],[-1,-2,-3]] @ [[1,-1],[2,-2],[3,3]] = [[14,4],
// [-14,-4]], relu and row sums [18, 0]. An op with no torus equivalent is an
// error at its position.
// RUN: torus-run %S/Inputs/stablehlo_mlp.mlir %torus_src/tests/data/stablehlo/x.npy --print-outputs | FileCheck %s --check-prefix=OUT
// RUN: torusc %S/Inputs/stablehlo_mlp.mlir --emit=torus | FileCheck %s --check-prefix=IR
// RUN: not torusc %S/Inputs/stablehlo_unsupported.mlir --emit=torus 2>&1 | FileCheck %s --check-prefix=ERR

// OUT: @main: 1 replica on 1 emulated core
// OUT: replica 0 result 0: f32[2]{18, 0}

// IR: module @jit_f attributes {torus.num_partitions = 1 : i64, torus.num_replicas = 1 : i64}
// IR: torus.dot_general
// IR: torus.maximum
// IR: torus.call @sum
// IR: torus.reduce sum

// ERR: stablehlo_unsupported.mlir:3:10: error: 'chlo.erf_inv' has no torus equivalent yet
