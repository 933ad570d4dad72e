// Tests that the verifiers reject malformed ops with messages that name
// the problem.
// RUN: torus-opt %s -split-input-file -verify-diagnostics

func.func @dot_contracting_mismatch(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{contracting dimension sizes differ: lhs dimension 1 is 3 but rhs dimension 0 is 4 (lhs [4,3], rhs [4,2])}}
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @dot_bad_result(%a: tensor<4x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{result shape [2,4] should be [4,2]}}
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot_dim_out_of_range(%a: tensor<4x3xf32>, %b: tensor<3x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{lhs batching/contracting dimension 2 is out of range for rank 2}}
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [2] x [0] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @reduce_missing_dim(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{reduced dimension 2 is out of range for rank 2 (operand [4,3])}}
  %0 = torus.reduce sum %a, dims = [2] : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_wrong_result(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{result shape [3] should be [4]}}
  %0 = torus.reduce sum %a, dims = [1] : (tensor<4x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @broadcast_bad_size(%a: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand dimension 0 of size 3 cannot broadcast to result dimension 1 of size 4 (operand [3], result [2,4])}}
  %0 = torus.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @broadcast_rank(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{broadcast_dimensions has 2 entries but the operand [3] has rank 1}}
  %0 = torus.broadcast_in_dim %a, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape_count(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{cannot reshape [2,3] (6 elements) to [7] (7 elements)}}
  %0 = torus.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @transpose_not_permutation(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{permuted dimension 0 appears twice}}
  %0 = torus.transpose %a, permutation = [0, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// expected-note @+1 {{prior use here}}
func.func @add_mismatched(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses}}
  %0 = torus.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @exp_of_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or f8E4M3FN type or f8E5M2 type or complex type with 32-bit float elements or complex type with 64-bit float elements values}}
  %0 = torus.exp %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @dynamic_shape(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{must be statically shaped tensor}}
  %0 = torus.negate %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @overlapping_groups(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica 1 appears in more than one place in replica_groups}}
  %0 = torus.all_reduce sum %a {replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @groups_rank(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica_groups must be a 2-D tensor (one row per group), got rank 1}}
  %0 = torus.all_reduce sum %a {replica_groups = dense<[0, 1]> : tensor<2xi64>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_shape(%a: tensor<4xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = torus.compare EQ, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @unknown_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'comparison_direction' [EQ, NE, LT, LE, GT, GE]}}
  %0 = torus.compare XX, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @iota_dim(%a: tensor<2x3xf32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{iota_dimension 2 is out of range for the result [2,3] of rank 2}}
  %0 = torus.iota dim = 2 : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @broadcast_element_type(%a: tensor<3xf32>) -> tensor<2x3xf64> {
  // expected-error @+1 {{operand element type 'f32' differs from result element type 'f64'}}
  %0 = torus.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

func.func @transpose_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{result shape [2,3] should be [3,2]}}
  %0 = torus.transpose %a, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_bounds(%a: tensor<4x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{dimension 1: slice [2, 4) is not within [0, 3] (operand [4,3])}}
  %0 = torus.slice %a, start_indices = [0, 2], limit_indices = [2, 4], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @slice_stride(%a: tensor<4x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{dimension 0: stride 0 must be positive}}
  %0 = torus.slice %a, start_indices = [0, 0], limit_indices = [2, 2], strides = [0, 1] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @slice_rank(%a: tensor<4x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{start_indices has 1 entries but the operand [4,3] has rank 2}}
  %0 = torus.slice %a, start_indices = [0], limit_indices = [2, 2], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_result(%a: tensor<4x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{result shape [2,2] should be [1,2]}}
  %0 = torus.slice %a, start_indices = [0, 0], limit_indices = [2, 2], strides = [2, 1] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @dynamic_slice_count(%a: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{1 start indices for the operand [4,3] of rank 2}}
  %0 = torus.dynamic_slice %a[%i], sizes = [2, 2] : (tensor<4x3xf32>, tensor<i32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @dynamic_slice_size(%a: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{dimension 1: slice size 4 is not within [0, 3] (operand [4,3])}}
  %0 = torus.dynamic_slice %a[%i, %i], sizes = [2, 4] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dynamic_update_slice_size(%a: tensor<4x3xf32>, %u: tensor<5x1xf32>, %i: tensor<i32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{dimension 0: update [5,1] is larger than the operand [4,3]}}
  %0 = torus.dynamic_update_slice %a, %u[%i, %i] : (tensor<4x3xf32>, tensor<5x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @dynamic_update_slice_type(%a: tensor<4x3xf32>, %u: tensor<1x1xf64>, %i: tensor<i32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{update element type 'f64' differs from operand element type 'f32'}}
  %0 = torus.dynamic_update_slice %a, %u[%i, %i] : (tensor<4x3xf32>, tensor<1x1xf64>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concatenate_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{dimension 1: input 1 [2,4] differs from input 0 [2,3]}}
  %0 = torus.concatenate(%a, %b), dimension = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concatenate_dim(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{dimension 2 is out of range for rank 2}}
  %0 = torus.concatenate(%a), dimension = 2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concatenate_type(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{input 1 has element type 'i32' but the result has 'f32'}}
  %0 = torus.concatenate(%a, %b), dimension = 0 : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @pad_value_shape(%a: tensor<2x3xf32>, %v: tensor<1xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{padding_value must be a scalar, got shape [1]}}
  %0 = torus.pad %a, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @pad_interior(%a: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{interior padding of dimension 1 is -1; it must be at least 0}}
  %0 = torus.pad %a, %v, low = [0, 0], high = [0, 0], interior = [0, -1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @pad_negative_size(%a: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{dimension 0: padding (-2, -1, interior 0) leaves a negative size -1 (operand [2,3])}}
  %0 = torus.pad %a, %v, low = [-2, 0], high = [-1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reverse_dim(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{reversed dimension 2 is out of range for rank 2 (operand [2,3])}}
  %0 = torus.reverse %a, dims = [2] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduce_and_float(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'and' needs integer or i1 elements, got 'f32'}}
  %0 = torus.reduce and %a, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_sum_pred(%a: tensor<4x3xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{cannot sum-reduce an i1 tensor; convert it to an integer first}}
  %0 = torus.reduce sum %a, dims = [1] : (tensor<4x3xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @argmax_dim(%a: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // expected-error @+1 {{reduced dimension 2 is out of range for rank 2 (operand [4,3])}}
  %0:2 = torus.argmax %a, dimension = 2 : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

func.func @argmax_indices(%a: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<3xi32>) {
  // expected-error @+1 {{indices shape [3] should be [4]}}
  %0:2 = torus.argmax %a, dimension = 1 : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<3xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<3xi32>
}

// -----

func.func @reduce_window_rank(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{window_dimensions has 1 entries but the operand [4,4] has rank 2}}
  %0 = torus.reduce_window max %a, window = [2] : (tensor<4x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @reduce_window_stride(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{window stride 1 is 0; it must be at least 1}}
  %0 = torus.reduce_window max %a, window = [2, 2] {window_strides = array<i64: 2, 0>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @reduce_window_padding(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{padding must be a [rank, 2] tensor of (low, high) pairs, got shape [4]}}
  %0 = torus.reduce_window max %a, window = [2, 2] {padding = dense<0> : tensor<4xi64>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @reduce_window_result(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{result shape [2,2] should be [3,3]}}
  %0 = torus.reduce_window sum %a, window = [2, 2] : (tensor<4x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @conv_features(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{input feature dimension 3 has size 3, which is not the kernel's input feature size 4 times feature_group_count 1 (input [1,8,8,3], kernel [3,3,4,8])}}
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @conv_groups(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x5xf32>) -> tensor<1x6x6x5xf32> {
  // expected-error @+1 {{kernel output feature size 5 is not a multiple of feature_group_count 2 (kernel [3,3,2,5])}}
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x5xf32>) -> tensor<1x6x6x5xf32>
  return %0 : tensor<1x6x6x5xf32>
}

// -----

func.func @conv_result(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+1 {{result shape [1,8,8,8] should be [1,6,6,8]}}
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @conv_strides(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{window_strides has 3 entries for 2 spatial dimensions}}
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {window_strides = array<i64: 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @conv_types(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x8xf64>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{input and kernel element types differ: 'f32' and 'f64'}}
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x8xf64>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @conv_layout(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'b' appears twice}}
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, b, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @conv_spatial_numbering(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{spatial dimensions must be numbered 0 to 1, each once}}
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @gather_index_map(%t: tensor<10x4xf32>, %ids: tensor<3x2xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{start_index_map has 1 entries but the index vectors of the indices [3,2] (index_vector_dim 1) have 2}}
  %0 = torus.gather %t[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_collapsed(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{collapsed slice dimension 0 has slice size 2; it must be at most 1}}
  %0 = torus.gather %t[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [2, 4] : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_offset_dims(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{offset_dims has 2 entries but the slice keeps 1 dimensions (operand rank 2 minus 1 collapsed)}}
  %0 = torus.gather %t[%ids], offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_slice_size(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{slice size 5 of dimension 1 is not within [0, 4] (operand [10,4])}}
  %0 = torus.gather %t[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 5] : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @gather_result(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{result shape [4,3] should be [3,4]}}
  %0 = torus.gather %t[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @scatter_batch(%t: tensor<10x4xf32>, %ids: tensor<3xi32>, %u: tensor<2x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{update scatter dimension 0 of size 2 differs from the indices' batch dimension of size 3 (updates [2,4], indices [3])}}
  %0 = torus.scatter sum %t[%ids], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<2x4xf32>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

func.func @scatter_window(%t: tensor<10x4xf32>, %ids: tensor<3xi32>, %u: tensor<3x5xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{update window dimension 1 of size 5 is larger than operand dimension 1 of size 4 (updates [3,5], operand [10,4])}}
  %0 = torus.scatter sum %t[%ids], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x5xf32>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

func.func @scatter_rank(%t: tensor<10x4xf32>, %ids: tensor<3xi32>, %u: tensor<3xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{updates [3] should have rank 2: 1 scatter dimensions of the indices [3] plus 1 window dimensions}}
  %0 = torus.scatter sum %t[%ids], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3xf32>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

func.func @scatter_pred_sum(%t: tensor<10xi1>, %ids: tensor<3xi32>, %u: tensor<3xi1>) -> tensor<10xi1> {
  // expected-error @+1 {{cannot scatter-sum into an i1 tensor}}
  %0 = torus.scatter sum %t[%ids], %u, update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10xi1>, tensor<3xi32>, tensor<3xi1>) -> tensor<10xi1>
  return %0 : tensor<10xi1>
}

// -----

func.func @while_cond_type(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cond returns (tensor<f32>) but must return (tensor<i1>)}}
  %0 = torus.while(%a = %x) : tensor<f32> cond {
    torus.return %a : tensor<f32>
  } do {
    torus.return %a : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @while_body_type(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{body returns (tensor<i1>) but must return (tensor<f32>)}}
  %0 = torus.while(%a = %x) : tensor<f32> cond {
    torus.return %p : tensor<i1>
  } do {
    torus.return %p : tensor<i1>
  }
  return %0 : tensor<f32>
}

// -----

func.func @if_branch_types(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{false_branch returns (tensor<i1>) but must return (tensor<f32>)}}
  %0 = torus.if %p -> (tensor<f32>) {
    torus.return %x : tensor<f32>
  } else {
    torus.return %p : tensor<i1>
  }
  return %0 : tensor<f32>
}

// -----

func.func @case_branch_arguments(%x: tensor<f32>, %i: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{branch 1 takes no arguments, it has 1}}
  %0 = torus.case %i -> (tensor<f32>) {
    torus.return %x : tensor<f32>
  }, {
  ^bb0(%y: tensor<f32>):
    torus.return %y : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @return_outside(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expects parent op to be one of 'torus.while, torus.if, torus.case, torus.sort, torus.select_and_scatter, torus.reduce_general, torus.reduce_window_general'}}
  torus.return %x : tensor<f32>
}

// -----

func.func @call_unknown(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'nowhere' does not name a func.func in this module}}
  %0 = torus.call @nowhere(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @callee(%x: tensor<f32>) -> tensor<f32>

func.func @call_types(%x: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{callee @callee has type '(tensor<f32>) -> tensor<f32>', which does not match the call's operands and results}}
  %0 = torus.call @callee(%x) : (tensor<f64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

func.func @rng_state(%s: tensor<3xi64>) -> tensor<4xi32> {
  // expected-error @+1 {{initial_state must be tensor<2xi64>, got 'tensor<3xi64>'}}
  %0, %1 = torus.rng_bit_generator THREE_FRY %s : (tensor<3xi64>) -> (tensor<3xi64>, tensor<4xi32>)
  return %1 : tensor<4xi32>
}

// -----

func.func @select_pred_shape(%p: tensor<2xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{pred shape [2] must be [] or the result shape [4]}}
  %0 = torus.select %p, %a, %a : tensor<2xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_shape(%lo: tensor<2xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{min shape [2] must be [] or the operand shape [4]}}
  %0 = torus.clamp %lo, %a, %a : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @all_reduce_and(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{reduces with sum, product, max or min, not 'and'}}
  %0 = torus.all_reduce and %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @all_gather_groups(%a: tensor<2x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{result shape [8,4] should be [4,4]}}
  %0 = torus.all_gather %a, all_gather_dim = 0 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @all_gather_multiple(%a: tensor<2x4xf32>) -> tensor<5x4xf32> {
  // expected-error @+1 {{result dimension 0 must be a multiple of the operand's (operand [2,4], result [5,4])}}
  %0 = torus.all_gather %a, all_gather_dim = 0 : (tensor<2x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @reduce_scatter_split(%a: tensor<3x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{scatter dimension 0 of size 3 does not split into 2 equal blocks (operand [3,4])}}
  %0 = torus.reduce_scatter sum %a, scatter_dimension = 0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @all_to_all_count(%a: tensor<4x4xf32>) -> tensor<1x16xf32> {
  // expected-error @+1 {{split_count 4 differs from the replica group size 2}}
  %0 = torus.all_to_all %a, split_dimension = 0, concat_dimension = 1, split_count = 4 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4x4xf32>) -> tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}

// -----

func.func @all_to_all_split(%a: tensor<3x4xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{split dimension 0 of size 3 does not split into split_count 2 equal blocks (operand [3,4])}}
  %0 = torus.all_to_all %a, split_dimension = 0, concat_dimension = 1, split_count = 2 : (tensor<3x4xf32>) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @permute_target_twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica 1 is a target twice in source_target_pairs}}
  %0 = torus.collective_permute %a, source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @permute_pairs_shape(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{source_target_pairs must be an [n, 2] tensor of (source, target) rows, got shape [2,3]}}
  %0 = torus.collective_permute %a, source_target_pairs = dense<[[0, 1, 2], [2, 1, 0]]> : tensor<2x3xi64> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitcast_convert_width(%x: tensor<4xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{needs element types of one bit width, got 'f32' (32 bits) and 'i64' (64 bits)}}
  %0 = torus.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @compare_complex_lt(%a: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+1 {{compares complex numbers only with EQ and NE (complex numbers have no order), got LT}}
  %0 = torus.compare LT, %a, %a : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @reduce_precision_no_exponent(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{needs exponent_bits >= 1, got 0}}
  %0 = torus.reduce_precision %x, exponent_bits = 0, mantissa_bits = 7 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @maximum_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or f8E4M3FN type or f8E5M2 type or 1-bit signless integer or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values}}
  %0 = torus.maximum %a, %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @abs_complex_result(%a: tensor<4xcomplex<f32>>) -> tensor<4xf64> {
  // expected-error @+1 {{result type 'tensor<4xf64>' should be 'tensor<4xf32>' (the operand's shape, the part type of its complex elements)}}
  %0 = torus.abs %a : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @real_of_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or f8E4M3FN type or f8E5M2 type or complex type with 32-bit float elements or complex type with 64-bit float elements values}}
  %0 = torus.real %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @complex_result(%a: tensor<4xf32>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{result type 'tensor<4xcomplex<f64>>' should be 'tensor<4xcomplex<f32>>' (the operands' shape, complex of their element type)}}
  %0 = torus.complex %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

func.func @reduce_max_complex(%a: tensor<4xcomplex<f32>>) -> tensor<complex<f32>> {
  // expected-error @+1 {{cannot max-reduce complex numbers ('complex<f32>'): they reduce by sum and product only}}
  %0 = torus.reduce max %a, dims = [0] : (tensor<4xcomplex<f32>>) -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}
