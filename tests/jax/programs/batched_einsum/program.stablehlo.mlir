module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x5xf32>, %arg1: tensor<3x5x6xf32>, %arg2: tensor<7x5xf32>) -> (tensor<3x4x6xf32> {jax.result_info = "result[0]"}, tensor<3x7x4xf32> {jax.result_info = "result[1]"}, tensor<3xf32> {jax.result_info = "result[2]"}, tensor<5x5xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x4x5xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>
    %1 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<7x5xf32>, tensor<3x4x5xf32>) -> tensor<7x3x4xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0, 2] : (tensor<7x3x4xf32>) -> tensor<3x7x4xf32>
    %3 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<3xf32>
    %4 = stablehlo.slice %arg2 [0:1, 0:5] : (tensor<7x5xf32>) -> tensor<1x5xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x5xf32>) -> tensor<5xf32>
    %6 = stablehlo.slice %arg2 [1:2, 0:5] : (tensor<7x5xf32>) -> tensor<1x5xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x5xf32>) -> tensor<5xf32>
    %8 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<5xf32>) -> tensor<5x1xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x5xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<5x5xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<5x5xf32>
    return %0, %2, %3, %12 : tensor<3x4x6xf32>, tensor<3x7x4xf32>, tensor<3xf32>, tensor<5x5xf32>
  }
}
