// Tests the linalg form of each torus compute op.
// RUN: torus-opt %s --split-input-file --torus-to-linalg --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @add
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = torus.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_matmul
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%[[FILL]]
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @batch_matmul(%a: tensor<4x2x8xf32>, %b: tensor<4x8x5xf32>) -> tensor<4x2x5xf32> {
  %0 = torus.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x8xf32>, tensor<4x8x5xf32>) -> tensor<4x2x5xf32>
  return %0 : tensor<4x2x5xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x3xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
// CHECK: arith.maximumf
func.func @reduce_max(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  %0 = torus.reduce max %a, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-LABEL: func.func @broadcast
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.*}}]
func.func @broadcast(%a: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = torus.broadcast_in_dim %a, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @shapes
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<3x2xf32>) permutation = [1, 0]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<3x2xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [1, 6, 1] : tensor<6xf32> into tensor<1x6x1xf32>
func.func @shapes(%a: tensor<2x3xf32>) -> tensor<1x6x1xf32> {
  %0 = torus.transpose %a, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = torus.reshape %0 : (tensor<3x2xf32>) -> tensor<1x6x1xf32>
  return %1 : tensor<1x6x1xf32>
}

// -----

// CHECK-LABEL: func.func @compare_select_convert
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.cmpi ne
func.func @compare_select_convert(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi1>) {
  %p = torus.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = torus.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  %1 = torus.convert %0 : (tensor<4xf32>) -> tensor<4xi32>
  %2 = torus.convert %1 : (tensor<4xi32>) -> tensor<4xi1>
  return %1, %2 : tensor<4xi32>, tensor<4xi1>
}

// -----

func.func @collectives_first(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'torus.all_reduce' op must be lowered by torus-lower-collectives before torus-to-linalg}}
  %0 = torus.all_reduce sum %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
