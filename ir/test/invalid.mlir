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
  // expected-error @+1 {{must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
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
