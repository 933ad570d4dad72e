// Tests that every torus op parses, verifies and prints back the same.
// RUN: torus-opt %s | torus-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: torus.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %0 = torus.add %a, %b : tensor<2x3xf32>
  // CHECK: torus.subtract
  %1 = torus.subtract %0, %b : tensor<2x3xf32>
  // CHECK: torus.multiply
  %2 = torus.multiply %1, %a : tensor<2x3xf32>
  // CHECK: torus.divide
  %3 = torus.divide %2, %b : tensor<2x3xf32>
  // CHECK: torus.maximum
  %4 = torus.maximum %3, %a : tensor<2x3xf32>
  // CHECK: torus.negate %{{.*}} : tensor<2x3xf32>
  %5 = torus.negate %4 : tensor<2x3xf32>
  // CHECK: torus.exp
  %6 = torus.exp %5 : tensor<2x3xf32>
  // CHECK: torus.log
  %7 = torus.log %6 : tensor<2x3xf32>
  // CHECK: torus.compare LT, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %p = torus.compare LT, %7, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: torus.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xi1>, tensor<2x3xf32>
  %8 = torus.select %p, %7, %a : tensor<2x3xi1>, tensor<2x3xf32>
  return %8 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%v: tensor<3xf32>, %m: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xi32>) {
  // CHECK: torus.constant dense<1.500000e+00> : tensor<f32>
  %c = torus.constant dense<1.5> : tensor<f32>
  // CHECK: torus.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %0 = torus.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: torus.transpose %{{.*}}, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = torus.transpose %m, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: torus.reshape %{{.*}} : (tensor<2x3xf32>) -> tensor<6xf32>
  %2 = torus.reshape %m : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK: torus.convert %{{.*}} : (tensor<6xf32>) -> tensor<6xi32>
  %3 = torus.convert %2 : (tensor<6xf32>) -> tensor<6xi32>
  %s = torus.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %4 = torus.add %0, %s : tensor<2x3xf32>
  return %4, %1, %3 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xi32>
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<4x2x8xf32>, %b: tensor<4x8x5xf32>) -> (tensor<4x2x5xf32>, tensor<4xf32>) {
  // CHECK: torus.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x8xf32>, tensor<4x8x5xf32>) -> tensor<4x2x5xf32>
  %0 = torus.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x8xf32>, tensor<4x8x5xf32>) -> tensor<4x2x5xf32>
  // CHECK: torus.reduce max %{{.*}}, dims = [1, 2] : (tensor<4x2x5xf32>) -> tensor<4xf32>
  %1 = torus.reduce max %0, dims = [1, 2] : (tensor<4x2x5xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4x2x5xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @replicas
func.func @replicas(%g: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i32>) {
  // CHECK: torus.all_reduce sum %{{.*}} : tensor<8xf32>
  %0 = torus.all_reduce sum %g : tensor<8xf32>
  // CHECK: torus.all_reduce min %{{.*}} {replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<8xf32>
  %1 = torus.all_reduce min %g {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<8xf32>
  // CHECK: torus.replica_id : tensor<i32>
  %2 = torus.replica_id : tensor<i32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%f: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: torus.abs %{{.*}} : tensor<4xf32>
  %0 = torus.abs %f : tensor<4xf32>
  // CHECK: torus.sign %{{.*}} : tensor<4xf32>
  %1 = torus.sign %0 : tensor<4xf32>
  // CHECK: torus.expm1
  %2 = torus.expm1 %1 : tensor<4xf32>
  // CHECK: torus.log1p
  %3 = torus.log1p %2 : tensor<4xf32>
  // CHECK: torus.sqrt
  %4 = torus.sqrt %3 : tensor<4xf32>
  // CHECK: torus.rsqrt
  %5 = torus.rsqrt %4 : tensor<4xf32>
  // CHECK: torus.tanh
  %6 = torus.tanh %5 : tensor<4xf32>
  // CHECK: torus.logistic
  %7 = torus.logistic %6 : tensor<4xf32>
  // CHECK: torus.sin
  %8 = torus.sin %7 : tensor<4xf32>
  // CHECK: torus.cos
  %9 = torus.cos %8 : tensor<4xf32>
  // CHECK: torus.floor
  %10 = torus.floor %9 : tensor<4xf32>
  // CHECK: torus.ceil
  %11 = torus.ceil %10 : tensor<4xf32>
  // CHECK: torus.round_nearest_even
  %12 = torus.round_nearest_even %11 : tensor<4xf32>
  // CHECK: torus.abs %{{.*}} : tensor<4xi32>
  %13 = torus.abs %i : tensor<4xi32>
  // CHECK: torus.not %{{.*}} : tensor<4xi32>
  %14 = torus.not %13 : tensor<4xi32>
  // CHECK: torus.not %{{.*}} : tensor<4xi1>
  %15 = torus.not %p : tensor<4xi1>
  // CHECK: torus.is_finite %{{.*}} : (tensor<4xf32>) -> tensor<4xi1>
  %16 = torus.is_finite %12 : (tensor<4xf32>) -> tensor<4xi1>
  return %12, %14, %15, %16 : tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4xf64>, %b: tensor<4xf64>, %i: tensor<4xi64>, %p: tensor<4xi1>) -> (tensor<4xf64>, tensor<4xi64>, tensor<4xi1>) {
  // CHECK: torus.remainder %{{.*}}, %{{.*}} : tensor<4xf64>
  %0 = torus.remainder %a, %b : tensor<4xf64>
  // CHECK: torus.power
  %1 = torus.power %0, %b : tensor<4xf64>
  // CHECK: torus.minimum
  %2 = torus.minimum %1, %a : tensor<4xf64>
  // CHECK: torus.atan2
  %3 = torus.atan2 %2, %b : tensor<4xf64>
  // CHECK: torus.power %{{.*}}, %{{.*}} : tensor<4xi64>
  %4 = torus.power %i, %i : tensor<4xi64>
  // CHECK: torus.and
  %5 = torus.and %4, %i : tensor<4xi64>
  // CHECK: torus.or
  %6 = torus.or %5, %i : tensor<4xi64>
  // CHECK: torus.xor
  %7 = torus.xor %6, %i : tensor<4xi64>
  // CHECK: torus.xor %{{.*}}, %{{.*}} : tensor<4xi1>
  %8 = torus.xor %p, %p : tensor<4xi1>
  return %3, %7, %8 : tensor<4xf64>, tensor<4xi64>, tensor<4xi1>
}

// CHECK-LABEL: func.func @select_clamp
func.func @select_clamp(%p: tensor<i1>, %a: tensor<3xbf16>, %b: tensor<3xbf16>, %lo: tensor<bf16>) -> tensor<3xbf16> {
  // CHECK: torus.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<3xbf16>
  %0 = torus.select %p, %a, %b : tensor<i1>, tensor<3xbf16>
  // CHECK: torus.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<bf16>, tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
  %1 = torus.clamp %lo, %0, %b : (tensor<bf16>, tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
  return %1 : tensor<3xbf16>
}

// CHECK-LABEL: func.func @more_shapes
func.func @more_shapes(%x: tensor<4x6xf32>, %i: tensor<i32>, %j: tensor<i64>, %u: tensor<2x3xf32>, %z: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x6xf32>, tensor<6x6xf32>, tensor<6x12xf32>, tensor<4x6xf32>, tensor<4x6xi32>) {
  // CHECK: torus.slice %{{.*}}, start_indices = [0, 1], limit_indices = [4, 6], strides = [2, 2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %0 = torus.slice %x, start_indices = [0, 1], limit_indices = [4, 6], strides = [2, 2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  // CHECK: torus.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}], sizes = [2, 2] : (tensor<4x6xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
  %1 = torus.dynamic_slice %x[%i, %j], sizes = [2, 2] : (tensor<4x6xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
  // CHECK: torus.dynamic_update_slice %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  %2 = torus.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  %s = torus.slice %x, start_indices = [0, 0], limit_indices = [2, 6], strides = [1, 1] : (tensor<4x6xf32>) -> tensor<2x6xf32>
  // CHECK: torus.concatenate(%{{.*}}, %{{.*}}), dimension = 0 : (tensor<4x6xf32>, tensor<2x6xf32>) -> tensor<6x6xf32>
  %3 = torus.concatenate(%x, %s), dimension = 0 : (tensor<4x6xf32>, tensor<2x6xf32>) -> tensor<6x6xf32>
  // CHECK: torus.pad %{{.*}}, %{{.*}}, low = [1, -1], high = [1, 2], interior = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x12xf32>
  %4 = torus.pad %x, %z, low = [1, -1], high = [1, 2], interior = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x12xf32>
  // CHECK: torus.reverse %{{.*}}, dims = [0, 1] : tensor<4x6xf32>
  %5 = torus.reverse %x, dims = [0, 1] : tensor<4x6xf32>
  // CHECK: torus.iota dim = 1 : tensor<4x6xi32>
  %6 = torus.iota dim = 1 : tensor<4x6xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x6xf32>, tensor<6x6xf32>, tensor<6x12xf32>, tensor<4x6xf32>, tensor<4x6xi32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x8x8x3xf32>, %b: tensor<4x5xi1>) -> (tensor<2x4x4x3xf32>, tensor<2xf32>, tensor<2xi32>, tensor<4xi1>) {
  // CHECK: torus.reduce_window max %{{.*}}, window = [1, 3, 3, 1] {padding = dense<{{\[\[}}0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32>
  %0 = torus.reduce_window max %x, window = [1, 3, 3, 1] {window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32>
  %r = torus.reshape %x : (tensor<2x8x8x3xf32>) -> tensor<2x192xf32>
  // CHECK: torus.argmin %{{.*}}, dimension = 1 : (tensor<2x192xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  %1:2 = torus.argmin %r, dimension = 1 : (tensor<2x192xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  // CHECK: torus.reduce or %{{.*}}, dims = [1] : (tensor<4x5xi1>) -> tensor<4xi1>
  %2 = torus.reduce or %b, dims = [1] : (tensor<4x5xi1>) -> tensor<4xi1>
  return %0, %1#0, %1#1, %2 : tensor<2x4x4x3xf32>, tensor<2xf32>, tensor<2xi32>, tensor<4xi1>
}

// CHECK-LABEL: func.func @convolution
func.func @convolution(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x6xf32>, %n: tensor<2x3x9x9xf64>, %k: tensor<5x3x3x3xf64>) -> (tensor<1x4x4x6xf32>, tensor<2x5x4x4xf64>) {
  // CHECK: torus.convolution %{{.*}}, %{{.*}}, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {feature_group_count = 2 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x4x4x6xf32>
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {window_strides = array<i64: 2, 2>, padding = dense<1> : tensor<2x2xi64>, feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x4x4x6xf32>
  // NCHW input, OIHW kernel, with dilations.
  // CHECK: torus.convolution %{{.*}}, %{{.*}}, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 2, 2>, window_strides = array<i64: 1, 1>}
  %1 = torus.convolution %n, %k, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {window_strides = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 2, 2>} : (tensor<2x3x9x9xf64>, tensor<5x3x3x3xf64>) -> tensor<2x5x5x5xf64>
  %2 = torus.slice %1, start_indices = [0, 0, 0, 0], limit_indices = [2, 5, 4, 4], strides = [1, 1, 1, 1] : (tensor<2x5x5x5xf64>) -> tensor<2x5x4x4xf64>
  return %0, %2 : tensor<1x4x4x6xf32>, tensor<2x5x4x4xf64>
}

// CHECK-LABEL: func.func @indexing
func.func @indexing(%table: tensor<10x4xf32>, %ids: tensor<3xi32>, %rows: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<10x4xf32>) {
  // CHECK: torus.gather %{{.*}}[%{{.*}}], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] {indices_are_sorted} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  %0 = torus.gather %table[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] {indices_are_sorted} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  // CHECK: torus.scatter replace %{{.*}}[%{{.*}}], %{{.*}}, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<10x4xf32>
  %1 = torus.scatter replace %table[%ids], %rows, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<10x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<10x4xf32>
}

func.func private @square(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.multiply %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @control_flow
func.func @control_flow(%x: tensor<4xf32>, %n: tensor<i32>, %p: tensor<i1>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = torus.constant dense<0> : tensor<i32>
  %one = torus.constant dense<1> : tensor<i32>
  // CHECK: %{{.*}}:2 = torus.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}) : tensor<i32>, tensor<4xf32> cond {
  // CHECK:   torus.compare LT, %[[I]], %{{.*}}
  // CHECK:   torus.return %{{.*}} : tensor<i1>
  // CHECK: } do {
  // CHECK:   torus.add %[[I]], %{{.*}}
  // CHECK:   torus.call @square(%[[V]]) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK:   torus.return %{{.*}}, %{{.*}} : tensor<i32>, tensor<4xf32>
  %r:2 = torus.while(%i = %zero, %v = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %c = torus.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      torus.return %c : tensor<i1>
    } do {
      %i1 = torus.add %i, %one : tensor<i32>
      %v1 = torus.call @square(%v) : (tensor<4xf32>) -> tensor<4xf32>
      torus.return %i1, %v1 : tensor<i32>, tensor<4xf32>
    }
  // CHECK: torus.if %{{.*}} -> (tensor<4xf32>) {
  // CHECK: } else {
  %f = torus.if %p -> (tensor<4xf32>) {
    torus.return %x : tensor<4xf32>
  } else {
    %neg = torus.negate %x : tensor<4xf32>
    torus.return %neg : tensor<4xf32>
  }
  // CHECK: torus.case %{{.*}} -> (tensor<4xf32>) {
  // CHECK: }, {
  %g = torus.case %n -> (tensor<4xf32>) {
    torus.return %x : tensor<4xf32>
  }, {
    %e = torus.exp %x : tensor<4xf32>
    torus.return %e : tensor<4xf32>
  }
  return %r#0, %r#1, %f, %g : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @random_and_collectives
func.func @random_and_collectives(%s: tensor<2xi64>, %x: tensor<2x4xf32>) -> (tensor<2xi64>, tensor<3x3xi32>, tensor<i32>, tensor<8x4xf32>, tensor<1x4xf32>, tensor<8x1xf32>, tensor<2x4xf32>) {
  // CHECK: %{{.*}}, %{{.*}} = torus.rng_bit_generator THREE_FRY %{{.*}} : (tensor<2xi64>) -> (tensor<2xi64>, tensor<3x3xi32>)
  %s1, %bits = torus.rng_bit_generator THREE_FRY %s : (tensor<2xi64>) -> (tensor<2xi64>, tensor<3x3xi32>)
  // CHECK: torus.partition_id : tensor<i32>
  %pid = torus.partition_id : tensor<i32>
  // CHECK: torus.all_gather %{{.*}}, all_gather_dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf32>
  %0 = torus.all_gather %x, all_gather_dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf32>
  // CHECK: torus.reduce_scatter sum %{{.*}}, scatter_dimension = 0 {replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<1x4xf32>
  %1 = torus.reduce_scatter sum %x, scatter_dimension = 0 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<1x4xf32>
  // CHECK: torus.all_to_all %{{.*}}, split_dimension = 1, concat_dimension = 0, split_count = 4 : (tensor<2x4xf32>) -> tensor<8x1xf32>
  %2 = torus.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4 : (tensor<2x4xf32>) -> tensor<8x1xf32>
  // CHECK: torus.collective_permute %{{.*}}, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64> : tensor<2x4xf32>
  %3 = torus.collective_permute %x, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64> : tensor<2x4xf32>
  return %s1, %bits, %pid, %0, %1, %2, %3 : tensor<2xi64>, tensor<3x3xi32>, tensor<i32>, tensor<8x4xf32>, tensor<1x4xf32>, tensor<8x1xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @conv_attribute
// CHECK-SAME: attributes {dims = #torus.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>}
func.func @conv_attribute() attributes {dims = #torus.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>} {
  return
}

// CHECK-LABEL: func.func @bits_and_special_functions
func.func @bits_and_special_functions(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // CHECK: torus.cbrt %{{.*}} : tensor<4xf32>
  %0 = torus.cbrt %x : tensor<4xf32>
  // CHECK: torus.erf
  %1 = torus.erf %0 : tensor<4xf32>
  // CHECK: torus.round_nearest_afz
  %2 = torus.round_nearest_afz %1 : tensor<4xf32>
  // CHECK: torus.reduce_precision %{{.*}}, exponent_bits = 8, mantissa_bits = 7 : tensor<4xf32>
  %3 = torus.reduce_precision %2, exponent_bits = 8, mantissa_bits = 7 : tensor<4xf32>
  // CHECK: torus.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %4 = torus.bitcast_convert %3 : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: torus.shift_left %{{.*}}, %{{.*}} : tensor<4xi32>
  %5 = torus.shift_left %4, %i : tensor<4xi32>
  // CHECK: torus.shift_right_arithmetic
  %6 = torus.shift_right_arithmetic %5, %i : tensor<4xi32>
  // CHECK: torus.shift_right_logical
  %7 = torus.shift_right_logical %6, %i : tensor<4xi32>
  // CHECK: torus.popcnt %{{.*}} : tensor<4xi32>
  %8 = torus.popcnt %7 : tensor<4xi32>
  // CHECK: torus.count_leading_zeros %{{.*}} : tensor<4xi32>
  %9 = torus.count_leading_zeros %8 : tensor<4xi32>
  return %3, %9 : tensor<4xf32>, tensor<4xi32>
}
