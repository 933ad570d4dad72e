// Tests that torus-vectorize-kernels keeps a register tile's accumulators in
// registers across the K loop when the result is a temporary of the buffer
// plan (a memref.view of the workspace), which MLIR's own hoisting refuses
// for any view; and that it does not when the plan's byte ranges overlap.
// RUN: torus-opt %s --torus-vectorize-kernels="vector-bits=512 threads=false" --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @planned
// CHECK: scf.for %[[M:.*]] = %c0 to %c8 step %c4 {
// CHECK: vector.load %[[C:view_1]][%[[M]], %c0]
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>) {
// CHECK-NOT: vector.store
// CHECK: scf.yield
// CHECK: vector.store %{{.*}}, %[[C]][%[[M]], %c0]
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @planned(%ws: memref<12288xi8>) {
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %c6144 = arith.constant 6144 : index
  %a = memref.view %ws[%c0][] {torus.buffer = 0 : i64, torus.offset = 0 : i64} : memref<12288xi8> to memref<8x64xf32>
  %b = memref.view %ws[%c2048][] {torus.buffer = 1 : i64, torus.offset = 2048 : i64} : memref<12288xi8> to memref<64x16xf32>
  %c = memref.view %ws[%c6144][] {torus.buffer = 2 : i64, torus.offset = 6144 : i64} : memref<12288xi8> to memref<8x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x64xf32>, memref<64x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// C's bytes [6000, 6512) overlap B's [2048, 6144): the stores stay in the
// K loop.
// CHECK-LABEL: func.func @overlapping
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 {
// CHECK: vector.store
func.func @overlapping(%ws: memref<12288xi8>) {
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %c6000 = arith.constant 6000 : index
  %a = memref.view %ws[%c0][] {torus.buffer = 0 : i64, torus.offset = 0 : i64} : memref<12288xi8> to memref<8x64xf32>
  %b = memref.view %ws[%c2048][] {torus.buffer = 1 : i64, torus.offset = 2048 : i64} : memref<12288xi8> to memref<64x16xf32>
  %c = memref.view %ws[%c6000][] {torus.buffer = 2 : i64, torus.offset = 6000 : i64} : memref<12288xi8> to memref<8x16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x64xf32>, memref<64x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
