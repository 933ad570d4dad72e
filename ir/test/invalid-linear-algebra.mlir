// Tests that the verifiers of triangular_solve and fft reject malformed
// ops with messages that name the problem.
// RUN: torus-opt %s -split-input-file -verify-diagnostics

func.func @solve_element_types(%a: tensor<4x4xf32>, %b: tensor<4x2xf64>) -> tensor<4x2xf64> {
  // expected-error @+1 {{a element type 'f32' differs from b element type 'f64'}}
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<4x2xf64>) -> tensor<4x2xf64>
  return %0 : tensor<4x2xf64>
}

// -----

func.func @solve_rank(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a [4] and b [4] must have one rank, at least 2}}
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @solve_not_square(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{a [4,3] is not square in its last two dimensions}}
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @solve_batch(%a: tensor<2x4x4xf32>, %b: tensor<3x4x2xf32>) -> tensor<3x4x2xf32> {
  // expected-error @+1 {{batch dimensions of a [2,4,4] and b [3,4,2] differ}}
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf32>, tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// -----

func.func @solve_side(%a: tensor<4x4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{b [4,2] must have 4 columns (a is [4,4]) to be solved from the right}}
  %0 = torus.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @solve_result(%a: tensor<4x4xf32>, %b: tensor<4x2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{result shape [2,4] should be [4,2]}}
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @solve_integers(%a: tensor<4x4xi32>, %b: tensor<4x2xi32>) -> tensor<4x2xi32> {
  // expected-error @+1 {{operand #0 must be statically shaped tensor}}
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @fft_half(%x: tensor<8xcomplex<f32>>) -> tensor<8xf16> {
  // expected-error @+1 {{result element type 'f16' should be 'f32' for IRFFT of 'complex<f32>'}}
  %0 = torus.fft %x, type = IRFFT, length = [14] : (tensor<8xcomplex<f32>>) -> tensor<8xf16>
  return %0 : tensor<8xf16>
}

// -----

func.func @fft_f16(%x: tensor<8xf16>) -> tensor<5xcomplex<f32>> {
  // expected-error @+1 {{operand element type 'f16' is not f32, f64, or complex of them}}
  %0 = torus.fft %x, type = RFFT, length = [8] : (tensor<8xf16>) -> tensor<5xcomplex<f32>>
  return %0 : tensor<5xcomplex<f32>>
}

// -----

func.func @fft_real_operand(%x: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{FFT takes a complex operand, not 'tensor<8xf32>'}}
  %0 = torus.fft %x, type = FFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @fft_complex_operand(%x: tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>> {
  // expected-error @+1 {{RFFT takes a real operand, not 'tensor<8xcomplex<f32>>'}}
  %0 = torus.fft %x, type = RFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>
  return %0 : tensor<5xcomplex<f32>>
}

// -----

func.func @fft_rank(%x: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  // expected-error @+1 {{fft_length has 4 entries; an fft transforms 1 to 3 dimensions}}
  %0 = torus.fft %x, type = FFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  return %0 : tensor<2x2x2x2xcomplex<f32>>
}

// -----

func.func @fft_too_few_dims(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{operand [8] has fewer than the 2 dimensions of fft_length [2,8]}}
  %0 = torus.fft %x, type = FFT, length = [2, 8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @fft_negative(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{fft_length [-8] is negative}}
  %0 = torus.fft %x, type = FFT, length = [-8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @fft_length(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{operand [8] dimension 0 is 8 but fft_length [16] needs 16}}
  %0 = torus.fft %x, type = FFT, length = [16] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @irfft_half(%x: tensor<8xcomplex<f32>>) -> tensor<8xf32> {
  // expected-error @+1 {{operand [8] dimension 0 is 8 but fft_length [8] needs 5}}
  %0 = torus.fft %x, type = IRFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @rfft_result_type(%x: tensor<8xf32>) -> tensor<5xcomplex<f64>> {
  // expected-error @+1 {{result element type 'complex<f64>' should be 'complex<f32>' for RFFT of 'f32'}}
  %0 = torus.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f64>>
  return %0 : tensor<5xcomplex<f64>>
}

// -----

func.func @rfft_result_shape(%x: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{result shape [8] should be [5]}}
  %0 = torus.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
