// Tests torus-row-invariants: an elementwise kernel's operands that its
// innermost loop does not index are loaded once per row, before the row's
// kernel, which uses the value; other kernels are left alone.
// RUN: torus-opt %s --torus-row-invariants | FileCheck %s

// exp(x - max) in place, the row max broadcast along the row.
// CHECK-LABEL: func.func @softmax_exp
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c8 step %{{.*}} {
// CHECK: %[[ROW:.*]] = memref.subview %arg0[%[[I]], 0] [1, 128] [1, 1]
// CHECK: %[[MAXI:.*]] = memref.subview %arg1[%[[I]]] [1] [1]
// CHECK: %[[M:.*]] = memref.load %[[MAXI]][%{{.*}}]
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ROW]], %[[MAXI]] :
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.subf %[[A]], %[[M]] : f32
// CHECK-NEXT: math.exp
func.func @softmax_exp(%x: memref<8x128xf32>, %max: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<8x128xf32>, memref<8xf32>) outs(%x : memref<8x128xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  return
}

// A scalar operand (rank 0) of a 1-D kernel: loaded once, no tiling.
// CHECK-LABEL: func.func @scale
// CHECK-NOT: scf.for
// CHECK: %[[S:.*]] = memref.load %arg1[] : memref<f32>
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.*}}, %[[S]] : f32
func.func @scale(%x: memref<1000xf32>, %s: memref<f32>, %y: memref<1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %s : memref<1000xf32>, memref<f32>) outs(%y : memref<1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  }
  return
}

// Every operand indexed along the row, a reduction, and a broadcast along
// the outer loop only (a column vector read per row is indexed by j): all
// left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: scf.for
// CHECK-NOT: memref.load
// CHECK: return
func.func @untouched(%x: memref<8x128xf32>, %col: memref<128xf32>, %sum: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x128xf32>) outs(%x : memref<8x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x128xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %col : memref<8x128xf32>, memref<128xf32>) outs(%x : memref<8x128xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.addf %a, %c : f32
    linalg.yield %p : f32
  }
  return
}

// The broadcast operand is a column of the output itself: read once per
// row it would miss the row's own write of x[i, 0], so the kernel stays.
// CHECK-LABEL: func.func @own_column
// CHECK-NOT: scf.for
// CHECK-NOT: memref.load
// CHECK: return
func.func @own_column(%x: memref<8x128xf32>) {
  %c = memref.subview %x[0, 0] [8, 1] [1, 1] : memref<8x128xf32> to memref<8xf32, strided<[128]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8xf32, strided<[128]>>) outs(%x : memref<8x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}
