// Tests that independent all-reduces with the same reduction, type and
// groups are combined into one up to the size threshold, and that
// dependent ones, different groups and large ones are not.
// RUN: torus-opt %s --split-input-file --torus-all-reduce-combiner | FileCheck %s
// RUN: torus-opt %s --split-input-file --torus-all-reduce-combiner=threshold-bytes=24 | FileCheck %s --check-prefix=SMALL

// CHECK-LABEL: func.func @gradients
// CHECK: %[[Y:.*]] = torus.reshape %arg1 : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: %[[J:.*]] = torus.concatenate(%arg0, %[[Y]]), dimension = 0 : (tensor<4xf32>, tensor<6xf32>) -> tensor<10xf32>
// CHECK: %[[R:.*]] = torus.all_reduce sum %[[J]] {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : tensor<10xf32>
// CHECK: %[[A:.*]] = torus.slice %[[R]], start_indices = [0], limit_indices = [4], strides = [1]
// CHECK: %[[B0:.*]] = torus.slice %[[R]], start_indices = [4], limit_indices = [10], strides = [1]
// CHECK: %[[B:.*]] = torus.reshape %[[B0]] : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK: return %[[A]], %[[B]]
// Over the threshold (24 bytes holds 6 floats), the two stay apart.
// SMALL-LABEL: func.func @gradients
// SMALL-COUNT-2: torus.all_reduce
// SMALL-NOT: torus.concatenate
func.func @gradients(%x: tensor<4xf32>, %y: tensor<2x3xf32>) -> (tensor<4xf32>, tensor<2x3xf32>) {
  %a = torus.all_reduce sum %x {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<4xf32>
  %b = torus.all_reduce sum %y {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<2x3xf32>
  return %a, %b : tensor<4xf32>, tensor<2x3xf32>
}

// -----

// The second all-reduce depends on the first: no combining.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-2: torus.all_reduce
// CHECK-NOT: torus.concatenate
func.func @dependent(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = torus.all_reduce sum %x : tensor<4xf32>
  %t = torus.tanh %a : tensor<4xf32>
  %b = torus.all_reduce sum %t : tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// Different groups and reductions stay apart.
// CHECK-LABEL: func.func @different
// CHECK-COUNT-3: torus.all_reduce
// CHECK-NOT: torus.concatenate
func.func @different(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = torus.all_reduce sum %x {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
  %b = torus.all_reduce sum %y {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
  %c = torus.all_reduce max %x {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
