module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xi8>, %arg1: tensor<10xi16>, %arg2: tensor<10xf32>) -> (tensor<10xi8> {jax.result_info = "result[0]"}, tensor<10xi8> {jax.result_info = "result[1]"}, tensor<10xi16> {jax.result_info = "result[2]"}, tensor<10xi16> {jax.result_info = "result[3]"}, tensor<10xi8> {jax.result_info = "result[4]"}, tensor<10xi32> {jax.result_info = "result[5]"}, tensor<10xui8> {jax.result_info = "result[6]"}, tensor<10xi32> {jax.result_info = "result[7]"}, tensor<10xf32> {jax.result_info = "result[8]"}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<10xi8>
    %1 = stablehlo.multiply %arg0, %arg0 : tensor<10xi8>
    %c = stablehlo.constant dense<3> : tensor<i16>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i16>) -> tensor<10xi16>
    %3 = stablehlo.multiply %arg1, %2 : tensor<10xi16>
    %4 = stablehlo.convert %arg0 : (tensor<10xi8>) -> tensor<10xi16>
    %5 = stablehlo.multiply %4, %arg1 : tensor<10xi16>
    %6 = stablehlo.convert %arg2 : (tensor<10xf32>) -> tensor<10xi8>
    %7 = stablehlo.convert %arg2 : (tensor<10xf32>) -> tensor<10xi32>
    %8 = stablehlo.convert %arg2 : (tensor<10xf32>) -> tensor<10xui8>
    %9 = call @round(%arg2) : (tensor<10xf32>) -> tensor<10xf32>
    %10 = stablehlo.convert %9 : (tensor<10xf32>) -> tensor<10xi32>
    %11 = stablehlo.convert %arg1 : (tensor<10xi16>) -> tensor<10xf32>
    %cst = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %13 = stablehlo.divide %11, %12 : tensor<10xf32>
    return %0, %1, %3, %5, %6, %7, %8, %10, %13 : tensor<10xi8>, tensor<10xi8>, tensor<10xi16>, tensor<10xi16>, tensor<10xi8>, tensor<10xi32>, tensor<10xui8>, tensor<10xi32>, tensor<10xf32>
  }
  func.func private @round(%arg0: tensor<10xf32>) -> tensor<10xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<10xf32>
    return %0 : tensor<10xf32>
  }
}
