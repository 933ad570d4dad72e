module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<3x6xf32>) -> (tensor<6x4xf32> {jax.result_info = "result[0]"}, tensor<4x3x2xf32> {jax.result_info = "result[1]"}, tensor<7x6xf32> {jax.result_info = "result[2]"}, tensor<7x9xf32> {jax.result_info = "result[3]"}, tensor<4x6xf32> {jax.result_info = "result[4]"}, tensor<4x2xf32> {jax.result_info = "result[5]"}, tensor<6x6xf32> {jax.result_info = "result[6]"}, tensor<3x2x6xf32> {jax.result_info = "result[7]"}, tensor<2x3x6xf32> {jax.result_info = "result[8]"}, tensor<3x6xf32> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<4x3x2xf32>
    %2 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
    %cst = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %3 = call @_pad(%arg0, %cst) : (tensor<4x6xf32>, tensor<f32>) -> tensor<7x9xf32>
    %4 = call @_flip(%arg0) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %5 = stablehlo.slice %arg0 [0:4, 1:5:2] : (tensor<4x6xf32>) -> tensor<4x2xf32>
    %6 = stablehlo.reverse %5, dims = [0] : tensor<4x2xf32>
    %7 = stablehlo.reshape %arg1 : (tensor<3x6xf32>) -> tensor<1x3x1x6xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2, 3] : (tensor<1x3x1x6xf32>) -> tensor<2x3x1x6xf32>
    %9 = stablehlo.reshape %8 : (tensor<2x3x1x6xf32>) -> tensor<6x6xf32>
    %10 = stablehlo.broadcast_in_dim %arg1, dims = [0, 2] : (tensor<3x6xf32>) -> tensor<3x1x6xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<3x1x6xf32>) -> tensor<3x2x6xf32>
    %12 = stablehlo.slice %arg0 [0:3, 0:6] : (tensor<4x6xf32>) -> tensor<3x6xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [1, 2] : (tensor<3x6xf32>) -> tensor<1x3x6xf32>
    %14 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x6xf32>) -> tensor<1x3x6xf32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<1x3x6xf32>, tensor<1x3x6xf32>) -> tensor<2x3x6xf32>
    %16 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x6xf32>) -> tensor<1x3x6xf32>
    %17 = stablehlo.reshape %16 : (tensor<1x3x6xf32>) -> tensor<3x6xf32>
    return %0, %1, %2, %3, %4, %6, %9, %11, %15, %17 : tensor<6x4xf32>, tensor<4x3x2xf32>, tensor<7x6xf32>, tensor<7x9xf32>, tensor<4x6xf32>, tensor<4x2xf32>, tensor<6x6xf32>, tensor<3x2x6xf32>, tensor<2x3x6xf32>, tensor<3x6xf32>
  }
  func.func private @_pad(%arg0: tensor<4x6xf32>, %arg1: tensor<f32>) -> tensor<7x9xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [2, 3], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<7x9xf32>
    return %1 : tensor<7x9xf32>
  }
  func.func private @_flip(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<4x6xf32>
    return %0 : tensor<4x6xf32>
  }
}
