// Tests that an all-reduce sliced, on the k-th member of each group, to
// block k of one dimension becomes a reduce-scatter, whether the offsets
// come from the partitioner's table or from partition_id arithmetic, and
// that other slices are left alone.
// RUN: torus-opt %s --split-input-file --torus-reduce-scatter-creator --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @table
// CHECK-NEXT: %[[RS:.*]] = torus.reduce_scatter sum %arg0, scatter_dimension = 0 {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: torus.all_reduce
// CHECK: return %[[RS]]
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @table(%x: tensor<8x4xf32>) -> tensor<4x4xf32> {
    %pid = torus.partition_id : tensor<i32>
    %s = torus.all_reduce sum %x {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<8x4xf32>
    %t = torus.constant dense<[0, 4]> : tensor<2xi32>
    %e = torus.dynamic_slice %t[%pid], sizes = [1] : (tensor<2xi32>, tensor<i32>) -> tensor<1xi32>
    %off = torus.reshape %e : (tensor<1xi32>) -> tensor<i32>
    %zero = torus.constant dense<0> : tensor<i32>
    %r = torus.dynamic_slice %s[%off, %zero], sizes = [4, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    return %r : tensor<4x4xf32>
  }
}

// -----

// Replica groups over 2 replicas x 2 partitions, offsets from the replica
// id: the members of {0, 2} and {1, 3} are replicas 0 and 1.
// CHECK-LABEL: func.func @by_replica
// CHECK: torus.reduce_scatter max %arg0, scatter_dimension = 1 {replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<2x8xf32>) -> tensor<2x4xf32>
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 2 : i64} {
  func.func @by_replica(%x: tensor<2x8xf32>) -> tensor<2x4xf32> {
    %rid = torus.replica_id : tensor<i32>
    %s = torus.all_reduce max %x {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<2x8xf32>
    %four = torus.constant dense<4> : tensor<i32>
    %off = torus.multiply %rid, %four : tensor<i32>
    %zero = torus.constant dense<0> : tensor<i32>
    %r = torus.dynamic_slice %s[%zero, %off], sizes = [2, 4] : (tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
    return %r : tensor<2x4xf32>
  }
}

// -----

// The second member takes block 0 too: not a reduce-scatter.
// CHECK-LABEL: func.func @same_block
// CHECK: torus.all_reduce
// CHECK-NOT: torus.reduce_scatter
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @same_block(%x: tensor<8x4xf32>) -> tensor<4x4xf32> {
    %s = torus.all_reduce sum %x {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<8x4xf32>
    %zero = torus.constant dense<0> : tensor<i32>
    %r = torus.dynamic_slice %s[%zero, %zero], sizes = [4, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    return %r : tensor<4x4xf32>
  }
}

// -----

// The all-reduce has another user: it must stay.
// CHECK-LABEL: func.func @other_user
// CHECK: torus.all_reduce
// CHECK-NOT: torus.reduce_scatter
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @other_user(%x: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<8x4xf32>) {
    %pid = torus.partition_id : tensor<i32>
    %s = torus.all_reduce sum %x {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<8x4xf32>
    %four = torus.constant dense<4> : tensor<i32>
    %off = torus.multiply %pid, %four : tensor<i32>
    %zero = torus.constant dense<0> : tensor<i32>
    %r = torus.dynamic_slice %s[%off, %zero], sizes = [4, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    return %r, %s : tensor<4x4xf32>, tensor<8x4xf32>
  }
}
