// Tests that all_gather, reduce_scatter, all_to_all and collective_permute
// become __torus_collective calls on result buffers of their own shapes,
// described with their attributes, and partition_id a runtime call.
// RUN: torus-opt %s --torus-lower-collectives | FileCheck %s

// CHECK: module attributes {torus.collectives = [
// CHECK-SAME: {dimension = 0 : i64, kind = "all_gather", loc = "{{.*}}", replica_groups = [], result_type = tensor<8x4xf32>, type = tensor<2x4xf32>},
// CHECK-SAME: {dimension = 0 : i64, kind = "reduce_scatter", loc = "{{.*}}", reduce = "max", replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, result_type = tensor<1x4xf32>, type = tensor<2x4xf32>},
// CHECK-SAME: {concat_dimension = 0 : i64, kind = "all_to_all", loc = "{{.*}}", replica_groups = [], result_type = tensor<8x1xf32>, split_count = 4 : i64, split_dimension = 1 : i64, type = tensor<2x4xf32>},
// CHECK-SAME: {kind = "collective_permute", loc = "{{.*}}", result_type = tensor<2x4xf32>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>, type = tensor<2x4xf32>}]}
// CHECK-DAG: func.func private @__torus_partition_id() -> i32
// CHECK-LABEL: func.func @more
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
// CHECK: call @__torus_collective(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: bufferization.to_tensor %{{.*}} restrict writable : memref<8x4xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x4xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<8x1xf32>
// CHECK: arith.constant 3 : i64
// CHECK: %[[P:.*]] = call @__torus_partition_id() : () -> i32
// CHECK: tensor.from_elements %[[P]] : tensor<i32>
func.func @more(%x: tensor<2x4xf32>) -> (tensor<8x4xf32>, tensor<1x4xf32>, tensor<8x1xf32>, tensor<2x4xf32>, tensor<i32>) {
  %0 = torus.all_gather %x, all_gather_dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf32>
  %1 = torus.reduce_scatter max %x, scatter_dimension = 0 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<1x4xf32>
  %2 = torus.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4 : (tensor<2x4xf32>) -> tensor<8x1xf32>
  %3 = torus.collective_permute %x, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64> : tensor<2x4xf32>
  %4 = torus.partition_id : tensor<i32>
  return %0, %1, %2, %3, %4 : tensor<8x4xf32>, tensor<1x4xf32>, tensor<8x1xf32>, tensor<2x4xf32>, tensor<i32>
}
