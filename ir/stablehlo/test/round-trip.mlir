// Tests that the stablehlo and chlo ops parse in the forms StableHLO's
// printer writes (the corpus's mlir/ files) and print back the same way.
// RUN: torus-opt %s | torus-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %p: tensor<4xi1>,
                       %z: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: stablehlo.abs %{{.*}} : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %1 = stablehlo.abs %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  // CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare EQ, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = stablehlo.compare EQ, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
  %4 = stablehlo.select %2, %0, %1 : tensor<4xi1>, tensor<4xf32>
  // CHECK: stablehlo.complex %{{.*}}, %{{.*}} : tensor<4xcomplex<f32>>
  %5 = stablehlo.complex %a, %b : tensor<4xcomplex<f32>>
  // CHECK: stablehlo.reduce_precision %{{.*}}, format = e5m10 : tensor<4xf32>
  %6 = stablehlo.reduce_precision %4, format = e5m10 : tensor<4xf32>
  // CHECK: stablehlo.convert %{{.*}} : (tensor<4xi1>) -> tensor<4xf32>
  %7 = stablehlo.convert %p : (tensor<4xi1>) -> tensor<4xf32>
  // CHECK: chlo.lgamma %{{.*}} : tensor<4xf32> -> tensor<4xf32>
  %8 = chlo.lgamma %6 : tensor<4xf32> -> tensor<4xf32>
  // CHECK: chlo.next_after %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %9 = chlo.next_after %8, %7 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>
  %10 = stablehlo.clamp %a, %9, %b : tensor<4xf32>
  return %10 : tensor<4xf32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<2x3xf32>, %i: tensor<i32>) -> tensor<6x2xf32> {
  // CHECK: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK: stablehlo.slice %{{.*}} [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %1 = stablehlo.slice %x [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  // CHECK: stablehlo.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %2 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  // CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %3 = stablehlo.concatenate %x, %0, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK: stablehlo.pad %{{.*}}, %{{.*}}, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<6x3xf32>
  %4 = stablehlo.pad %3, %cst, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<6x3xf32>
  // CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<6x3xf32>) -> tensor<3x6xf32>
  %5 = stablehlo.transpose %4, dims = [1, 0] : (tensor<6x3xf32>) -> tensor<3x6xf32>
  // CHECK: stablehlo.reverse %{{.*}}, dims = [0] : tensor<3x6xf32>
  %6 = stablehlo.reverse %5, dims = [0] : tensor<3x6xf32>
  // CHECK: stablehlo.iota dim = 1 : tensor<6x2xf32>
  %7 = stablehlo.iota dim = 1 : tensor<6x2xf32>
  return %7 : tensor<6x2xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<4x6xf32>, %i: tensor<4x6xi32>) -> tensor<3x5xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [0] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
  // CHECK-NEXT: reducer(%[[A:[a-z0-9]+]]: tensor<f32>, %[[B:[a-z0-9]+]]: tensor<f32>) (%[[C:[a-z0-9]+]]: tensor<i32>, %[[D:[a-z0-9]+]]: tensor<i32>) {
  // CHECK-NEXT: stablehlo.maximum %[[A]], %[[B]] : tensor<f32>
  %1:2 = stablehlo.reduce(%x init: %cst), (%i init: %c) across dimensions = [0] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>)  {
    %m = stablehlo.maximum %a, %b : tensor<f32>
    %n = stablehlo.add %ia, %ib : tensor<i32>
    stablehlo.return %m, %n : tensor<f32>, tensor<i32>
  }
  // CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 2, 2>}> ({
  %2 = "stablehlo.reduce_window"(%x, %cst) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32>
  return %2 : tensor<3x5xf32>
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>,
                        %x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>)
    -> (tensor<2x3x5xf32>, tensor<1x4x4x16xf32>) {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[}}1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  return %0, %1 : tensor<2x3x5xf32>, tensor<1x4x4x16xf32>
}

// CHECK-LABEL: func.func @indexing
func.func @indexing(%t: tensor<10x5xf32>, %ids: tensor<3x1xi32>, %u: tensor<3x5xf32>)
    -> (tensor<3x5xf32>, tensor<10x5xf32>) {
  // CHECK: #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
  %0 = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>}> : (tensor<10x5xf32>, tensor<3x1xi32>) -> tensor<3x5xf32>
  // CHECK: #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  %1 = "stablehlo.scatter"(%t, %ids, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<10x5xf32>, tensor<3x1xi32>, tensor<3x5xf32>) -> tensor<10x5xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<10x5xf32>
}

// CHECK-LABEL: func.func @control
func.func @control(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: stablehlo.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}) : tensor<i32>, tensor<4xf32>
  // CHECK-NEXT: cond {
  // CHECK: } do {
  %r:2 = stablehlo.while(%i = %n, %v = %x) : tensor<i32>, tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %p = stablehlo.compare  GT, %i, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.subtract %i, %c : tensor<i32>
    %w = stablehlo.multiply %v, %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  // CHECK: stablehlo.custom_call @check.expect_close(%{{.*}}, %{{.*}}) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%r#1, %x) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  // CHECK: "stablehlo.case"(%{{.*}}) ({
  %s = "stablehlo.case"(%n) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %r#1 : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  // CHECK: "stablehlo.sort"(%{{.*}}) <{dimension = 0 : i64, is_stable = true}> ({
  %t = "stablehlo.sort"(%s) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// CHECK-LABEL: func.func @misc
func.func @misc(%s: tensor<2xui64>, %x: tensor<8xf32>, %y: tensor<5x3xf32>) -> tensor<5xcomplex<f32>> {
  // CHECK: stablehlo.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %0, %1 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  // CHECK: stablehlo.fft %{{.*}}, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %2 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  // CHECK: chlo.top_k(%{{.*}}, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  %3, %4 = chlo.top_k(%y, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  // CHECK: stablehlo.replica_id : tensor<ui32>
  %5 = stablehlo.replica_id : tensor<ui32>
  return %2 : tensor<5xcomplex<f32>>
}
