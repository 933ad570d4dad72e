// Tests that large splat constants become linalg.fill (a loop at run time)
// while small ones stay constants, and that a whole compile of a 1 GiB
// splat (a constant broadcast, folded into one) emits no global holding the
// data: were it materialized, the LLVM IR would be 1 GiB and this test
// would take minutes, not a second.
// RUN: torus-opt %s --pass-pipeline='builtin.module(func.func(torus-splats-to-fills{max-elements=4}))' | FileCheck %s
// RUN: torusc %S/Inputs/splat-1g.mlir --emit=llvm -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: wc -c < %t.ll | awk '{ exit !($1 < 100000) }'

// CHECK-LABEL: func.func @splats
func.func @splats() -> (tensor<2x3xf32>, tensor<2xi32>, tensor<2x3xf32>) {
  // CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
  // CHECK-DAG: %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
  // CHECK-DAG: %[[FILL:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[EMPTY]] : tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-DAG: %[[SMALL:.*]] = arith.constant dense<7> : tensor<2xi32>
  // CHECK-DAG: %[[DENSE:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00
  // CHECK: return %[[FILL]], %[[SMALL]], %[[DENSE]]
  %big = arith.constant dense<1.0> : tensor<2x3xf32>
  %small = arith.constant dense<7> : tensor<2xi32>
  %dense = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  return %big, %small, %dense : tensor<2x3xf32>, tensor<2xi32>, tensor<2x3xf32>
}

// LLVM-NOT: x float] {{.*}}1.000000e+00
// LLVM: define {{.*}}@splat1g
