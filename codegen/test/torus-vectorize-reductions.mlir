// Tests torus-vectorize-reductions: innermost reductions over contiguous rows
// become vector accumulators, one horizontal reduction per row and a peeled
// scalar tail; columns (innermost loop parallel) and rows shorter than a
// vector stay as they are.
// RUN: torus-opt %s --torus-vectorize-reductions=vector-bits=512 --canonicalize --cse | FileCheck %s

// 100 = one main-loop trip of 4 x 16 (folded away by --canonicalize, with
// the -0.0 identities), two more vectors, a tail of 4; the fused multiply
// runs on vectors.
// CHECK-LABEL: func.func @dot_rows
// CHECK: scf.for %[[I:.*]] = %c0 to %c8 step %c1 {
// CHECK: %[[X:.*]] = memref.subview %arg0[%[[I]], 0] [1, 100] [1, 1]
// CHECK: %[[Y:.*]] = memref.subview %arg1[%[[I]], 0] [1, 100] [1, 1]
// CHECK: %[[OUT:.*]] = memref.subview %arg2[%[[I]]] [1] [1]
// CHECK: %[[V:.*]] = vector.load %[[X]][%c0, %c0] : {{.*}}, vector<16xf32>
// CHECK: %[[W:.*]] = vector.load %[[Y]][%c0, %c0] : {{.*}}, vector<16xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[V]], %[[W]] : vector<16xf32>
// CHECK-COUNT-5: arith.mulf {{.*}} : vector<16xf32>
// CHECK: %[[R:.*]] = vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK: %[[S:.*]] = scf.for %{{.*}} = %c96 to %c100 step %c1 iter_args(%{{.*}} = %[[R]]) -> (f32)
// CHECK: memref.load
// CHECK: arith.mulf {{.*}} : f32
// CHECK: %[[O:.*]] = memref.load %[[OUT]][%c0]
// CHECK: %[[N:.*]] = arith.addf %[[S]], %[[O]] : f32
// CHECK: memref.store %[[N]], %[[OUT]][%c0]
#id = affine_map<(i, k) -> (i, k)>
#row = affine_map<(i, k) -> (i)>
func.func @dot_rows(%x: memref<8x100xf32>, %y: memref<8x100xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : memref<8x100xf32>, memref<8x100xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// A linalg.reduce max: identity -inf, two vectors and a tail of 5.
// CHECK-LABEL: func.func @max_rows
// CHECK: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: vector.reduction <maximumf>, {{.*}} : vector<16xf32> into f32
// CHECK: scf.for %{{.*}} = %c32 to %c37 step %c1
// CHECK: arith.maximumf {{.*}} : f32
func.func @max_rows(%x: memref<4x37xf32>, %out: memref<4xf32>) {
  linalg.reduce ins(%x : memref<4x37xf32>) outs(%out : memref<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.maximumf %a, %acc : f32
      linalg.yield %m : f32
    }
  return
}

// A full integer sum (two reduction loops): the outer one runs row by row
// into the same scalar.
// CHECK-LABEL: func.func @sum_all_i32
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK-COUNT-3: vector.load {{.*}} vector<16xi32>
// CHECK: vector.reduction <add>, {{.*}} : vector<16xi32> into i32
// CHECK: scf.for %{{.*}} = %c48 to %c50 step %c1
// CHECK: memref.load %arg1[] : memref<i32>
// CHECK: memref.store {{.*}}, %arg1[] : memref<i32>
func.func @sum_all_i32(%x: memref<3x50xi32>, %out: memref<i32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<3x50xi32>) outs(%out : memref<i32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.addi %acc, %a : i32
    linalg.yield %s : i32
  }
  return
}

// Column sums already vectorize along the parallel innermost loop; rows of
// 10 are shorter than a vector.
// CHECK-LABEL: func.func @columns_stay
// CHECK-NOT: vector
// CHECK: linalg.generic
// CHECK-LABEL: func.func @short_rows_stay
// CHECK-NOT: vector
// CHECK: linalg.generic
func.func @columns_stay(%x: memref<64x64xf32>, %out: memref<64xf32>) {
  linalg.reduce ins(%x : memref<64x64xf32>) outs(%out : memref<64xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %m = arith.addf %a, %acc : f32
      linalg.yield %m : f32
    }
  return
}

func.func @short_rows_stay(%x: memref<64x10xf32>, %out: memref<64xf32>) {
  linalg.reduce ins(%x : memref<64x10xf32>) outs(%out : memref<64xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.addf %a, %acc : f32
      linalg.yield %m : f32
    }
  return
}

// A long row keeps the main loop: four accumulators carried across it.
// CHECK-LABEL: func.func @long_rows
// CHECK: %[[ID:.*]] = arith.constant dense<-0.000000e+00> : vector<16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c960 step %c64 iter_args(%{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]]) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: vector.reduction <add>
// CHECK: scf.for %{{.*}} = %c992 to %c1000 step %c1
func.func @long_rows(%x: memref<2x1000xf32>, %out: memref<2xf32>) {
  linalg.reduce ins(%x : memref<2x1000xf32>) outs(%out : memref<2xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.addf %a, %acc : f32
      linalg.yield %m : f32
    }
  return
}
