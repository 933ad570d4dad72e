// Tests the data-movement lowerings: slices with HLO's clamped dynamic
// starts, padding through a filled tensor, reversal and iota as maps.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @slices
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
// CHECK: %[[I:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK: %[[X:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[X]], %c0
// CHECK: %[[START:.*]] = arith.minsi %[[LO]], %c2
// CHECK: tensor.extract_slice %{{.*}}[%[[START]], %{{.*}}] [2, 2] [1, 1] : tensor<4x6xf32> to tensor<2x2xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
func.func @slices(%x: tensor<4x6xf32>, %i: tensor<i32>, %u: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x6xf32>) {
  %0 = torus.slice %x, start_indices = [0, 1], limit_indices = [4, 6], strides = [2, 2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %1 = torus.dynamic_slice %x[%i, %i], sizes = [2, 2] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %2 = torus.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x6xf32>
}

// -----

// Negative edge padding crops after padding the non-negative part;
// interior padding is a strided insert.
// CHECK-LABEL: func.func @pad
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<6x11xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %{{.*}} into %[[F]][1, 0] [4, 6] [1, 2] : tensor<4x6xf32> into tensor<6x11xf32>
// CHECK: tensor.extract_slice %[[P]][0, 1] [6, 10] [1, 1] : tensor<6x11xf32> to tensor<6x10xf32>
func.func @pad(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<6x10xf32> {
  %0 = torus.pad %x, %z, low = [1, -1], high = [1, 0], interior = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x10xf32>
  return %0 : tensor<6x10xf32>
}

// -----

// CHECK-LABEL: func.func @concatenate
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6x3xf32>
// CHECK: %[[A:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[A]][2, 0] [4, 3] [1, 1]
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  %0 = torus.concatenate(%a, %b), dimension = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// -----

// CHECK: #[[REV:.*]] = affine_map<(d0, d1) -> (d0, -d1 + 5)>
// CHECK-LABEL: func.func @reverse_iota
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #{{.*}}]
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: arith.index_cast %[[I]] : index to i64
// CHECK: arith.sitofp %{{.*}} : i64 to f32
func.func @reverse_iota(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = torus.reverse %x, dims = [1] : tensor<4x6xf32>
  %1 = torus.iota dim = 1 : tensor<4x6xf32>
  return %0, %1 : tensor<4x6xf32>, tensor<4x6xf32>
}
