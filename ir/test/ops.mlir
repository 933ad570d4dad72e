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
