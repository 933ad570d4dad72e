// Tests torus-split-dilated-convolutions: a convolution of a dilated input
// becomes one convolution of the undilated input whose output features are
// the output phases, rearranged depth to space; other convolutions are
// left alone.
// RUN: torus-opt %s --torus-split-dilated-convolutions | FileCheck %s

// The input gradient of a stride-2 3 x 3 convolution (low padding 2): per
// dimension, phase 0 reads taps {0, 2} at input offsets {-1, 0}, phase 1
// tap 1 at offset 0. A 2 x 2 window covers both: phase 1's tap goes to its
// second position (padded with a zero before it). The four phases are the
// kernel's output features, phase-major.
// CHECK-LABEL: func.func @stride2_gradient
// CHECK: %[[W00:.*]] = torus.slice %arg1, start_indices = [0, 0, 0, 0], limit_indices = [3, 3, 32, 64], strides = [2, 2, 1, 1] : (tensor<3x3x32x64xf32>) -> tensor<2x2x32x64xf32>
// CHECK: %[[T01:.*]] = torus.slice %arg1, start_indices = [0, 1, 0, 0], {{.*}} -> tensor<2x1x32x64xf32>
// CHECK: %[[W01:.*]] = torus.pad %[[T01]], %{{.*}}, low = [0, 1, 0, 0], high = [0, 0, 0, 0], {{.*}} -> tensor<2x2x32x64xf32>
// CHECK: %[[T10:.*]] = torus.slice %arg1, start_indices = [1, 0, 0, 0], {{.*}} -> tensor<1x2x32x64xf32>
// CHECK: %[[W10:.*]] = torus.pad %[[T10]], %{{.*}}, low = [1, 0, 0, 0], high = [0, 0, 0, 0], {{.*}} -> tensor<2x2x32x64xf32>
// CHECK: %[[T11:.*]] = torus.slice %arg1, start_indices = [1, 1, 0, 0], {{.*}} -> tensor<1x1x32x64xf32>
// CHECK: %[[W11:.*]] = torus.pad %[[T11]], %{{.*}}, low = [1, 1, 0, 0], high = [0, 0, 0, 0], {{.*}} -> tensor<2x2x32x64xf32>
// CHECK: %[[W:.*]] = torus.concatenate(%[[W00]], %[[W01]], %[[W10]], %[[W11]]), dimension = 2 : {{.*}} -> tensor<2x2x128x64xf32>
// CHECK: %[[ALL:.*]] = torus.convolution %arg0, %[[W]], dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f] {padding = dense<{{\[\[}}1, 0], [1, 0]]> : tensor<2x2xi64>} : (tensor<64x8x8x64xf32>, tensor<2x2x128x64xf32>) -> tensor<64x8x8x128xf32>
// CHECK: %[[E:.*]] = torus.reshape %[[ALL]] : (tensor<64x8x8x128xf32>) -> tensor<64x8x8x2x2x32xf32>
// CHECK: %[[T:.*]] = torus.transpose %[[E]], permutation = [0, 1, 3, 2, 4, 5] : {{.*}} -> tensor<64x8x2x8x2x32xf32>
// CHECK: %[[R:.*]] = torus.reshape %[[T]] : (tensor<64x8x2x8x2x32xf32>) -> tensor<64x16x16x32xf32>
// CHECK: return %[[R]]
func.func @stride2_gradient(%dy: tensor<64x8x8x64xf32>, %w: tensor<3x3x32x64xf32>) -> tensor<64x16x16x32xf32> {
  %dx = torus.convolution %dy, %w, dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f] {lhs_dilation = array<i64: 2, 2>, padding = dense<[[2, 1], [2, 1]]> : tensor<2x2xi64>} : (tensor<64x8x8x64xf32>, tensor<3x3x32x64xf32>) -> tensor<64x16x16x32xf32>
  return %dx : tensor<64x16x16x32xf32>
}

