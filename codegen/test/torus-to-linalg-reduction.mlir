// Tests reductions: identities, argmax's two-result generic and pooling
// windows over a padded operand.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @reduce_and
// CHECK: %[[ONES:.*]] = arith.constant -1 : i32
// CHECK: linalg.fill ins(%[[ONES]] : i32)
// CHECK: linalg.reduce
// CHECK: arith.andi
func.func @reduce_and(%a: tensor<4x3xi32>) -> tensor<4xi32> {
  %0 = torus.reduce and %a, dims = [1] : (tensor<4x3xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Half-precision sums accumulate in f32.
// CHECK-LABEL: func.func @reduce_bf16
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x3xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @reduce_bf16(%a: tensor<4x3xbf16>) -> tensor<4xbf16> {
  %0 = torus.reduce sum %a, dims = [1] : (tensor<4x3xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// CHECK: #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK: %[[IDX:.*]] = linalg.index 1 : index
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf ogt
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, i32
func.func @argmax(%a: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = torus.argmax %a, dimension = 1 : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Pooling: the operand is padded with the identity (-inf for max), then a
// generic iterates output positions (parallel) × window positions
// (reduction), the window's extent coming from an empty tensor.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d4, d1 * 2 + d5, d2 * 2 + d6, d3 + d7)>
// CHECK: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d5, d6, d7)>
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x6x6x3xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 1, 0] [1, 4, 4, 3] [1, 1, 1, 1]
// CHECK: tensor.empty() : tensor<1x3x3x1xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK: arith.maximumf
func.func @max_pool(%x: tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32> {
  %0 = torus.reduce_window max %x, window = [1, 3, 3, 1] {window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

// A reducer computation is inlined as scalar code into a linalg.generic
// that starts from the init values; the reduced dimension is a reduction
// loop.
// CHECK-LABEL: func.func @reduce_general
// CHECK-DAG: %[[V0:.*]] = tensor.extract %arg2[]
// CHECK-DAG: %[[I0:.*]] = tensor.extract %arg3[]
// CHECK-DAG: linalg.fill ins(%[[V0]] : i1)
// CHECK-DAG: linalg.fill ins(%[[I0]] : i32)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%arg0, %arg1 : tensor<4x8xi1>, tensor<4x8xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i1, %[[XI:.*]]: i32, %[[A:.*]]: i1, %[[AI:.*]]: i32):
// CHECK: %[[GT:.*]] = arith.cmpi ugt, %[[X]], %[[A]] : i1
// CHECK: %[[V:.*]] = arith.select %[[GT]], %[[X]], %[[A]] : i1
// CHECK: %[[J:.*]] = arith.select %[[GT]], %[[XI]], %[[AI]] : i32
// CHECK: linalg.yield %[[V]], %[[J]] : i1, i32
func.func @reduce_general(%x: tensor<4x8xi1>, %i: tensor<4x8xi32>, %x0: tensor<i1>, %i0: tensor<i32>) -> (tensor<4xi1>, tensor<4xi32>) {
  %0:2 = torus.reduce_general(%x, %i) init(%x0, %i0) dims = [1] : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<i1>, tensor<i32>) -> (tensor<4xi1>, tensor<4xi32>) {
  ^bb0(%a: tensor<i1>, %ai: tensor<i32>, %b: tensor<i1>, %bi: tensor<i32>):
    %gt = torus.compare GT, %b, %a : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %v = torus.select %gt, %b, %a : tensor<i1>, tensor<i1>
    %j = torus.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    torus.return %v, %j : tensor<i1>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<4xi1>, tensor<4xi32>
}

// -----

// Each input of reduce_window_general is padded with its own init value.
// CHECK-LABEL: func.func @reduce_window_general
// CHECK: %[[C:.*]] = tensor.extract %arg1[]
// CHECK: linalg.fill ins(%[[C]] : f32) outs(%{{.*}} : tensor<4x10xf32>)
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 2] [4, 8] [1, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32, %[[A:.*]]: f32):
// CHECK: %[[D:.*]] = arith.subf %[[A]], %[[X]] : f32
// CHECK: linalg.yield %[[D]] : f32
func.func @reduce_window_general(%x: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  %0 = torus.reduce_window_general(%x) init(%c) window = [1, 3] {padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = torus.subtract %a, %b : tensor<f32>
    torus.return %m : tensor<f32>
  }
  return %0 : tensor<4x8xf32>
}
