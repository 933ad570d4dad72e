// Tests that the verifiers of reduce_general and reduce_window_general
// reject malformed ops with messages that name the problem.
// RUN: torus-opt %s -split-input-file -verify-diagnostics

func.func @shapes_differ(%a: tensor<4x2xf32>, %b: tensor<4x3xi32>, %a0: tensor<f32>, %b0: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // expected-error @+1 {{inputs must have one shape: input 1 is [4,3], input 0 [4,2]}}
  %0:2 = torus.reduce_general(%a, %b) init(%a0, %b0) dims = [1] : (tensor<4x2xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%x: tensor<f32>, %xi: tensor<i32>, %y: tensor<f32>, %yi: tensor<i32>):
    torus.return %x, %xi : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

func.func @init_not_scalar(%a: tensor<4x2xf32>, %a0: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{init value 0 must be 'tensor<f32>', not 'tensor<2xf32>'}}
  %0 = torus.reduce_general(%a) init(%a0) dims = [1] : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    torus.return %x : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_dimension(%a: tensor<4x2xf32>, %a0: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{dimension 2}}
  %0 = torus.reduce_general(%a) init(%a0) dims = [2] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    torus.return %x : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_result(%a: tensor<4x2xf32>, %a0: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{result}}
  %0 = torus.reduce_general(%a) init(%a0) dims = [1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    torus.return %x : tensor<f32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @body_returns_too_few(%a: tensor<4x2xf32>, %b: tensor<4x2xi32>, %a0: tensor<f32>, %b0: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // expected-error @+1 {{'body' must return ('tensor<f32>', 'tensor<i32>')}}
  %0:2 = torus.reduce_general(%a, %b) init(%a0, %b0) dims = [1] : (tensor<4x2xf32>, tensor<4x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%x: tensor<f32>, %xi: tensor<i32>, %y: tensor<f32>, %yi: tensor<i32>):
    torus.return %x : tensor<f32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

func.func @body_not_scalar(%a: tensor<4x2xf32>, %a0: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'body' may hold only elementwise ops and constants on scalars, not 'torus.reshape'}}
  %0 = torus.reduce_general(%a) init(%a0) dims = [1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = torus.reshape %x : (tensor<f32>) -> tensor<f32>
    torus.return %r : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @window_too_large(%a: tensor<4x2xf32>, %a0: tensor<f32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{window}}
  %0 = torus.reduce_window_general(%a) init(%a0) window = [1, 3] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    torus.return %x : tensor<f32>
  }
  return %0 : tensor<4x2xf32>
}

// -----

func.func @window_arguments(%a: tensor<4x2xf32>, %a0: tensor<f32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'body' argument 1 must be 'tensor<f32>', not 'tensor<f64>'}}
  %0 = torus.reduce_window_general(%a) init(%a0) window = [1, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f64>):
    torus.return %x : tensor<f32>
  }
  return %0 : tensor<4x2xf32>
}
