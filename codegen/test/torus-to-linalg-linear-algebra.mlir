// Tests the lowering of triangular_solve to substitution in scf loops (f16
// widened to f32 and rounded once) and of fft to one summing
// linalg.generic per dimension against constant twiddle tables, in f64.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// An upper triangle solved from the left: rows last to first, each from
// the ones below it.
// CHECK-LABEL: func.func @solve
// CHECK: %[[B32:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<2x4x3xf16>) outs(%{{.*}} : tensor<2x4x3xf32>)
// CHECK: arith.extf
// CHECK: %[[X:.*]] = scf.for %{{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %[[B32]]) -> (tensor<2x4x3xf32>)
// CHECK: scf.for %[[T:.*]] = %c0 to %c4 step %c1 iter_args(%[[W:.*]] = %{{.*}}) -> (tensor<2x4x3xf32>)
// CHECK: %[[S:.*]] = arith.subi %c3, %[[T]] : index
// CHECK: scf.for %[[U:.*]] = %c0 to %[[T]] step %c1 iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK: %[[K:.*]] = arith.subi %c3, %[[U]] : index
// CHECK: tensor.extract %[[W]][%{{.*}}, %[[K]], %{{.*}}] : tensor<2x4x3xf32>
// CHECK: tensor.extract %arg0[%{{.*}}, %[[S]], %[[K]]] : tensor<2x4x4xf16>
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: tensor.extract %arg0[%{{.*}}, %[[S]], %[[S]]] : tensor<2x4x4xf16>
// CHECK: arith.divf
// CHECK: tensor.insert
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<2x4x3xf32>) outs(%{{.*}} : tensor<2x4x3xf16>)
// CHECK: arith.truncf
// CHECK-NOT: torus.
func.func @solve(%a: tensor<2x4x4xf16>, %b: tensor<2x4x3xf16>) -> tensor<2x4x3xf16> {
  %0 = torus.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf16>, tensor<2x4x3xf16>) -> tensor<2x4x3xf16>
  return %0 : tensor<2x4x3xf16>
}

// -----

// A unit lower triangle, transposed, from the right: no division, and the
// coefficient of unknown k in equation s is a[s, k].
// CHECK-LABEL: func.func @solve_unit
// CHECK: scf.for
// CHECK: tensor.extract %arg0[%[[S:.*]], %[[K:.*]]] : tensor<3x3xcomplex<f64>>
// CHECK: complex.mul
// CHECK: complex.sub
// CHECK-NOT: complex.div
// CHECK: tensor.insert
func.func @solve_unit(%a: tensor<3x3xcomplex<f64>>, %b: tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>> {
  %0 = torus.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = true, transpose_a = TRANSPOSE : (tensor<3x3xcomplex<f64>>, tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>>
  return %0 : tensor<2x3xcomplex<f64>>
}

// -----

// CHECK-LABEL: func.func @rfft
// The real and imaginary parts as f64 tensors.
// CHECK: %[[RE:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<3x8xf32>) outs(%{{.*}} : tensor<3x8xf64>)
// CHECK: %[[IM:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<3x8xf32>) outs(%{{.*}} : tensor<3x8xf64>)
// cos and -sin of 2 pi f t / 8 for the 5 frequencies kept.
// CHECK: %[[WR:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, {{.*}}[1.000000e+00, 0.70710678118654757, 0.000000e+00, -0.70710678118654757, {{.*}} : tensor<5x8xf64>
// CHECK: %[[WI:.*]] = arith.constant dense<{{.*}}[-0.000000e+00, -0.70710678118654757, -1.000000e+00, {{.*}} : tensor<5x8xf64>
// CHECK: %[[SUM:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[RE]], %[[IM]], %[[WR]], %[[WI]] : tensor<3x8xf64>, tensor<3x8xf64>, tensor<5x8xf64>, tensor<5x8xf64>) outs(%{{.*}}, %{{.*}} : tensor<3x5xf64>, tensor<3x5xf64>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]]#0, %[[SUM]]#1 : tensor<3x5xf64>, tensor<3x5xf64>) outs(%{{.*}} : tensor<3x5xcomplex<f32>>)
// CHECK: arith.truncf
// CHECK: complex.create
func.func @rfft(%x: tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>> {
  %0 = torus.fft %x, type = RFFT, length = [8] : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  return %0 : tensor<3x5xcomplex<f32>>
}

// -----

// IRFFT over two dimensions: the inverse complex transform of dimension 0
// (divided by 2), then the Hermitian sum of dimension 1 into 4 reals.
// CHECK-LABEL: func.func @irfft
// CHECK: arith.constant dense<{{\[\[}}5.000000e-01, 5.000000e-01], [5.000000e-01, -5.000000e-01]]> : tensor<2x2xf64>
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<2x3xf64>, tensor<2x3xf64>)
// CHECK: arith.constant dense<{{\[\[}}2.500000e-01, 5.000000e-01, 2.500000e-01], {{.*}} : tensor<4x3xf64>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4xf64>)
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @irfft(%x: tensor<2x3xcomplex<f32>>) -> tensor<2x4xf32> {
  %0 = torus.fft %x, type = IRFFT, length = [2, 4] : (tensor<2x3xcomplex<f32>>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @empty
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x5xcomplex<f32>>
// CHECK: return %[[E]]
func.func @empty(%x: tensor<0x8xf32>) -> tensor<0x5xcomplex<f32>> {
  %0 = torus.fft %x, type = RFFT, length = [8] : (tensor<0x8xf32>) -> tensor<0x5xcomplex<f32>>
  return %0 : tensor<0x5xcomplex<f32>>
}
