// Tests that replica ids and all-reduces become runtime calls and that each
// collective is described, in call order, in the torus.collectives table.
// RUN: torus-opt %s --torus-lower-collectives | FileCheck %s

// CHECK: module attributes {torus.collectives = [
// CHECK-SAME: {kind = "all_reduce", loc = "{{.*}}torus-lower-collectives.mlir:21:8", reduce = "sum", replica_groups = [], type = tensor<4xf32>},
// CHECK-SAME: {kind = "all_reduce", loc = "{{.*}}torus-lower-collectives.mlir:22:8", reduce = "max", replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, type = tensor<4xf32>}]}
// CHECK-DAG: func.func private @__torus_collective(i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: func.func private @__torus_replica_id() -> i32

// CHECK-LABEL: func.func @step
// CHECK:      %[[IN:.*]] = bufferization.to_memref %{{.*}} read_only : memref<4xf32>
// CHECK:      %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:      %[[I0:.*]] = arith.constant 0 : i64
// CHECK:      call @__torus_collective(%[[I0]], %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK:      bufferization.to_tensor %[[OUT]] restrict writable : memref<4xf32>
// CHECK:      arith.constant 1 : i64
// CHECK:      %[[ID:.*]] = call @__torus_replica_id() : () -> i32
// CHECK:      tensor.from_elements %[[ID]] : tensor<i32>
func.func @step(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<i32>) {
  %0 = torus.all_reduce sum %x : tensor<4xf32>
  %1 = torus.all_reduce max %0 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
  %2 = torus.replica_id : tensor<i32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<i32>
}
