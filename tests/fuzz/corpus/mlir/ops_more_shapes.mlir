func.func @more_shapes(%x: tensor<4x6xf32>, %i: tensor<i32>, %j: tensor<i64>, %u: tensor<2x3xf32>, %z: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x6xf32>, tensor<6x6xf32>, tensor<6x12xf32>, tensor<4x6xf32>, tensor<4x6xi32>) {
  %0 = torus.slice %x, start_indices = [0, 1], limit_indices = [4, 6], strides = [2, 2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %1 = torus.dynamic_slice %x[%i, %j], sizes = [2, 2] : (tensor<4x6xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
  %2 = torus.dynamic_update_slice %x, %u[%i, %i] : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  %s = torus.slice %x, start_indices = [0, 0], limit_indices = [2, 6], strides = [1, 1] : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %3 = torus.concatenate(%x, %s), dimension = 0 : (tensor<4x6xf32>, tensor<2x6xf32>) -> tensor<6x6xf32>
  %4 = torus.pad %x, %z, low = [1, -1], high = [1, 2], interior = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x12xf32>
  %5 = torus.reverse %x, dims = [0, 1] : tensor<4x6xf32>
  %6 = torus.iota dim = 1 : tensor<4x6xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x2xf32>, tensor<4x6xf32>, tensor<6x6xf32>, tensor<6x12xf32>, tensor<4x6xf32>, tensor<4x6xi32>
}
