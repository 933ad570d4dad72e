// Tests that what HLO cannot express is an error at the op, with exit
// code 1: a function call of another dialect, and a permutation across
// replicas and partitions that no HLO mode describes.
// RUN: split-file %s %t
// RUN: not torusc %t/func-call.mlir --emit=hlo 2>&1 | FileCheck %t/func-call.mlir
// RUN: not torusc %t/permute.mlir --emit=hlo 2>&1 | FileCheck %t/permute.mlir
// RUN: torusc %t/permute.mlir --emit=hlo; test $? -eq 1

//--- func-call.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: func-call.mlir:[[@LINE+1]]:8: error: HLO export: 'func.call' has no HLO counterpart
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- permute.mlir
module attributes {torus.num_replicas = 2 : i64, torus.num_partitions = 2 : i64} {
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // Device 0 (replica 0, partition 0) sends to device 3 (replica 1,
  // partition 1).
  // CHECK: permute.mlir:[[@LINE+1]]:8: error: HLO export: the pairs of collective_permute mix replicas and partitions in a way HLO cannot express
  %0 = torus.collective_permute %x, source_target_pairs = dense<[[0, 3], [3, 0]]> : tensor<2x2xi64> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
}
