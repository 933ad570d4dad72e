// Tests that sort, top_k and select_and_scatter (ops with scalar
// computations) and compare's total_order parse, verify and print back the
// same.
// RUN: torus-opt %s | torus-opt | FileCheck %s

// CHECK-LABEL: func.func @sort
// CHECK: %[[S:.*]]:2 = torus.sort(%arg0, %arg1) dimension = 1 {is_stable = true} : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT: %[[LT:.*]] = torus.compare LT, %[[A]], %[[B]] {total_order} : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: torus.return %[[LT]] : tensor<i1>
func.func @sort(%k: tensor<2x5xf32>, %v: tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
  %0:2 = torus.sort(%k, %v) dimension = 1 {is_stable = true} : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = torus.compare LT, %a, %b {total_order} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xi32>
}

// CHECK-LABEL: func.func @top_k
// CHECK: torus.top_k %arg0, k = 2 {largest = false} : (tensor<5x3xf64>) -> (tensor<5x2xf64>, tensor<5x2xi32>)
func.func @top_k(%a: tensor<5x3xf64>) -> (tensor<5x2xf64>, tensor<5x2xi32>) {
  %v, %i = torus.top_k %a, k = 2 {largest = false} : (tensor<5x3xf64>) -> (tensor<5x2xf64>, tensor<5x2xi32>)
  return %v, %i : tensor<5x2xf64>, tensor<5x2xi32>
}

// CHECK-LABEL: func.func @select_and_scatter
// CHECK: torus.select_and_scatter %arg0, %arg1, %arg2, window = [3, 3] {padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x4xi32> select {
// CHECK: torus.compare GE
// CHECK: } scatter {
// CHECK: torus.add
func.func @select_and_scatter(%x: tensor<4x4xi32>, %s: tensor<2x2xi32>, %z: tensor<i32>) -> tensor<4x4xi32> {
  %0 = torus.select_and_scatter %x, %s, %z, window = [3, 3] {window_strides = array<i64: 2, 2>, padding = dense<1> : tensor<2x2xi64>}
       : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x4xi32>
  select {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = torus.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    torus.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = torus.add %a, %b : tensor<i32>
    torus.return %r : tensor<i32>
  }
  return %0 : tensor<4x4xi32>
}
