// Tests that triangular_solve and fft parse, verify and print back the
// same.
// RUN: torus-opt %s | torus-opt | FileCheck %s

// CHECK-LABEL: func.func @triangular_solve
// CHECK: torus.triangular_solve %arg0, %arg1, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
// CHECK: torus.triangular_solve %arg2, %arg3, left_side = false, lower = false, unit_diagonal = true, transpose_a = ADJOINT : (tensor<3x3xcomplex<f64>>, tensor<5x3xcomplex<f64>>) -> tensor<5x3xcomplex<f64>>
func.func @triangular_solve(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>,
                            %c: tensor<3x3xcomplex<f64>>, %d: tensor<5x3xcomplex<f64>>)
    -> (tensor<2x4x3xf32>, tensor<5x3xcomplex<f64>>) {
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %1 = torus.triangular_solve %c, %d, left_side = false, lower = false, unit_diagonal = true, transpose_a = ADJOINT : (tensor<3x3xcomplex<f64>>, tensor<5x3xcomplex<f64>>) -> tensor<5x3xcomplex<f64>>
  return %0, %1 : tensor<2x4x3xf32>, tensor<5x3xcomplex<f64>>
}

// CHECK-LABEL: func.func @fft
// CHECK: torus.fft %arg0, type = FFT, length = [4, 8] : (tensor<3x4x8xcomplex<f32>>) -> tensor<3x4x8xcomplex<f32>>
// CHECK: torus.fft %arg0, type = IFFT, length = [8] : (tensor<3x4x8xcomplex<f32>>) -> tensor<3x4x8xcomplex<f32>>
// CHECK: torus.fft %arg1, type = RFFT, length = [7] : (tensor<2x7xf64>) -> tensor<2x4xcomplex<f64>>
// CHECK: torus.fft %arg2, type = IRFFT, length = [3, 6] : (tensor<3x4xcomplex<f32>>) -> tensor<3x6xf32>
func.func @fft(%x: tensor<3x4x8xcomplex<f32>>, %r: tensor<2x7xf64>, %h: tensor<3x4xcomplex<f32>>)
    -> (tensor<3x4x8xcomplex<f32>>, tensor<3x4x8xcomplex<f32>>, tensor<2x4xcomplex<f64>>, tensor<3x6xf32>) {
  %0 = torus.fft %x, type = FFT, length = [4, 8] : (tensor<3x4x8xcomplex<f32>>) -> tensor<3x4x8xcomplex<f32>>
  %1 = torus.fft %x, type = IFFT, length = [8] : (tensor<3x4x8xcomplex<f32>>) -> tensor<3x4x8xcomplex<f32>>
  %2 = torus.fft %r, type = RFFT, length = [7] : (tensor<2x7xf64>) -> tensor<2x4xcomplex<f64>>
  %3 = torus.fft %h, type = IRFFT, length = [3, 6] : (tensor<3x4xcomplex<f32>>) -> tensor<3x6xf32>
  return %0, %1, %2, %3 : tensor<3x4x8xcomplex<f32>>, tensor<3x4x8xcomplex<f32>>, tensor<2x4xcomplex<f64>>, tensor<3x6xf32>
}