// 1-D, kernel 2, dilation 3, low padding 1, 8 outputs: phase 0 reads tap
// 1, phase 1 tap 0, phase 2 none (zeros), all at input offset 0; 3 outputs
// per phase, 9 interleaved, sliced to 8. The phases need no transpose.
// CHECK-LABEL: func.func @phase_without_taps
// CHECK: %[[A:.*]] = torus.slice %arg1, start_indices = [1, 0, 0], limit_indices = [2, 2, 3], strides = [3, 1, 1] {{.*}} -> tensor<1x2x3xf32>
// CHECK: %[[B:.*]] = torus.slice %arg1, start_indices = [0, 0, 0], limit_indices = [2, 2, 3], strides = [3, 1, 1] {{.*}} -> tensor<1x2x3xf32>
// CHECK: %[[Z:.*]] = torus.constant dense<0.000000e+00> : tensor<1x2x3xf32>
// CHECK: %[[W:.*]] = torus.concatenate(%[[A]], %[[B]], %[[Z]]), dimension = 2 : {{.*}} -> tensor<1x2x9xf32>
// CHECK: torus.convolution %arg0, %[[W]], {{.*}} -> tensor<1x3x9xf32>
// CHECK-NOT: torus.transpose
// CHECK: %[[ALL:.*]] = torus.reshape %{{.*}} : (tensor<1x3x3x3xf32>) -> tensor<1x9x3xf32>
// CHECK: %[[R:.*]] = torus.slice %[[ALL]], start_indices = [0, 0, 0], limit_indices = [1, 8, 3], strides = [1, 1, 1]
// CHECK: return %[[R]] : tensor<1x8x3xf32>
func.func @phase_without_taps(%x: tensor<1x3x2xf32>, %w: tensor<2x2x3xf32>) -> tensor<1x8x3xf32> {
  %y = torus.convolution %x, %w, dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {lhs_dilation = array<i64: 3>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<1x3x2xf32>, tensor<2x2x3xf32>) -> tensor<1x8x3xf32>
  return %y : tensor<1x8x3xf32>
}

// NCHW with only the rows dilated: the phases are features of dimension 1,
// and each follows its row in the transpose.
// CHECK-LABEL: func.func @nchw_rows
// CHECK: torus.convolution %arg0, %{{.*}}, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {{.*}} -> tensor<2x8x4x4xf32>
// CHECK: torus.reshape %{{.*}} : (tensor<2x8x4x4xf32>) -> tensor<2x2x1x4x4x4xf32>
// CHECK: torus.transpose %{{.*}}, permutation = [0, 3, 4, 1, 5, 2] : {{.*}} -> tensor<2x4x4x2x4x1xf32>
// CHECK: torus.reshape %{{.*}} : (tensor<2x4x4x2x4x1xf32>) -> tensor<2x4x8x4xf32>
// CHECK: torus.slice %{{.*}} -> tensor<2x4x7x4xf32>
func.func @nchw_rows(%x: tensor<2x3x4x5xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<2x4x7x4xf32> {
  %y = torus.convolution %x, %w, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {lhs_dilation = array<i64: 2, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<2x3x4x5xf32>, tensor<4x3x3x2xf32>) -> tensor<2x4x7x4xf32>
  return %y : tensor<2x4x7x4xf32>
}

// A window stride or a kernel dilation besides the input's, or feature
// groups: left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: torus.slice
// CHECK: torus.convolution %arg0, %arg1, {{.*}}lhs_dilation = array<i64: 2>{{.*}}window_strides = array<i64: 2>
// CHECK: torus.convolution %arg0, %arg1, {{.*}}lhs_dilation = array<i64: 2>{{.*}}rhs_dilation = array<i64: 2>
// CHECK: torus.convolution %arg2, %arg3, {{.*}}feature_group_count = 2 : i64, lhs_dilation = array<i64: 2>
// CHECK-NOT: torus.slice
func.func @left_alone(%x: tensor<1x6x2xf32>, %w: tensor<2x2x3xf32>, %gx: tensor<1x6x4xf32>, %gw: tensor<2x2x4xf32>) -> (tensor<1x5x3xf32>, tensor<1x9x3xf32>, tensor<1x10x4xf32>) {
  %a = torus.convolution %x, %w, dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {lhs_dilation = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<1x6x2xf32>, tensor<2x2x3xf32>) -> tensor<1x5x3xf32>
  %b = torus.convolution %x, %w, dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {lhs_dilation = array<i64: 2>, rhs_dilation = array<i64: 2>} : (tensor<1x6x2xf32>, tensor<2x2x3xf32>) -> tensor<1x9x3xf32>
  %c = torus.convolution %gx, %gw, dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {lhs_dilation = array<i64: 2>, feature_group_count = 2 : i64} : (tensor<1x6x4xf32>, tensor<2x2x4xf32>) -> tensor<1x10x4xf32>
  return %a, %b, %c : tensor<1x5x3xf32>, tensor<1x9x3xf32>, tensor<1x10x4xf32>
}
