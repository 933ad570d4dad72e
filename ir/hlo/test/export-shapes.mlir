// Tests the export of constants and shape ops: splat constants become a
// scalar and a broadcast, other constants nested literals; slices, pads and
// dynamic slices write HLO's attribute syntax. Importing the text and
// exporting it again gives the same text.
// RUN: torusc %s --emit=hlo -o %t.hlo
// RUN: FileCheck %s --input-file=%t.hlo
// RUN: torusc %t.hlo --emit=hlo | diff %t.hlo -
// RUN: torusc %t.hlo --emit=torus | FileCheck %s --check-prefix=TORUS

// CHECK-LABEL: ENTRY %shapes
func.func @shapes(%v: tensor<3xf32>, %m: tensor<2x3xf32>, %x: tensor<4x6xf32>,
                  %i: tensor<i32>, %j: tensor<i64>, %u: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>,
        tensor<2x2xf32>, tensor<4x6xf32>, tensor<6x6xf32>, tensor<6x12xf32>,
        tensor<4x6xf32>, tensor<4x6xi32>, tensor<2x2xbf16>, tensor<3xf64>,
        tensor<2xi1>, tensor<i64>) {
  // CHECK: %broadcast.1 = f32[2,3]{1,0} broadcast(f32[3]{0} %v), dimensions={1}
  // TORUS: torus.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %0 = torus.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: transpose(f32[2,3]{1,0} %m), dimensions={1,0}
  // TORUS: torus.transpose %{{.*}}, permutation = [1, 0]
  %1 = torus.transpose %m, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: f32[6]{0} reshape(f32[2,3]{1,0} %m)
  // TORUS: torus.reshape
  %2 = torus.reshape %m : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK: f32[2,3]{1,0} slice(f32[4,6]{1,0} %x), slice={[0:4:2], [1:6:2]}
  // TORUS: torus.slice %{{.*}}, start_indices = [0, 1], limit_indices = [4, 6], strides = [2, 2]
  %3 = torus.slice %x, start_indices = [0, 1], limit_indices = [4, 6], strides = [2, 2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  // CHECK: f32[2,2]{1,0} dynamic-slice(f32[4,6]{1,0} %x, s32[] %i, s64[] %j), dynamic_slice_sizes={2,2}
  // TORUS: torus.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}], sizes = [2, 2]
  %4 = torus.dynamic_slice %x[%i, %j], sizes = [2, 2] : (tensor<4x6xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
  // CHECK: f32[4,6]{1,0} dynamic-update-slice(f32[4,6]{1,0} %x, f32[2,3]{1,0} %u, s32[] %i, s32[] %i)
  // TORUS: torus.dynamic_update_slice
  %5 = torus.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  %s = torus.slice %x, start_indices = [0, 0], limit_indices = [2, 6], strides = [1, 1] : (tensor<4x6xf32>) -> tensor<2x6xf32>
  // CHECK: f32[6,6]{1,0} concatenate(f32[4,6]{1,0} %x, f32[2,6]{1,0} %slice.{{[0-9]+}}), dimensions={0}
  // TORUS: torus.concatenate({{.*}}), dimension = 0
  %6 = torus.concatenate(%x, %s), dimension = 0 : (tensor<4x6xf32>, tensor<2x6xf32>) -> tensor<6x6xf32>
  // CHECK: %[[ZERO:constant.[0-9]+]] = f32[] constant(0)
  // CHECK: f32[6,12]{1,0} pad(f32[4,6]{1,0} %x, f32[] %[[ZERO]]), padding=1_1_0x-1_2_1
  // TORUS: torus.pad %{{.*}}, %{{.*}}, low = [1, -1], high = [1, 2], interior = [0, 1]
  %z = torus.constant dense<0.0> : tensor<f32>
  %7 = torus.pad %x, %z, low = [1, -1], high = [1, 2], interior = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x12xf32>
  // CHECK: f32[4,6]{1,0} reverse(f32[4,6]{1,0} %x), dimensions={0,1}
  // TORUS: torus.reverse %{{.*}}, dims = [0, 1]
  %8 = torus.reverse %x, dims = [0, 1] : tensor<4x6xf32>
  // CHECK: s32[4,6]{1,0} iota(), iota_dimension=1
  // TORUS: torus.iota dim = 1 : tensor<4x6xi32>
  %9 = torus.iota dim = 1 : tensor<4x6xi32>
  // A splat: a scalar constant and a broadcast.
  // CHECK: %[[HALF:constant.[0-9]+]] = bf16[] constant(0.5)
  // CHECK-NEXT: bf16[2,2]{1,0} broadcast(bf16[] %[[HALF]]), dimensions={}
  // TORUS: torus.constant dense<5.000000e-01> : tensor<bf16>
  // TORUS-NEXT: torus.broadcast_in_dim
  %10 = torus.constant dense<0.5> : tensor<2x2xbf16>
  // Non-finite values and the shortest decimal that reads back exactly.
  // CHECK: f64[3]{0} constant({-inf, nan, 0.1})
  // TORUS: torus.constant dense<[0xFFF0000000000000, 0x7FF8000000000000, 1.000000e-01]> : tensor<3xf64>
  %11 = torus.constant dense<[0xFFF0000000000000, 0x7FF8000000000000, 0.1]> : tensor<3xf64>
  // CHECK: pred[2]{0} constant({1, 0})
  %12 = torus.constant dense<[true, false]> : tensor<2xi1>
  // CHECK: s64[] constant(-9223372036854775808)
  %13 = torus.constant dense<-9223372036854775808> : tensor<i64>
  %f = torus.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]> : tensor<2x3xf32>
  // CHECK: f32[2,3]{1,0} constant({ {1, 2, 3}, {4, 5, 6.5} })
  // TORUS: torus.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.500000e+00]]> : tensor<2x3xf32>
  %g = torus.add %0, %f : tensor<2x3xf32>
  return %g, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13
      : tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>,
        tensor<2x2xf32>, tensor<4x6xf32>, tensor<6x6xf32>, tensor<6x12xf32>,
        tensor<4x6xf32>, tensor<4x6xi32>, tensor<2x2xbf16>, tensor<3xf64>,
        tensor<2xi1>, tensor<i64>
}
