// Tests that torus-convert-stablehlo turns StableHLO's collectives into
// torus collectives over logical devices d = replica * P + partition,
// expanding the groups of each mode (here R = 2 replicas, P = 2 partitions).
// RUN: torus-opt %s --torus-convert-stablehlo | FileCheck %s

module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {
  // CHECK-LABEL: func.func @collectives
  func.func @collectives(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) {
    // No channel: cross-replica, one group per partition.
    // CHECK: torus.all_reduce sum %{{.*}} {replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>}
    %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    // A channel and global device ids: the ids as written.
    // CHECK: torus.all_reduce max %{{.*}} {replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>}
    %1 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    // A channel without global ids: the replicas with all their partitions.
    // CHECK: torus.all_gather %{{.*}}, all_gather_dim = 0 {replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>}
    %2 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
    // collective_permute with a channel: partitions, within each replica.
    // CHECK: torus.collective_permute %{{.*}}, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>
    %3 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
    // all_to_all without a channel: replicas, within each partition.
    // CHECK: torus.all_to_all %{{.*}}, split_dimension = 0, concat_dimension = 0, split_count = 2 {replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>}
    %4 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: torus.reduce_scatter sum %{{.*}}, scatter_dimension = 0 {replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>}
    %5 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<2xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>
  }
}
