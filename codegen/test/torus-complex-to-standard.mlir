// Tests that complex arithmetic becomes arith/math on the parts, with
// atan2, tanh, tan, expm1 and log1p as ScalarMath's sequences (nothing the
// JIT cannot resolve), leaving complex.create/re/im for complex-to-llvm.
// RUN: torus-opt %s --torus-complex-to-standard | FileCheck %s

// CHECK-LABEL: func.func @log_tanh
// CHECK-NOT: complex.log
// CHECK-NOT: complex.tanh
// CHECK-NOT: math.atan2
// CHECK-NOT: math.tanh
// CHECK-NOT: math.tan
// CHECK: complex.create
func.func @log_tanh(%z: complex<f32>) -> (complex<f32>, complex<f32>) {
  %0 = complex.log %z : complex<f32>
  %1 = complex.tanh %z : complex<f32>
  return %0, %1 : complex<f32>, complex<f32>
}

// Multiplication is XLA:CPU's: (fma(a, c, -(b*d)), fma(b, c, a*d)).
// CHECK-LABEL: func.func @mul_abs
// CHECK-NOT: complex.mul
// CHECK-DAG: %[[A:.*]] = complex.re %arg0
// CHECK-DAG: %[[B:.*]] = complex.im %arg0
// CHECK-DAG: %[[C:.*]] = complex.re %arg1
// CHECK-DAG: %[[D:.*]] = complex.im %arg1
// CHECK: %[[BD:.*]] = arith.mulf %[[B]], %[[D]] : f64
// CHECK: %[[AD:.*]] = arith.mulf %[[A]], %[[D]] : f64
// CHECK: %[[NBD:.*]] = arith.negf %[[BD]] : f64
// CHECK: %[[RE:.*]] = math.fma %[[A]], %[[C]], %[[NBD]] : f64
// CHECK: %[[IM:.*]] = math.fma %[[B]], %[[C]], %[[AD]] : f64
// CHECK: complex.create %[[RE]], %[[IM]] : complex<f64>
// CHECK-NOT: complex.abs
// CHECK: math.sqrt
func.func @mul_abs(%a: complex<f64>, %b: complex<f64>) -> (complex<f64>, f64) {
  %0 = complex.mul %a, %b : complex<f64>
  %1 = complex.abs %a : complex<f64>
  return %0, %1 : complex<f64>, f64
}

// CHECK-LABEL: func.func @real_only
// CHECK: math.tanh
func.func @real_only(%x: f32) -> f32 {
  // A function without complex ops is left alone.
  %0 = math.tanh %x : f32
  return %0 : f32
}
