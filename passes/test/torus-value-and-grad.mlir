// Tests the VJP rules through the loss-and-gradient function the pass adds.
// RUN: torus-opt %s --split-input-file --torus-value-and-grad --canonicalize --verify-diagnostics | FileCheck %s

// d/dw sum(w * x) = x, d/dx = w; the seed 1 broadcast folds away.
// CHECK-LABEL: func.func @dot_value_and_grad
// CHECK-SAME: (%[[W:.*]]: tensor<3xf32>, %[[X:.*]]: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>)
// CHECK: %[[L:.*]] = torus.reduce sum
// CHECK: return %[[L]], %[[X]], %[[W]]
func.func @dot(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<f32> {
  %0 = torus.multiply %w, %x : tensor<3xf32>
  %1 = torus.reduce sum %0, dims = [0] : (tensor<3xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// The gradient of x @ w with respect to w is x^T @ ct: a dot_general
// contracting the batch dimension, and w.r.t. x, ct @ w^T. The rule's
// transpose of (ct^T @ x) canonicalizes into the product x^T @ ct.
// CHECK-LABEL: func.func @matmul_value_and_grad
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[W:.*]]: tensor<3x4xf32>)
// CHECK-DAG: torus.dot_general %{{.*}}, %[[W]], batching_dims = [] x [], contracting_dims = [1] x [1] : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK-DAG: torus.dot_general %[[X]], %{{.*}}, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK-NOT: torus.transpose
func.func @matmul(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<f32> {
  %0 = torus.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = torus.reduce sum %0, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Integer arguments get no gradient; only %w is differentiated.
// CHECK-LABEL: func.func @labels_value_and_grad
// CHECK-SAME: -> (tensor<f32>, tensor<4xf32>)
func.func @labels(%w: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<f32> {
  %0 = torus.convert %y : (tensor<4xi32>) -> tensor<4xf32>
  %1 = torus.multiply %w, %0 : tensor<4xf32>
  %2 = torus.reduce sum %1, dims = [0] : (tensor<4xf32>) -> tensor<f32>
  return %2 : tensor<f32>
}

// -----

// An op without a rule is an error at that op.
func.func @no_rule(%x: tensor<4xf32>) -> tensor<f32> {
  %id = torus.replica_id : tensor<i32>
  %0 = torus.all_reduce max %x : tensor<4xf32>
  // expected-error @-1 {{'torus.all_reduce' op has no gradient for a max all-reduce}}
  %1 = torus.reduce sum %0, dims = [0] : (tensor<4xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}
