// Tests StableHLO's 8-bit floats (tensor<...xf8E4M3FN>, f8E5M2): they
// convert to the torus ops of those types, an fp8 dot_general with an f32
// result converts its operands to f32 first, and a run rounds as ml_dtypes
// does. x = [0.1, -3.3, 460, 470, 2^-10, -0, 60000, inf] to f8e4m3fn is
// [0.1015625, -3.25, 448, nan, 0, -0, nan, nan]; doubled (in f32, rounded
// back: 896 > 464 is NaN) and to f8e5m2 (1.625 and 6.5 are ties, to even):
// [0.1875, -6, nan, nan, 0, -0, nan, nan] (ml_dtypes:
// x.astype(e4m3fn).astype(f32) * 2 -> .astype(e4m3fn).astype(e5m2)).
// RUN: torusc %s --emit=torus | FileCheck %s
// RUN: torus-run %s %torus_src/tests/data/f8/run/x.npy %torus_src/tests/data/f8/run/z.npy --print-outputs | FileCheck %s --check-prefix=OUT

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<8xf32>, %z: tensor<8xf8E5M2>)
    -> (tensor<8xf32>, tensor<1xf32>) {
  // CHECK: torus.convert %{{.*}} : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
  %0 = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
  // CHECK: torus.add %{{.*}}, %{{.*}} : tensor<8xf8E4M3FN>
  %1 = stablehlo.add %0, %0 : tensor<8xf8E4M3FN>
  %2 = stablehlo.convert %1 : (tensor<8xf8E4M3FN>) -> tensor<8xf8E5M2>
  %3 = stablehlo.convert %2 : (tensor<8xf8E5M2>) -> tensor<8xf32>
  %row = stablehlo.reshape %z : (tensor<8xf8E5M2>) -> tensor<1x8xf8E5M2>
  // CHECK: torus.convert %{{.*}} : (tensor<1x8xf8E5M2>) -> tensor<1x8xf32>
  // CHECK: torus.convert %{{.*}} : (tensor<8xf8E5M2>) -> tensor<8xf32>
  // CHECK: torus.dot_general %{{.*}}, %{{.*}}, {{.*}} : (tensor<1x8xf32>, tensor<8xf32>) -> tensor<1xf32>
  %4 = stablehlo.dot_general %row, %z, contracting_dims = [1] x [0]
      : (tensor<1x8xf8E5M2>, tensor<8xf8E5M2>) -> tensor<1xf32>
  return %3, %4 : tensor<8xf32>, tensor<1xf32>
}
// OUT: replica 0 result 0: f32[8]{0.1875, -6, nan, nan, 0, -0, nan, nan}
// z = [1.5, -2, 57344, 0.015625, 2^-16, -0, 32, -inf]: z . z is inf.
// OUT: replica 0 result 1: f32[1]{inf}
