// Tests that sharding propagation spreads the user's annotations forward
// and backward through each family of ops, follows the documented conflict
// rule, and records where every sharding came from.
// RUN: torus-opt %s --split-input-file --torus-sharding-propagation | FileCheck %s

// Forward through dot_general (a tiled free dimension passes to the
// result) and elementwise ops; backward to the unannotated input; the
// contracting split leaves the last result replicated. Origins name the
// op each sharding passed through and the annotation it started from.
// CHECK-LABEL: func.func @megatron
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {torus.sharding = #torus.sharding<{replicated}>, torus.sharding_origin = "backward through torus.dot_general at {{.*}} from the annotation on argument 1 of @megatron"}
// CHECK-SAME: -> (tensor<8x4xf32> {torus.sharding = #torus.sharding<{replicated}>})
// CHECK: torus.dot_general {{.*}} {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">, torus.sharding_origin = "forward through torus.dot_general at {{.*}} from the annotation on argument 1 of @megatron"}
// CHECK: torus.constant {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">, torus.sharding_origin = "backward through torus.maximum
// CHECK: torus.maximum {{.*}} {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">, torus.sharding_origin = "forward through torus.maximum
// CHECK: torus.dot_general {{.*}} {torus.sharding = #torus.sharding<{replicated}>, torus.sharding_origin = "forward through torus.dot_general
module attributes {torus.num_partitions = 2 : i64} {
  func.func @megatron(%x: tensor<8x16xf32>,
                      %w1: tensor<16x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>},
                      %w2: tensor<32x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>})
      -> tensor<8x4xf32> {
    %h = torus.dot_general %x, %w1, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %zero = torus.constant dense<0.0> : tensor<8x32xf32>
    %r = torus.maximum %h, %zero : tensor<8x32xf32>
    %y = torus.dot_general %r, %w2, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    return %y : tensor<8x4xf32>
  }
}

// -----

// Conflict: both operands tile 2 ways; the lower operand index wins.
// CHECK-LABEL: func.func @conflict
// CHECK: torus.add {{.*}} {torus.sharding = #torus.sharding<"{devices=[2,1]<=[2]}">
module attributes {torus.num_partitions = 2 : i64} {
  func.func @conflict(%a: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>},
                      %b: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>}) -> tensor<8x16xf32> {
    %0 = torus.add %a, %b : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// Conflict: more tiles win over fewer, wherever they come from.
// CHECK-LABEL: func.func @more_tiles
// CHECK: torus.add {{.*}} {torus.sharding = #torus.sharding<"{devices=[2,2]<=[4]}">
module attributes {torus.num_partitions = 4 : i64} {
  func.func @more_tiles(%a: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}>},
                        %b: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,2]0,1,2,3}>}) -> tensor<8x16xf32> {
    %0 = torus.add %a, %b : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// Backward from a sharding_constraint through an add and a broadcast: the
// bias vector is split like the dimension it is broadcast along.
// CHECK-LABEL: func.func @bias
// CHECK-SAME: %{{.*}}: tensor<32xf32> {torus.sharding = #torus.sharding<"{devices=[2]<=[2]}">
// CHECK: torus.broadcast_in_dim {{.*}} {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">, torus.sharding_origin = "backward through torus.add at {{.*}} from the torus.sharding_constraint at
module attributes {torus.num_partitions = 2 : i64} {
  func.func @bias(%x: tensor<8x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
    %bb = torus.broadcast_in_dim %b, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
    %0 = torus.add %x, %bb : tensor<8x32xf32>
    %1 = torus.sharding_constraint %0, sharding = {devices=[1,2]0,1} : tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
}

// -----

// Through a reshape that keeps the tiled dimension (32 -> 4x8 puts the
// tiles on the 4), then a transpose.
// CHECK-LABEL: func.func @reshape_transpose
// CHECK: torus.reshape {{.*}} {torus.sharding = #torus.sharding<"{devices=[1,2,1]<=[2]}">
// CHECK: torus.transpose {{.*}} {torus.sharding = #torus.sharding<"{devices=[1,1,2]<=[2]}">
module attributes {torus.num_partitions = 2 : i64} {
  func.func @reshape_transpose(%x: tensor<8x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>}) -> tensor<8x8x4xf32> {
    %0 = torus.reshape %x : (tensor<8x32xf32>) -> tensor<8x4x8xf32>
    %1 = torus.transpose %0, permutation = [0, 2, 1] : (tensor<8x4x8xf32>) -> tensor<8x8x4xf32>
    return %1 : tensor<8x8x4xf32>
  }
}

// -----

// A reshape that would need the tiles on a minor dimension cannot keep them.
// CHECK-LABEL: func.func @reshape_minor
// CHECK: torus.reshape {{.*}} {torus.sharding = #torus.sharding<{replicated}>
module attributes {torus.num_partitions = 2 : i64} {
  func.func @reshape_minor(%x: tensor<3x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>}) -> tensor<96xf32> {
    %0 = torus.reshape %x : (tensor<3x32xf32>) -> tensor<96xf32>
    return %0 : tensor<96xf32>
  }
}

// -----

