// Tests the export of reductions: each kind gets a reducer computation and
// its identity as init value; argmax/argmin become HLO's variadic reduce
// over (values, iota) with a comparator that the importer recognises again.
// RUN: torusc %s --emit=hlo -o %t.hlo
// RUN: FileCheck %s --input-file=%t.hlo
// RUN: torusc %t.hlo --emit=hlo | diff %t.hlo -
// RUN: torusc %t.hlo --emit=torus | FileCheck %s --check-prefix=TORUS

// CHECK-LABEL: %sum_f32 (x: f32[], y: f32[]) -> f32[] {
// CHECK-NEXT: %x.sum_f32 = f32[] parameter(0)
// CHECK-NEXT: %y.sum_f32 = f32[] parameter(1)
// CHECK-NEXT: ROOT %add.sum_f32 = f32[] add(f32[] %x.sum_f32, f32[] %y.sum_f32)
// CHECK-LABEL: %product_s32 (x: s32[], y: s32[]) -> s32[] {
// CHECK: multiply(s32[] %x.product_s32, s32[] %y.product_s32)
// CHECK-LABEL: %max_f32
// CHECK-LABEL: %min_s32
// CHECK-LABEL: %and_pred
// CHECK-LABEL: %or_pred
// CHECK-LABEL: %argmax_f32_s32 (a: f32[], ai: s32[], b: f32[], bi: s32[]) -> (f32[], s32[]) {
// CHECK: direction=GT
// CHECK-LABEL: %argmin_f64_s64
// CHECK: direction=LT

// CHECK-LABEL: ENTRY %reductions
func.func @reductions(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %p: tensor<4x5xi1>, %d: tensor<3x7xf64>, %img: tensor<2x8x8x3xf32>)
    -> (tensor<4xf32>, tensor<8xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<5xi1>,
        tensor<4xf32>, tensor<4xi32>, tensor<3xf64>, tensor<3xi64>, tensor<2x4x4x3xf32>, tensor<2x3x3x3xf32>) {
  // CHECK: %[[ZERO:constant.[0-9]+]] = f32[] constant(0)
  // CHECK-NEXT: f32[4]{0} reduce(f32[4,8]{1,0} %x, f32[] %[[ZERO]]), dimensions={1}, to_apply=%sum_f32
  // TORUS: torus.reduce sum %{{.*}}, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  %0 = torus.reduce sum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: s32[] constant(1)
  // CHECK-NEXT: dimensions={0}, to_apply=%product_s32
  // TORUS: torus.reduce product
  %1 = torus.reduce product %i, dims = [0] : (tensor<4x8xi32>) -> tensor<8xi32>
  // CHECK: f32[] constant(-inf)
  // CHECK-NEXT: to_apply=%max_f32
  // TORUS: torus.reduce max
  %2 = torus.reduce max %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: s32[] constant(2147483647)
  // CHECK-NEXT: to_apply=%min_s32
  // TORUS: torus.reduce min
  %3 = torus.reduce min %i, dims = [1] : (tensor<4x8xi32>) -> tensor<4xi32>
  // CHECK: pred[] constant(true)
  // CHECK-NEXT: to_apply=%and_pred
  // TORUS: torus.reduce and
  %4 = torus.reduce and %p, dims = [1] : (tensor<4x5xi1>) -> tensor<4xi1>
  // CHECK: pred[] constant(false)
  // CHECK-NEXT: to_apply=%or_pred
  // TORUS: torus.reduce or
  %5 = torus.reduce or %p, dims = [0] : (tensor<4x5xi1>) -> tensor<5xi1>
  // CHECK: %[[IOTA:iota.[0-9]+]] = s32[4,8]{1,0} iota(), iota_dimension=1
  // CHECK-NEXT: %[[INIT:constant.[0-9]+]] = f32[] constant(-inf)
  // CHECK-NEXT: %[[IDX:constant.[0-9]+]] = s32[] constant(0)
  // CHECK-NEXT: %[[R:reduce.[0-9]+]] = (f32[4]{0}, s32[4]{0}) reduce(f32[4,8]{1,0} %x, s32[4,8]{1,0} %[[IOTA]], f32[] %[[INIT]], s32[] %[[IDX]]), dimensions={1}, to_apply=%argmax_f32_s32
  // CHECK-NEXT: get-tuple-element((f32[4]{0}, s32[4]{0}) %[[R]]), index=0
  // CHECK-NEXT: get-tuple-element((f32[4]{0}, s32[4]{0}) %[[R]]), index=1
  // TORUS: torus.argmax %{{.*}}, dimension = 1 : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi32>)
  %6:2 = torus.argmax %x, dimension = 1 : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi32>)
  // CHECK: f64[] constant(inf)
  // CHECK: to_apply=%argmin_f64_s64
  // TORUS: torus.argmin %{{.*}}, dimension = 1 : (tensor<3x7xf64>) -> (tensor<3xf64>, tensor<3xi64>)
  %7:2 = torus.argmin %d, dimension = 1 : (tensor<3x7xf64>) -> (tensor<3xf64>, tensor<3xi64>)
  // Max pooling, 3x3 windows, stride 2, padding 1.
  // CHECK: f32[2,4,4,3]{3,2,1,0} reduce-window(f32[2,8,8,3]{3,2,1,0} %img, f32[] %{{.*}}), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, to_apply=%max_f32
  // TORUS: torus.reduce_window max %{{.*}}, window = [1, 3, 3, 1] {padding = dense<{{\[\[}}0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_strides = array<i64: 1, 2, 2, 1>}
  %8 = torus.reduce_window max %img, window = [1, 3, 3, 1] {window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32>
  // Sum windows with base and window dilation.
  // CHECK: window={size=1x2x2x1 lhs_dilate=1x2x2x1 rhs_dilate=1x3x3x1}, to_apply=%sum_f32
  // TORUS: torus.reduce_window sum %{{.*}}, window = [1, 2, 2, 1] {base_dilations = array<i64: 1, 2, 2, 1>, window_dilations = array<i64: 1, 3, 3, 1>}
  %9 = torus.reduce_window sum %img, window = [1, 2, 2, 1] {base_dilations = array<i64: 1, 2, 2, 1>, window_dilations = array<i64: 1, 3, 3, 1>} : (tensor<2x8x8x3xf32>) -> tensor<2x12x12x3xf32>
  %10 = torus.slice %9, start_indices = [0, 0, 0, 0], limit_indices = [2, 3, 3, 3], strides = [1, 1, 1, 1] : (tensor<2x12x12x3xf32>) -> tensor<2x3x3x3xf32>
  return %0, %1, %2, %3, %4, %5, %6#0, %6#1, %7#0, %7#1, %8, %10
      : tensor<4xf32>, tensor<8xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<5xi1>,
        tensor<4xf32>, tensor<4xi32>, tensor<3xf64>, tensor<3xi64>, tensor<2x4x4x3xf32>, tensor<2x3x3x3xf32>
}
