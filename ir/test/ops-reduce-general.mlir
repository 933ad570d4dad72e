// Tests that reduce_general and reduce_window_general (reductions with a
// reducer computation) parse, verify and print back the same.
// RUN: torus-opt %s | torus-opt | FileCheck %s

// CHECK-LABEL: func.func @argmax_bool
// CHECK: %[[R:.*]]:2 = torus.reduce_general(%arg0, %arg1) init(%arg2, %arg3) dims = [1] : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<i1>, tensor<i32>) -> (tensor<4xi1>, tensor<4xi32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i1>, %[[AI:.*]]: tensor<i32>, %[[B:.*]]: tensor<i1>, %[[BI:.*]]: tensor<i32>):
// CHECK: torus.return %{{.*}}, %{{.*}} : tensor<i1>, tensor<i32>
func.func @argmax_bool(%x: tensor<4x8xi1>, %i: tensor<4x8xi32>, %x0: tensor<i1>, %i0: tensor<i32>) -> (tensor<4xi1>, tensor<4xi32>) {
  %0:2 = torus.reduce_general(%x, %i) init(%x0, %i0) dims = [1] : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<i1>, tensor<i32>) -> (tensor<4xi1>, tensor<4xi32>) {
  ^bb0(%a: tensor<i1>, %ai: tensor<i32>, %b: tensor<i1>, %bi: tensor<i32>):
    %gt = torus.compare GT, %b, %a : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %v = torus.select %gt, %b, %a : tensor<i1>, tensor<i1>
    %j = torus.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    torus.return %v, %j : tensor<i1>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<4xi1>, tensor<4xi32>
}

// CHECK-LABEL: func.func @cumulative_difference
// CHECK: torus.reduce_window_general(%arg0) init(%arg1) window = [1, 3] {padding = dense<{{\[\[}}0, 0], [2, 0]]> : tensor<2x2xi64>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32> {
// CHECK: torus.subtract
func.func @cumulative_difference(%x: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  %0 = torus.reduce_window_general(%x) init(%c) window = [1, 3] {padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = torus.subtract %a, %b : tensor<f32>
    torus.return %m : tensor<f32>
  }
  return %0 : tensor<4x8xf32>
}
