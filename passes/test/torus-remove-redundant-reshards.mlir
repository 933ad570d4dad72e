// Tests that resharding round trips disappear: a gather sliced back to the
// device's own block, an all-to-all undone by its inverse, a permute that
// sends every device its own data, a sharding_constraint of a value that
// already has that sharding; and that real data movement stays.
// RUN: torus-opt %s --split-input-file --torus-remove-redundant-reshards | FileCheck %s

// CHECK-LABEL: func.func @gather_slice
// CHECK-NOT: torus.all_gather
// CHECK-NOT: torus.partition_id
// CHECK: return %arg0
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @gather_slice(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %pid = torus.partition_id : tensor<i32>
    %g = torus.all_gather %x, all_gather_dim = 0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8xf32>) -> tensor<8x8xf32>
    %four = torus.constant dense<4> : tensor<i32>
    %off = torus.multiply %pid, %four : tensor<i32>
    %zero = torus.constant dense<0> : tensor<i32>
    %s = torus.dynamic_slice %g[%off, %zero], sizes = [4, 8] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
    return %s : tensor<4x8xf32>
  }
}

// -----

// Slicing another device's block is real data movement.
// CHECK-LABEL: func.func @gather_other
// CHECK: torus.all_gather
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @gather_other(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %pid = torus.partition_id : tensor<i32>
    %g = torus.all_gather %x, all_gather_dim = 0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8xf32>) -> tensor<8x8xf32>
    %one = torus.constant dense<1> : tensor<i32>
    %other = torus.subtract %one, %pid : tensor<i32>
    %four = torus.constant dense<4> : tensor<i32>
    %off = torus.multiply %other, %four : tensor<i32>
    %zero = torus.constant dense<0> : tensor<i32>
    %s = torus.dynamic_slice %g[%off, %zero], sizes = [4, 8] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
    return %s : tensor<4x8xf32>
  }
}

// -----

// CHECK-LABEL: func.func @a2a_round_trip
// CHECK-NOT: torus.all_to_all
// CHECK: return %arg0
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @a2a_round_trip(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %a = torus.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 2 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x16xf32>) -> tensor<8x8xf32>
    %b = torus.all_to_all %a, split_dimension = 0, concat_dimension = 1, split_count = 2 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x8xf32>) -> tensor<4x16xf32>
    return %b : tensor<4x16xf32>
  }
}

// -----

// CHECK-LABEL: func.func @self_permute
// CHECK-NOT: torus.collective_permute
// CHECK: return %arg0
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @self_permute(%x: tensor<4xf32>) -> tensor<4xf32> {
    %p = torus.collective_permute %x, source_target_pairs = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64> : tensor<4xf32>
    return %p : tensor<4xf32>
  }
}

// -----

// A permute that leaves a device out gives it zeros: it stays.
// CHECK-LABEL: func.func @partial_permute
// CHECK: torus.collective_permute
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @partial_permute(%x: tensor<4xf32>) -> tensor<4xf32> {
    %p = torus.collective_permute %x, source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64> : tensor<4xf32>
    return %p : tensor<4xf32>
  }
}

// -----

// CHECK-LABEL: func.func @constraints
// CHECK-COUNT-1: torus.sharding_constraint
// CHECK-NOT: torus.sharding_constraint
func.func @constraints(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %a = torus.sharding_constraint %x, sharding = {devices=[2,1]0,1} : tensor<8x4xf32>
  %b = torus.sharding_constraint %a, sharding = {devices=[2,1]0,1} : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}
