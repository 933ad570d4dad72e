// Tests that torus-convert-stablehlo names the ops it cannot convert.
// RUN: torus-opt %s --torus-convert-stablehlo --split-input-file -verify-diagnostics

func.func @zeta(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'chlo.zeta' has no torus equivalent yet}}
  // expected-error @+1 {{failed to legalize operation 'chlo.zeta'}}
  %0 = chlo.zeta %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The complex forms of lgamma, digamma, erf_inv and erfc have no expansion.
func.func @lgamma_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+2 {{'chlo.lgamma' of 'complex<f32>' is not supported: only real floats}}
  // expected-error @+1 {{failed to legalize operation 'chlo.lgamma'}}
  %0 = chlo.lgamma %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @target(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{unsupported custom_call target '@Sharding'}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.custom_call'}}
  %0 = stablehlo.custom_call @Sharding(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cholesky(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'stablehlo.cholesky' has no torus equivalent yet}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.cholesky'}}
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @noTorusOp(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'stablehlo.cholesky' has no torus equivalent yet}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.cholesky'}}
  %0 = "stablehlo.cholesky"(%x) <{lower = true}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
