// Tests that the SPMD partitioner gives every value its local shape and
// inserts exactly the collectives each change of layout needs, and no
// others: Megatron's one all-reduce, all_gather, all_to_all, local slicing,
// the owner's broadcast, reduce_scatter, halo exchange, uneven tiles,
// replica groups over replicas x partitions, and loops.
// RUN: torus-opt %s --split-input-file --torus-sharding-propagation --torus-spmd-partition --cse | FileCheck %s

// Megatron: the hidden weight split column-wise, the next one row-wise. The
// first matmul and the relu run on column tiles with no communication; the
// second produces partial sums, added up by one all-reduce.
// CHECK-LABEL: func.func @megatron
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32> {{.*}}, %[[W1:.*]]: tensor<16x16xf32> {{.*}}, %[[W2:.*]]: tensor<16x4xf32> {{.*}}) -> (tensor<8x4xf32>
// CHECK-NOT: torus.all_gather
// CHECK: %[[H:.*]] = torus.dot_general %[[X]], %[[W1]], {{.*}} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// CHECK: %[[R:.*]] = torus.maximum %[[H]], %{{.*}} : tensor<8x16xf32>
// CHECK: %[[Y:.*]] = torus.dot_general %[[R]], %[[W2]], {{.*}} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK: %[[S:.*]] = torus.all_reduce sum %[[Y]] {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : tensor<8x4xf32>
// CHECK-NOT: torus.all_
// CHECK: return %[[S]]
module attributes {torus.num_partitions = 2 : i64} {
  func.func @megatron(%x: tensor<8x16xf32>,
                      %w1: tensor<16x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>},
                      %w2: tensor<32x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>})
      -> tensor<8x4xf32> {
    %h = torus.dot_general %x, %w1, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %zero = torus.constant dense<0.0> : tensor<8x32xf32>
    %r = torus.maximum %h, %zero : tensor<8x32xf32>
    %y = torus.dot_general %r, %w2, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    return %y : tensor<8x4xf32>
  }
}

// -----

