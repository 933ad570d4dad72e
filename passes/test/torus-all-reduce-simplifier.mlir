// Tests that all-reduces of values every member of the group already
// agrees on become local arithmetic, and that others stay.
// RUN: torus-opt %s --split-input-file --torus-all-reduce-simplifier | FileCheck %s

// A constant's sum over 4 devices is 4 times it; the max of a value that
// an all-reduce over the same group produced is that value.
// CHECK-LABEL: func.func @agreed
// CHECK-DAG: %[[C:.*]] = torus.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[N:.*]] = torus.constant dense<4.000000e+00> : tensor<4xf32>
// CHECK: %[[S:.*]] = torus.multiply %[[C]], %[[N]] : tensor<4xf32>
// CHECK: %[[A:.*]] = torus.all_reduce sum %arg0
// CHECK-NOT: torus.all_reduce max
// CHECK: return %[[S]], %[[A]], %[[A]]
module attributes {torus.num_partitions = 4 : i64, torus.num_replicas = 1 : i64} {
  func.func @agreed(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %c = torus.constant dense<2.0> : tensor<4xf32>
    %s = torus.all_reduce sum %c {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : tensor<4xf32>
    %a = torus.all_reduce sum %x {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : tensor<4xf32>
    %m = torus.all_reduce max %a {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : tensor<4xf32>
    return %s, %a, %m : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// The replica id is the same on the partitions of one replica (groups
// {0,1}, {2,3} with 2 partitions), but not across replicas.
// CHECK-LABEL: func.func @ids
// CHECK: %[[R:.*]] = torus.convert
// CHECK: torus.multiply %[[R]], %{{.*}} : tensor<f32>
// CHECK: torus.all_reduce sum %[[R]] {replica_groups = dense<{{\[\[}}0, 2], [1, 3]]>
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 2 : i64} {
  func.func @ids() -> (tensor<f32>, tensor<f32>) {
    %rid = torus.replica_id : tensor<i32>
    %r = torus.convert %rid : (tensor<i32>) -> tensor<f32>
    %a = torus.all_reduce sum %r {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<f32>
    %b = torus.all_reduce sum %r {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<f32>
    return %a, %b : tensor<f32>, tensor<f32>
  }
}

// -----

// Groups of one reduce nothing.
// CHECK-LABEL: func.func @singletons
// CHECK-NOT: torus.all_reduce
// CHECK: return %arg0
module attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 1 : i64} {
  func.func @singletons(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = torus.all_reduce sum %x {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : tensor<4xf32>
    return %a : tensor<4xf32>
  }
}
