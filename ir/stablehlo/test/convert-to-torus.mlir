// Tests that torus-convert-stablehlo turns stablehlo ops into their torus
// equivalents: generic ops one to one, reducers into kinds, regions moved.
// RUN: torus-opt %s --torus-convert-stablehlo --split-input-file | FileCheck %s

// CHECK-LABEL: module @counts attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 4 : i64}
module @counts attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 4 : i32} {
  // CHECK: func.func @elementwise
  func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
    // CHECK: %[[S:.*]] = torus.add %{{.*}}, %{{.*}} : tensor<4xf32>
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    // CHECK: %[[E:.*]] = torus.expm1 %[[S]] : tensor<4xf32>
    %1 = stablehlo.exponential_minus_one %0 : tensor<4xf32>
    // CHECK: torus.compare LT, %[[E]], %{{.*}} {total_order} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %2 = stablehlo.compare  LT, %1, %b,  TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    return %2 : tensor<4xi1>
  }
}

// -----

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<4x6xf32>) -> (tensor<4xf32>, tensor<3x5xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  // CHECK: %[[R:.*]] = torus.reduce sum %{{.*}}, dims = [1] : (tensor<4x6xf32>) -> tensor<4xf32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  // An init value other than the identity is added once per window.
  // CHECK: %[[W:.*]] = torus.reduce_window sum %{{.*}}, window = [2, 2] : (tensor<4x6xf32>) -> tensor<3x5xf32>
  // CHECK: %[[B:.*]] = torus.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
  // CHECK: torus.add %[[W]], %[[B]] : tensor<3x5xf32>
  %1 = "stablehlo.reduce_window"(%x, %one) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32>
  return %0, %1 : tensor<4xf32>, tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @control
func.func @control(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: torus.while(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : tensor<i32>, tensor<4xf32> cond {
  // CHECK: torus.compare GT
  // CHECK: torus.return %{{.*}} : tensor<i1>
  // CHECK: } do {
  // CHECK: torus.return %{{.*}}, %{{.*}} : tensor<i32>, tensor<4xf32>
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
  // The test suite's checks are dropped.
  // CHECK-NOT: custom_call
  stablehlo.custom_call @check.expect_close(%r#1, %x) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  // CHECK: torus.call @helper(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %h = call @helper(%r#1) : (tensor<4xf32>) -> tensor<4xf32>
  return %h : tensor<4xf32>
}
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @indexing
func.func @indexing(%t: tensor<10x5xf32>, %ids: tensor<3x1xi32>, %u: tensor<3x5xf32>)
    -> (tensor<3x5xf32>, tensor<10x5xf32>) {
  // CHECK: torus.gather %{{.*}}[%{{.*}}], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 5]
  %0 = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>}> : (tensor<10x5xf32>, tensor<3x1xi32>) -> tensor<3x5xf32>
  // CHECK: torus.scatter replace %{{.*}}[%{{.*}}], %{{.*}}, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {unique_indices}
  %1 = "stablehlo.scatter"(%t, %ids, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<10x5xf32>, tensor<3x1xi32>, tensor<3x5xf32>) -> tensor<10x5xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<10x5xf32>
}

// -----

// chlo functions without a torus op are expanded as CHLO's decomposition
// does; cosh of f16 is computed in f32.
// CHECK-LABEL: func.func @chlo
func.func @chlo(%x: tensor<4xf16>, %y: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  // CHECK: %[[W:.*]] = torus.convert %{{.*}} : (tensor<4xf16>) -> tensor<4xf32>
  // CHECK: %[[C:.*]] = torus.constant dense<-0.693147182> : tensor<4xf32>
  // CHECK: %[[A:.*]] = torus.add %[[W]], %[[C]] : tensor<4xf32>
  // CHECK: %[[E1:.*]] = torus.exp %[[A]] : tensor<4xf32>
  // CHECK: %[[S:.*]] = torus.subtract %[[C]], %[[W]] : tensor<4xf32>
  // CHECK: %[[E2:.*]] = torus.exp %[[S]] : tensor<4xf32>
  // CHECK: %[[R:.*]] = torus.add %[[E1]], %[[E2]] : tensor<4xf32>
  // CHECK: torus.convert %[[R]] : (tensor<4xf32>) -> tensor<4xf16>
  %0 = chlo.cosh %x : tensor<4xf16> -> tensor<4xf16>
  // next_after steps the bits: integer ops on the bitcast operands.
  // CHECK: torus.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: torus.bitcast_convert %{{.*}} : (tensor<4xi32>) -> tensor<4xf32>
  %1 = chlo.next_after %y, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xf16>, tensor<4xf32>
}

// -----

// Complex asin is expanded on the parts (Hull et al.'s algorithm as the
// CHLO decomposition writes it): atan2(x, d) and a log1p, joined again.
// CHECK-LABEL: func.func @complex_asin
func.func @complex_asin(%z: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  // CHECK: %[[X:.*]] = torus.real %arg0 : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  // CHECK: %[[Y:.*]] = torus.imag %arg0 : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  // CHECK: torus.maximum
  // CHECK: torus.log1p
  // CHECK: %[[RE:.*]] = torus.atan2 %[[X]], %{{.*}} : tensor<4xf64>
  // CHECK: torus.complex %[[RE]], %{{.*}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
  %0 = chlo.asin %z : tensor<4xcomplex<f64>> -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

// Batching dimensions (take_along_axis) become one more index, an iota
// along the indices' batching dimension, and a collapsed dimension.
// CHECK-LABEL: func.func @batching
func.func @batching(%t: tensor<8x4xf32>, %i: tensor<8x1xi32>) -> tensor<8x1xf32> {
  // CHECK: %[[IOTA:.*]] = torus.iota dim = 0 : tensor<8x1xi32>
  // CHECK: %[[IDX:.*]] = torus.concatenate(%{{.*}}, %[[IOTA]]), dimension = 1 : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
  // CHECK: torus.gather %{{.*}}[%[[IDX]]], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1, slice_sizes = [1, 1]
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<8x4xf32>, tensor<8x1xi32>) -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}

// -----

// lgamma: Lanczos's approximation (the sum starts from 676.52.../(z + 1)),
// reflected below 1/2.
// CHECK-LABEL: func.func @special
func.func @special(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: torus.constant dense<5.000000e-01> : tensor<4xf32>
  // CHECK: torus.compare LT
  // CHECK: torus.constant dense<676.520386> : tensor<4xf32>
  // CHECK: torus.sin
  // CHECK: torus.is_finite
  %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// fft and triangular_solve map one to one, their enums by name.
// CHECK-LABEL: func.func @fft
func.func @fft(%x: tensor<3x0x8xf32>) -> tensor<3x0x5xcomplex<f32>> {
  // CHECK: torus.fft %arg0, type = RFFT, length = [8] : (tensor<3x0x8xf32>) -> tensor<3x0x5xcomplex<f32>>
  %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<3x0x8xf32>) -> tensor<3x0x5xcomplex<f32>>
  return %0 : tensor<3x0x5xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @triangular_solve
func.func @triangular_solve(%a: tensor<4x4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // CHECK: torus.triangular_solve %arg0, %arg1, left_side = true, lower = true, unit_diagonal = false, transpose_a = TRANSPOSE
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A reducer that is not one kind keeps its body: reduce_general.
// CHECK-LABEL: func.func @reduce_general
func.func @reduce_general(%x: tensor<4xf32>) -> tensor<f32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: torus.reduce_general(%arg0) init(%{{.*}}) dims = [0]
  // CHECK: torus.subtract
  // CHECK: torus.return
  %0 = stablehlo.reduce(%x init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// chlo.square is x * x; JAX's argmax of booleans keeps its reducer body
// (torus.argmax takes numbers).
// CHECK-LABEL: func.func @square_and_bool_argmax
func.func @square_and_bool_argmax(%x: tensor<4xcomplex<f32>>, %p: tensor<4xi1>) -> (tensor<4xcomplex<f32>>, tensor<i1>, tensor<i32>) {
  // CHECK: torus.multiply %arg0, %arg0 : tensor<4xcomplex<f32>>
  %0 = chlo.square %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %z = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: torus.reduce_general
  // CHECK-NOT: torus.argmax
  %1:2 = stablehlo.reduce(%p init: %f), (%i init: %z) across dimensions = [0] : (tensor<4xi1>, tensor<4xi32>, tensor<i1>, tensor<i32>) -> (tensor<i1>, tensor<i32>)
   reducer(%a: tensor<i1>, %b: tensor<i1>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %gt = stablehlo.compare  GT, %a, %b,  UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %ne = stablehlo.compare  NE, %a, %a,  UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %o = stablehlo.or %gt, %ne : tensor<i1>
    %eq = stablehlo.compare  EQ, %a, %b,  UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %lt = stablehlo.compare  LT, %ai, %bi,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %and = stablehlo.and %eq, %lt : tensor<i1>
    %o2 = stablehlo.or %o, %and : tensor<i1>
    %v = stablehlo.select %o, %a, %b : tensor<i1>, tensor<i1>
    %j = stablehlo.select %o2, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<i1>, tensor<i32>
  }
  return %0, %1#0, %1#1 : tensor<4xcomplex<f32>>, tensor<i1>, tensor<i32>
}

// -----

// A call inside a reducer is inlined (JAX's cumulative logsumexp calls its
// logaddexp); the callee stays for any other caller.
// CHECK-LABEL: func.func @reducer_with_call
func.func @reducer_with_call(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: torus.reduce_window_general
  // CHECK-NOT: call
  // CHECK: torus.subtract
  // CHECK: torus.return
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[7, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 8>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %d = func.call @sub(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %d : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @sub(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %s = stablehlo.subtract %a, %b : tensor<f32>
  return %s : tensor<f32>
}
