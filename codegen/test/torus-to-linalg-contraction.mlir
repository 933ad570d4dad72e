// Tests convolution's single linalg.generic: padded input, strided and
// dilated window maps, feature groups as floordiv; and half-precision
// dot products accumulating in f32.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// Loops: (b, y, x, o) parallel, then (ky, kx, c) reduction. With 2 feature
// groups of 3 output features, output feature o reads input feature
// (o floordiv 3) * 2 + c.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4 * 2, d2 * 2 + d5 * 2, (d3 floordiv 3) * 2 + d6)>
// CHECK: #[[KERNEL:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @grouped_conv
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x7x7x4xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %{{.*}} into %[[Z]][0, 1, 1, 0] [1, 5, 5, 4] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[KERNEL]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PADDED]], %{{.*}} : tensor<1x7x7x4xf32>, tensor<3x3x2x6xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @grouped_conv(%x: tensor<1x5x5x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<1x2x2x6xf32> {
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {window_strides = array<i64: 2, 2>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 2, 2>, feature_group_count = 2 : i64} : (tensor<1x5x5x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x2x2x6xf32>
  return %0 : tensor<1x2x2x6xf32>
}

// -----

// lhs_dilation is interior padding of the input.
// CHECK-LABEL: func.func @transposed_conv
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 2, 2] [1, 1, 3, 3] [1, 1, 2, 2] : tensor<1x1x3x3xf32> into tensor<1x1x9x9xf32>
func.func @transposed_conv(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x7x7xf32> {
  %0 = torus.convolution %x, %w, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {padding = dense<2> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

// CHECK-LABEL: func.func @dot_f16
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK: linalg.generic
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @dot_f16(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) -> tensor<4x16xf16> {
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

// A dot product of two vectors: no parallel loop, one reduction loop, and
// a rank-0 accumulator written through the map (d0) -> ().
// CHECK-DAG: #[[V:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @vector_dot
// CHECK: linalg.generic {indexing_maps = [#[[V]], #[[V]], #[[S]]], iterator_types = ["reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<f32>)
func.func @vector_dot(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<f32> {
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
