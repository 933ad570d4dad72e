// Tests that the verifiers of sort, top_k and select_and_scatter reject
// malformed ops with messages that name the problem.
// RUN: torus-opt %s -split-input-file -verify-diagnostics

func.func @sort_shapes_differ(%a: tensor<4xf32>, %b: tensor<5xi32>) -> (tensor<4xf32>, tensor<5xi32>) {
  // expected-error @+1 {{operands must have one shape: operand 1 is [5], operand 0 [4]}}
  %0:2 = torus.sort(%a, %b) dimension = 0 : (tensor<4xf32>, tensor<5xi32>) -> (tensor<4xf32>, tensor<5xi32>) {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %u: tensor<i32>, %v: tensor<i32>):
    %lt = torus.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<5xi32>
}

// -----

func.func @sort_dimension(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{dimension 1 is out of range for rank 1}}
  %0 = torus.sort(%a) dimension = 1 : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = torus.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_result_type(%a: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{result 0 must have its operand's type 'tensor<4xf32>', not 'tensor<4xf64>'}}
  %0 = torus.sort(%a) dimension = 0 : (tensor<4xf32>) -> tensor<4xf64> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = torus.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0 : tensor<4xf64>
}

// -----

func.func @sort_comparator_arity(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'comparator' takes 2 scalars, not 1}}
  %0 = torus.sort(%a) dimension = 0 : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>):
    %lt = torus.compare LT, %x, %x : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_comparator_argument_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'comparator' argument 1 must be 'tensor<f32>', not 'tensor<i32>'}}
  %0 = torus.sort(%a) dimension = 0 : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<i32>):
    %lt = torus.compare LT, %x, %x : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_comparator_returns_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'comparator' must return one 'tensor<i1>'}}
  %0 = torus.sort(%a) dimension = 0 : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    torus.return %x : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_comparator_not_elementwise(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'comparator' may hold only elementwise ops and constants on scalars, not 'torus.reshape'}}
  %0 = torus.sort(%a) dimension = 0 : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = torus.reshape %x : (tensor<f32>) -> tensor<f32>
    %lt = torus.compare LT, %r, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %lt : tensor<i1>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @top_k_too_many(%a: tensor<5x3xf32>) -> (tensor<5x4xf32>, tensor<5x4xi32>) {
  // expected-error @+1 {{k = 4 must be in [0, 3], the last dimension}}
  %v, %i = torus.top_k %a, k = 4 : (tensor<5x3xf32>) -> (tensor<5x4xf32>, tensor<5x4xi32>)
  return %v, %i : tensor<5x4xf32>, tensor<5x4xi32>
}

// -----

func.func @top_k_index_type(%a: tensor<5x3xf32>) -> (tensor<5x2xf32>, tensor<5x2xi64>) {
  // expected-error @+1 {{indices must be 'tensor<5x2xi32>', not 'tensor<5x2xi64>'}}
  %v, %i = torus.top_k %a, k = 2 : (tensor<5x3xf32>) -> (tensor<5x2xf32>, tensor<5x2xi64>)
  return %v, %i : tensor<5x2xf32>, tensor<5x2xi64>
}

// -----

func.func @top_k_scalar(%a: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  // expected-error @+1 {{needs an operand of rank 1 or more}}
  %v, %i = torus.top_k %a, k = 0 : (tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return %v, %i : tensor<f32>, tensor<i32>
}

// -----

func.func @select_and_scatter_source_shape(%x: tensor<4x4xf32>, %s: tensor<3x2xf32>, %z: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{source must have one element per window, shape [2,2], not [3,2]}}
  %0 = torus.select_and_scatter %x, %s, %z, window = [2, 2] {window_strides = array<i64: 2, 2>}
       : (tensor<4x4xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = torus.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = torus.add %a, %b : tensor<f32>
    torus.return %r : tensor<f32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

func.func @select_and_scatter_init(%x: tensor<4x4xf32>, %s: tensor<2x2xf32>, %z: tensor<i32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{init_value must be a scalar of the operand's element type, 'tensor<f32>', not 'tensor<i32>'}}
  %0 = torus.select_and_scatter %x, %s, %z, window = [2, 2] {window_strides = array<i64: 2, 2>}
       : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i32>) -> tensor<4x4xf32>
  select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = torus.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = torus.add %a, %b : tensor<f32>
    torus.return %r : tensor<f32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

func.func @select_and_scatter_select_returns(%x: tensor<4x4xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'select' must return one 'tensor<i1>'}}
  %0 = torus.select_and_scatter %x, %s, %z, window = [2, 2] {window_strides = array<i64: 2, 2>}
       : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    torus.return %a : tensor<f32>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = torus.add %a, %b : tensor<f32>
    torus.return %r : tensor<f32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

func.func @select_and_scatter_window_rank(%x: tensor<4x4xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{window_dimensions}}
  %0 = torus.select_and_scatter %x, %s, %z, window = [2]
       : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = torus.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    torus.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = torus.add %a, %b : tensor<f32>
    torus.return %r : tensor<f32>
  }
  return %0 : tensor<4x4xf32>
}