// Reductions keep the tiles of the dimensions they keep.
// CHECK-LABEL: func.func @reduce
// CHECK: torus.reduce sum {{.*}} {torus.sharding = #torus.sharding<"{devices=[2]<=[2]}">
module attributes {torus.num_partitions = 2 : i64} {
  func.func @reduce(%x: tensor<8x32xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>}) -> tensor<8xf32> {
    %0 = torus.reduce sum %x, dims = [1] : (tensor<8x32xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// Convolution: batch and spatial tiles of the input pass to the output; the
// kernel's output features would pass too.
// CHECK-LABEL: func.func @conv
// CHECK: torus.convolution {{.*}} {torus.sharding = #torus.sharding<"{devices=[1,2,4,1]<=[8]}">
module attributes {torus.num_partitions = 8 : i64} {
  func.func @conv(%x: tensor<2x16x32x3xf32> {torus.sharding = #torus.sharding<"{devices=[1,2,4,1]<=[8]}">}, %w: tensor<3x3x3x8xf32>) -> tensor<2x16x32x8xf32> {
    %y = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>} : (tensor<2x16x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x32x8xf32>
    return %y : tensor<2x16x32x8xf32>
  }
}

// -----

// Slices, pads and concatenations keep the tiles of the dimensions they do
// not change.
// CHECK-LABEL: func.func @slice_pad_concat
// CHECK: torus.slice {{.*}} {torus.sharding = #torus.sharding<"{devices=[2,1]<=[2]}">
// CHECK: torus.pad {{.*}} {torus.sharding = #torus.sharding<"{devices=[2,1]<=[2]}">
// CHECK: torus.concatenate{{.*}} {torus.sharding = #torus.sharding<"{devices=[2,1]<=[2]}">
module attributes {torus.num_partitions = 2 : i64} {
  func.func @slice_pad_concat(%x: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>}, %z: tensor<f32>) -> tensor<8x20xf32> {
    %0 = torus.slice %x, start_indices = [0, 2], limit_indices = [8, 14], strides = [1, 1] : (tensor<8x16xf32>) -> tensor<8x12xf32>
    %1 = torus.pad %0, %z, low = [0, 1], high = [0, 3], interior = [0, 0] : (tensor<8x12xf32>, tensor<f32>) -> tensor<8x16xf32>
    %2 = torus.slice %x, start_indices = [0, 0], limit_indices = [8, 4], strides = [1, 1] : (tensor<8x16xf32>) -> tensor<8x4xf32>
    %3 = torus.concatenate(%1, %2), dimension = 1 : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<8x20xf32>
    return %3 : tensor<8x20xf32>
  }
}

// -----

// A loop's state, region arguments and results share one sharding.
// CHECK-LABEL: func.func @loop
// CHECK: torus.tanh {{.*}} {torus.sharding = #torus.sharding<"{devices=[2]<=[2]}">
// CHECK: torus.sharding = [#torus.sharding<{replicated}>, #torus.sharding<"{devices=[2]<=[2]}">]
module attributes {torus.num_partitions = 2 : i64} {
  func.func @loop(%x: tensor<8xf32> {torus.sharding = #torus.sharding<{devices=[2]0,1}>}, %n: tensor<i32>) -> tensor<8xf32> {
    %zero = torus.constant dense<0> : tensor<i32>
    %r:2 = torus.while(%i = %zero, %v = %x) : tensor<i32>, tensor<8xf32>
      cond {
        %p = torus.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        torus.return %p : tensor<i1>
      } do {
        %one = torus.constant dense<1> : tensor<i32>
        %i1 = torus.add %i, %one : tensor<i32>
        %v1 = torus.tanh %v : tensor<8xf32>
        torus.return %i1, %v1 : tensor<i32>, tensor<8xf32>
      }
    return %r#1 : tensor<8xf32>
  }
}

// -----

// User annotations win: the constraint keeps its sharding although the
// value arriving is tiled otherwise; maximal spreads like any sharding.
// CHECK-LABEL: func.func @user_wins
// CHECK: torus.exp {{.*}} {torus.sharding = #torus.sharding<"{devices=[2,1]<=[2]}">
// CHECK: torus.sharding_constraint {{.*}}, sharding = {devices=[1,2]<=[2]}
// CHECK: torus.negate {{.*}} {torus.sharding = #torus.sharding<{maximal device=1}>
module attributes {torus.num_partitions = 2 : i64} {
  func.func @user_wins(%x: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>},
                       %m: tensor<8x16xf32> {torus.sharding = #torus.sharding<{maximal device=1}>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = torus.exp %x : tensor<8x16xf32>
    %1 = torus.sharding_constraint %0, sharding = {devices=[1,2]0,1} : tensor<8x16xf32>
    %2 = torus.negate %m : tensor<8x16xf32>
    return %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}

// -----

// HLO text in a string attribute (what HLO import writes) is a sharding too.
// CHECK-LABEL: func.func @hlo_text
// CHECK: torus.tanh {{.*}} {torus.sharding = #torus.sharding<"{devices=[2]<=[2]}">
module attributes {torus.num_partitions = 2 : i64} {
  func.func @hlo_text(%x: tensor<8xf32> {torus.sharding = "{devices=[2]0,1}"}) -> tensor<8xf32> {
    %0 = torus.tanh %x : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// Calls are inlined first; with one partition nothing else happens.
// CHECK-LABEL: func.func @calls
// CHECK-NOT: torus.call
// CHECK: torus.tanh
// CHECK-NOT: torus.sharding =
// CHECK-NOT: func.func private @body
func.func private @body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.call @body(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
