// Tests that malformed StableHLO text is an error at its position.
// RUN: torus-opt %s --split-input-file -verify-diagnostics

func.func @direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+2 {{expected ::mlir::stablehlo::ComparisonDirection to be one of: EQ, NE, GE, GT, LE, LT}}
  // expected-error @+1 {{failed to parse StableHLO_ComparisonDirectionAttr parameter 'value'}}
  %0 = stablehlo.compare LTE, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @reducer(%a: tensor<4xf32>, %c: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{unknown reducer op 'stablehlo.plus'}}
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.plus across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduceTypes(%a: tensor<4xf32>, %c: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected 2 operand types and 1 result types}}
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @format(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a format 'eXmY' (exponent and mantissa bits)}}
  %0 = stablehlo.reduce_precision %a, format = f5m10 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @window(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @+1 {{unknown window attribute 'strides'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {strides = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @layout(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @+1 {{'b' appears twice}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, b, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

// expected-error @+1 {{unknown field 'offset_dim'}}
func.func @gather(%t: tensor<10x5xf32>, %i: tensor<3x1xi32>) -> tensor<3x5xf32> attributes {g = #stablehlo.gather<offset_dim = [1]>} {
  return %t : tensor<3x5xf32>
}

// -----

func.func @sharding(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected a priority 'pN'}}
  %0 = sdy.sharding_constraint %x <@mesh, [{"x"}q1]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
