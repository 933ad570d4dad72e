// Tests the folds XLA also makes: x+0, x*1, no-op broadcasts and converts,
// reshape∘reshape, transpose∘transpose and broadcasts of splat constants.
// RUN: torus-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = torus.constant dense<0.0> : tensor<4xf32>
  %one = torus.constant dense<1.0> : tensor<4xf32>
  %0 = torus.add %x, %zero : tensor<4xf32>
  %1 = torus.multiply %one, %x : tensor<4xf32>
  %2 = torus.convert %x : (tensor<4xf32>) -> tensor<4xf32>
  %3 = torus.transpose %x, permutation = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = torus.reshape %[[X]] : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[T:.*]] = torus.transpose %[[X]], permutation = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @chains(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<4x2x3xf32>) {
  %0 = torus.reshape %x : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = torus.reshape %0 : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = torus.transpose %x, permutation = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = torus.transpose %2, permutation = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1, %3 : tensor<4x6xf32>, tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @splat_broadcast
// CHECK-NEXT: %[[C:.*]] = torus.constant dense<2.500000e+00> : tensor<3x5xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_broadcast() -> tensor<3x5xf32> {
  %c = torus.constant dense<2.5> : tensor<f32>
  %0 = torus.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
