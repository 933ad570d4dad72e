// Tests that returned arguments and buffers returned twice get their own
// allocation and copy, that fresh allocations are left alone, and that a
// returned reshape of an allocation becomes the allocation.
// RUN: torus-opt %s --torus-unique-result-buffers | FileCheck %s

// CHECK-LABEL: func.func @passthrough
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>)
// CHECK: %[[C0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: memref.copy %[[A]], %[[C0]]
// CHECK: %[[C1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: memref.copy %[[A]], %[[C1]]
// CHECK: return %[[C0]], %[[C1]]
func.func @passthrough(%a: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  return %a, %a : memref<4xf32>, memref<4xf32>
}

// CHECK-LABEL: func.func @twice
// CHECK: %[[X:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK: memref.copy %[[X]], %[[C]]
// CHECK: return %[[X]], %[[C]]
func.func @twice() -> (memref<2xf32>, memref<2xf32>) {
  %x = memref.alloc() : memref<2xf32>
  return %x, %x : memref<2xf32>, memref<2xf32>
}

// A returned reshape of an allocation: the allocation takes the result's
// shape and the computation writes a view of it, so no copy is needed
// (a replica's weights f32[784, 512] returned as its shard [1, 784, 512]).
// CHECK-LABEL: func.func @reshaped
// CHECK: %[[W:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x2xf32>
// CHECK: %[[V:.*]] = memref.collapse_shape %[[W]] {{\[}}[0, 1], [2]] : memref<1x4x2xf32> into memref<4x2xf32>
// CHECK: memref.copy %arg0, %[[V]]
// CHECK-NEXT: return %[[W]] : memref<1x4x2xf32>
func.func @reshaped(%x: memref<4x2xf32>) -> memref<1x4x2xf32> {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x2xf32>
  memref.copy %x, %a : memref<4x2xf32> to memref<4x2xf32>
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 2] : memref<4x2xf32> into memref<1x4x2xf32>
  return %e : memref<1x4x2xf32>
}

// Returned as itself and reshaped: the reshape is copied as before.
// CHECK-LABEL: func.func @reshaped_and_itself
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x2xf32>
// CHECK: %[[E:.*]] = memref.expand_shape %[[A]]
// CHECK: %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x2xf32>
// CHECK: memref.copy %[[E]], %[[C]]
// CHECK: return %[[A]], %[[C]]
func.func @reshaped_and_itself(%x: memref<4x2xf32>) -> (memref<4x2xf32>, memref<1x4x2xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x2xf32>
  memref.copy %x, %a : memref<4x2xf32> to memref<4x2xf32>
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 2] : memref<4x2xf32> into memref<1x4x2xf32>
  return %a, %e : memref<4x2xf32>, memref<1x4x2xf32>
}
