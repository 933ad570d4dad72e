// Tests that returned arguments and buffers returned twice get their own
// allocation and copy, and that fresh allocations are left alone.
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
