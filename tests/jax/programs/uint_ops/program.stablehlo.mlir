module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xui32>, %arg1: tensor<3x4xui32>, %arg2: tensor<4xui8>) -> (tensor<3x4xui32> {jax.result_info = "result[0]"}, tensor<3x4xui32> {jax.result_info = "result[1]"}, tensor<3x4xui32> {jax.result_info = "result[2]"}, tensor<3x4xui32> {jax.result_info = "result[3]"}, tensor<3x4xui32> {jax.result_info = "result[4]"}, tensor<3x4xui32> {jax.result_info = "result[5]"}, tensor<3x4xi1> {jax.result_info = "result[6]"}, tensor<3x4xui32> {jax.result_info = "result[7]"}, tensor<4xui8> {jax.result_info = "result[8]"}, tensor<4xui8> {jax.result_info = "result[9]"}, tensor<4xui8> {jax.result_info = "result[10]"}, tensor<4xui32> {jax.result_info = "result[11]"}, tensor<3x4xi32> {jax.result_info = "result[12]"}, tensor<4xf32> {jax.result_info = "result[13]"}, tensor<3x4xui32> {jax.result_info = "result[14]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<3x4xui32>
    %1 = stablehlo.multiply %arg0, %arg1 : tensor<3x4xui32>
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %3 = stablehlo.or %arg1, %2 : tensor<3x4xui32>
    %4 = call @floor_divide(%arg0, %3) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %c_0 = stablehlo.constant dense<1> : tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %6 = stablehlo.or %arg1, %5 : tensor<3x4xui32>
    %7 = call @remainder(%arg0, %6) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %c_1 = stablehlo.constant dense<15> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %9 = stablehlo.and %arg1, %8 : tensor<3x4xui32>
    %10 = stablehlo.shift_right_logical %arg0, %9 : tensor<3x4xui32>
    %11 = stablehlo.subtract %arg0, %arg1 : tensor<3x4xui32>
    %12 = stablehlo.compare GT, %arg0, %arg1, UNSIGNED : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xi1>
    %13 = stablehlo.maximum %arg0, %arg1 : tensor<3x4xui32>
    %14 = stablehlo.add %arg2, %arg2 : tensor<4xui8>
    %c_2 = stablehlo.constant dense<3> : tensor<ui8>
    %15 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui8>) -> tensor<4xui8>
    %16 = stablehlo.multiply %arg2, %15 : tensor<4xui8>
    %c_3 = stablehlo.constant dense<1> : tensor<ui8>
    %17 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui8>) -> tensor<4xui8>
    %18 = stablehlo.shift_right_logical %arg2, %17 : tensor<4xui8>
    %19 = stablehlo.convert %arg2 : (tensor<4xui8>) -> tensor<4xui32>
    %20 = stablehlo.slice %arg0 [0:1, 0:4] : (tensor<3x4xui32>) -> tensor<1x4xui32>
    %21 = stablehlo.reshape %20 : (tensor<1x4xui32>) -> tensor<4xui32>
    %22 = stablehlo.add %19, %21 : tensor<4xui32>
    %23 = stablehlo.convert %arg0 : (tensor<3x4xui32>) -> tensor<3x4xi32>
    %24 = stablehlo.convert %arg2 : (tensor<4xui8>) -> tensor<4xf32>
    %25 = stablehlo.xor %arg0, %arg1 : tensor<3x4xui32>
    return %0, %1, %4, %7, %10, %11, %12, %13, %14, %16, %18, %22, %23, %24, %25 : tensor<3x4xui32>, tensor<3x4xui32>, tensor<3x4xui32>, tensor<3x4xui32>, tensor<3x4xui32>, tensor<3x4xui32>, tensor<3x4xi1>, tensor<3x4xui32>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui32>, tensor<3x4xi32>, tensor<4xf32>, tensor<3x4xui32>
  }
  func.func private @floor_divide(%arg0: tensor<3x4xui32>, %arg1: tensor<3x4xui32>) -> tensor<3x4xui32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<3x4xui32>
    return %0 : tensor<3x4xui32>
  }
  func.func private @remainder(%arg0: tensor<3x4xui32>, %arg1: tensor<3x4xui32>) -> tensor<3x4xui32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %1 = stablehlo.compare EQ, %arg1, %0, UNSIGNED : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %3 = call @_where(%1, %2, %arg1) : (tensor<3x4xi1>, tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<3x4xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %8 = stablehlo.compare LT, %4, %7, UNSIGNED : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<ui32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %10 = stablehlo.compare LT, %3, %9, UNSIGNED : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
    %12 = stablehlo.and %11, %6 : tensor<3x4xi1>
    %13 = stablehlo.add %4, %3 : tensor<3x4xui32>
    %14 = stablehlo.select %12, %13, %4 : tensor<3x4xi1>, tensor<3x4xui32>
    return %14 : tensor<3x4xui32>
  }
  func.func private @_where(%arg0: tensor<3x4xi1>, %arg1: tensor<3x4xui32>, %arg2: tensor<3x4xui32>) -> tensor<3x4xui32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3x4xi1>, tensor<3x4xui32>
    return %0 : tensor<3x4xui32>
  }
}
