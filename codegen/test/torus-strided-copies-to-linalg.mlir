// Tests that copies into or out of strided views become linalg.copy and
// contiguous copies stay memref.copy.
// RUN: torus-opt %s --torus-strided-copies-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @copies
// CHECK: linalg.copy ins(%{{.*}} : memref<2x3xf32>) outs(%{{.*}} : memref<2x3xf32, strided<[8, 2], offset: 1>>)
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<2x3xf32> to memref<2x3xf32>
// CHECK-NOT: memref.copy
func.func @copies(%a: memref<2x3xf32>, %big: memref<4x8xf32>, %b: memref<2x3xf32>) {
  %view = memref.subview %big[0, 1] [2, 3] [1, 2] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 2], offset: 1>>
  memref.copy %a, %view : memref<2x3xf32> to memref<2x3xf32, strided<[8, 2], offset: 1>>
  memref.copy %a, %b : memref<2x3xf32> to memref<2x3xf32>
  return
}