// Tiled to replicated: the tanh runs on row tiles, one all_gather at the end.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>
// CHECK-NEXT: %[[T:.*]] = torus.tanh %[[X]] : tensor<4x16xf32>
// CHECK-NEXT: %[[G:.*]] = torus.all_gather %[[T]], all_gather_dim = 0 {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[G]]
module attributes {torus.num_partitions = 2 : i64} {
  func.func @gather(%x: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>})
      -> (tensor<8x16xf32> {torus.sharding = #torus.sharding<{replicated}>}) {
    %0 = torus.tanh %x : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// Rows to columns over the same devices: one all_to_all.
// CHECK-LABEL: func.func @rows_to_columns
// CHECK-NEXT: %[[T:.*]] = torus.tanh %{{.*}} : tensor<4x16xf32>
// CHECK-NEXT: %[[A:.*]] = torus.all_to_all %[[T]], split_dimension = 1, concat_dimension = 0, split_count = 2 {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<4x16xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[A]]
module attributes {torus.num_partitions = 2 : i64} {
  func.func @rows_to_columns(%x: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>})
      -> (tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>}) {
    %0 = torus.tanh %x : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// Replicated to tiled needs no communication: each device slices its tile
// at an offset looked up by partition id.
// CHECK-LABEL: func.func @slice_locally
// CHECK-DAG: %[[PID:.*]] = torus.partition_id : tensor<i32>
// CHECK-DAG: %[[TABLE:.*]] = torus.constant dense<[0, 8]> : tensor<2xi32>
// CHECK: %[[E:.*]] = torus.dynamic_slice %[[TABLE]][%[[PID]]], sizes = [1]
// CHECK: %[[OFF:.*]] = torus.reshape %[[E]] : (tensor<1xi32>) -> tensor<i32>
// CHECK: torus.dynamic_slice %{{.*}}[%{{.*}}, %[[OFF]]], sizes = [8, 8] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
// CHECK-NOT: torus.all_
module attributes {torus.num_partitions = 2 : i64} {
  func.func @slice_locally(%x: tensor<8x16xf32>)
      -> (tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>}) {
    %0 = torus.tanh %x : tensor<8x16xf32>
    %1 = torus.sharding_constraint %0, sharding = {replicated} : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}

// -----

// Maximal to replicated: every device computes, only the owner's value
// survives a masked sum over the partitions.
// CHECK-LABEL: func.func @maximal
// CHECK: %[[PID:.*]] = torus.partition_id
// CHECK: %[[E:.*]] = torus.exp %{{.*}} : tensor<4xf32>
// CHECK: %[[ONE:.*]] = torus.constant dense<1> : tensor<i32>
// CHECK: %[[OWNER:.*]] = torus.compare EQ, %[[PID]], %[[ONE]]
// CHECK: %[[M:.*]] = torus.select %[[OWNER]], %[[E]], %{{.*}} : tensor<i1>, tensor<4xf32>
// CHECK: torus.all_reduce sum %[[M]] {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : tensor<4xf32>
module attributes {torus.num_partitions = 2 : i64} {
  func.func @maximal(%x: tensor<4xf32> {torus.sharding = #torus.sharding<{maximal device=1}>})
      -> (tensor<4xf32> {torus.sharding = #torus.sharding<{replicated}>}) {
    %0 = torus.exp %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// Partial sums of a split contracting dimension, wanted as row tiles: one
// reduce_scatter instead of an all-reduce.
// CHECK-LABEL: func.func @partial_to_tiles
// CHECK: %[[D:.*]] = torus.dot_general {{.*}} -> tensor<8x4xf32>
// CHECK-NEXT: %[[RS:.*]] = torus.reduce_scatter sum %[[D]], scatter_dimension = 0 {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[RS]]
module attributes {torus.num_partitions = 2 : i64} {
  func.func @partial_to_tiles(%h: tensor<8x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>},
                              %w: tensor<32x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>})
      -> (tensor<8x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>}) {
    %0 = torus.dot_general %h, %w, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    %1 = torus.sharding_constraint %0, sharding = {devices=[2,1]0,1} : tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}

// -----

// A 3x3 SAME convolution of an image split [1,2,4,1] over 8 devices (the
// seed's example): each device receives one row of halo from each neighbour
// along the width split, then one column along the height split (the
// corners come with the second exchange); the edges receive zeros, which is
// the convolution's padding. The spatial sum ends in one all-reduce.
// CHECK-LABEL: func.func @conv_halo
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x8x3xf32> {{.*}}, %[[W:.*]]: tensor<3x3x3x8xf32>
// CHECK: %[[L1:.*]] = torus.slice %[[X]], start_indices = [0, 7, 0, 0], limit_indices = [2, 8, 8, 3]
// CHECK: %[[P1:.*]] = torus.collective_permute %[[L1]], source_target_pairs = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64> : tensor<2x1x8x3xf32>
// CHECK: %[[R1:.*]] = torus.slice %[[X]], start_indices = [0, 0, 0, 0], limit_indices = [2, 1, 8, 3]
// CHECK: %[[P2:.*]] = torus.collective_permute %[[R1]], source_target_pairs = dense<{{\[\[}}4, 0], [5, 1], [6, 2], [7, 3]]> : tensor<4x2xi64> : tensor<2x1x8x3xf32>
// CHECK: %[[C1:.*]] = torus.concatenate(%[[P1]], %[[X]], %[[P2]]), dimension = 1 : {{.*}} -> tensor<2x10x8x3xf32>
// CHECK: torus.collective_permute {{.*}} source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3], [4, 5], [5, 6], [6, 7]]> : tensor<6x2xi64> : tensor<2x10x1x3xf32>
// CHECK: torus.collective_permute {{.*}} source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [3, 2], [5, 4], [6, 5], [7, 6]]> : tensor<6x2xi64> : tensor<2x10x1x3xf32>
// CHECK: %[[C2:.*]] = torus.concatenate({{.*}}), dimension = 2 : {{.*}} -> tensor<2x10x10x3xf32>
// CHECK: %[[Y:.*]] = torus.convolution %[[C2]], %[[W]], dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<2x10x10x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x8x8x8xf32>
// CHECK: %[[S:.*]] = torus.reduce sum %[[Y]], dims = [1, 2]
// CHECK: torus.all_reduce sum %[[S]] {replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : tensor<2x8xf32>
// CHECK-NOT: torus.all_gather
module attributes {torus.num_partitions = 8 : i64} {
  func.func @conv_halo(%x: tensor<2x16x32x3xf32> {torus.sharding = #torus.sharding<"{devices=[1,2,4,1]<=[8]}">},
                       %w: tensor<3x3x3x8xf32>) -> tensor<2x8xf32> {
    %y = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>} : (tensor<2x16x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x32x8xf32>
    %m = torus.reduce sum %y, dims = [1, 2] : (tensor<2x16x32x8xf32>) -> tensor<2x8xf32>
    return %m : tensor<2x8xf32>
  }
}

// -----

// Uneven tiles: 5 elements over 2 devices are tiles of 3, the last padded;
// before the sum the padding is masked with the sum's identity.
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>
// CHECK: %[[E:.*]] = torus.exp %[[X]] : tensor<3xf32>
// CHECK: %[[TABLE:.*]] = torus.constant dense<[0, 3]> : tensor<2xi32>
// CHECK: %[[I:.*]] = torus.iota dim = 0 : tensor<3xi32>
// CHECK: %[[G:.*]] = torus.add %[[I]], %{{.*}} : tensor<3xi32>
// CHECK: %[[IN:.*]] = torus.compare LT, %[[G]], %{{.*}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK: %[[M:.*]] = torus.select %[[IN]], %[[E]], %{{.*}} : tensor<3xi1>, tensor<3xf32>
// CHECK: %[[S:.*]] = torus.reduce sum %[[M]], dims = [0]
// CHECK: torus.all_reduce sum %[[S]]
module attributes {torus.num_partitions = 2 : i64} {
  func.func @uneven(%x: tensor<5xf32> {torus.sharding = #torus.sharding<{devices=[2]0,1}>}) -> tensor<f32> {
    %0 = torus.exp %x : tensor<5xf32>
    %1 = torus.reduce sum %0, dims = [0] : (tensor<5xf32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
}

// -----

// 4 replicas x 2 partitions: collectives among partitions name devices
// replica * 2 + partition; the user's all-reduce over replicas becomes one
// group per partition.
// CHECK-LABEL: func.func @replicas
// CHECK: %[[Y:.*]] = torus.dot_general {{.*}} -> tensor<8x4xf32>
// CHECK: %[[P:.*]] = torus.all_reduce sum %[[Y]] {replica_groups = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>} : tensor<8x4xf32>
// CHECK: torus.all_reduce sum %[[P]] {replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>} : tensor<8x4xf32>
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 4 : i64} {
  func.func @replicas(%h: tensor<8x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>},
                      %w: tensor<32x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>}) -> tensor<8x4xf32> {
    %0 = torus.dot_general %h, %w, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    %1 = torus.all_reduce sum %0 {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}

// -----

// A loop carries its state in tiles; the body computes on tiles.
// CHECK-LABEL: func.func @loop
// CHECK: torus.while(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : tensor<i32>, tensor<4xf32>
// CHECK: torus.tanh %{{.*}} : tensor<4xf32>
// CHECK-NOT: torus.all_
module attributes {torus.num_partitions = 2 : i64} {
  func.func @loop(%x: tensor<8xf32> {torus.sharding = #torus.sharding<{devices=[2]0,1}>}, %n: tensor<i32>) -> tensor<8xf32> {
    %zero = torus.constant dense<0> : tensor<i32>
    %r:2 = torus.while(%i = %zero, %v = %x) : tensor<i32>, tensor<8xf32>
      cond {
        %p = torus.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        torus.return %p : tensor<i1>
      } do {
        %one = torus.constant dense<1> : tensor<i32>
        %i1 = torus.add %i, %one : tensor<i32>
        %v1 = torus.tanh %v : tensor<8xf32>
        torus.return %i1, %v1 : tensor<i32>, tensor<8xf32>
      }
    return %r#1 : tensor<8xf32>
  }
}

// -----

// Branches compute on tiles too; the predicate is replicated.
// CHECK-LABEL: func.func @branch
// CHECK: torus.if %{{.*}} -> (tensor<4x4xf32>)
// CHECK: torus.exp %{{.*}} : tensor<4x4xf32>
// CHECK: torus.negate %{{.*}} : tensor<4x4xf32>
// CHECK-NOT: torus.all_
module attributes {torus.num_partitions = 2 : i64} {
  func.func @branch(%p: tensor<i1>, %x: tensor<8x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>}) -> tensor<8x4xf32> {
    %r = torus.if %p -> (tensor<8x4xf32>) {
      %e = torus.exp %x : tensor<8x4xf32>
      torus.return %e : tensor<8x4xf32>
    } else {
      %n = torus.negate %x : tensor<8x4xf32>
      torus.return %n : tensor<8x4xf32>
    }
    return %r : tensor<8x4xf32>
  }
}

// -----

// A reshape merging a tiled major dimension with a minor one keeps the
// tiles (each device's rows stay contiguous); transposes move them.
// CHECK-LABEL: func.func @merge
// CHECK: torus.reshape %{{.*}} : (tensor<4x4x16xf32>) -> tensor<4x64xf32>
// CHECK: torus.transpose %{{.*}}, permutation = [1, 0] : (tensor<4x64xf32>) -> tensor<64x4xf32>
// CHECK-NOT: torus.all_
module attributes {torus.num_partitions = 2 : i64} {
  func.func @merge(%x: tensor<4x8x16xf32> {torus.sharding = #torus.sharding<{devices=[1,2,1]0,1}>}) -> tensor<128x4xf32> {
    %0 = torus.reshape %x : (tensor<4x8x16xf32>) -> tensor<4x128xf32>
    %1 = torus.transpose %0, permutation = [1, 0] : (tensor<4x128xf32>) -> tensor<128x4xf32>
    return %1 : tensor<128x4xf32>
  }
}
