// Tests the lowering of sort, top_k and select_and_scatter to scf loops
// with the scalar computation inlined: a merge sort of an index vector per
// row in one [2, shape] scratch tensor, then a gather of each operand.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @sort
// CHECK: %[[SCRATCH:.*]] = tensor.empty() : tensor<2x2x5xi64>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[SCRATCH]]) -> (tensor<2x2x5xi64>)
// The comparator: TOTALORDER as integer keys.
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi slt
// The half the last of 3 passes wrote, then one gather per operand.
// CHECK: %[[PERM:.*]] = tensor.extract_slice %{{.*}}[1, 0, 0] [1, 2, 5] [1, 1, 1] : tensor<2x2x5xi64> to tensor<2x5xi64>
// CHECK: linalg.generic {{.*}} ins(%[[PERM]] : tensor<2x5xi64>) outs(%{{.*}} : tensor<2x5xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[PERM]] : tensor<2x5xi64>) outs(%{{.*}} : tensor<2x5xi32>)
// CHECK-NOT: torus.
func.func @sort(%k: tensor<2x5xf32>, %v: tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
  %0:2 = torus.sort(%k, %v) dimension = 1 : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = torus.compare LT, %a, %b {total_order} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xi32>
}

// -----

// CHECK-LABEL: func.func @top_k
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [3, 2] [1, 1] : tensor<3x4xi64> to tensor<3x2xi64>
// CHECK: arith.trunci %{{.*}} : i64 to i32
func.func @top_k(%a: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %v, %i = torus.top_k %a, k = 2 : (tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
  return %v, %i : tensor<3x2xf32>, tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @select_and_scatter
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.cmpf oge
// CHECK: arith.addf
// CHECK-NOT: torus.
func.func @select_and_scatter(%x: tensor<4x4xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) -> tensor<4x4xf32> {
  %0 = torus.select_and_scatter %x, %s, %z, window = [2, 2] {window_strides = array<i64: 2, 2>}
       : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = torus.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = torus.add %a, %b : tensor<f32>
    torus.return %r : tensor<f32>
  }
  return %0 : tensor<4x4xf32>
}
