module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf16>, %arg1: tensor<4x8xf16>) -> (tensor<4x8xf16> {jax.result_info = "result[0]"}, tensor<4x8xf16> {jax.result_info = "result[1]"}, tensor<4x8xf16> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<4x8xf16>
    %1 = stablehlo.add %0, %arg0 : tensor<4x8xf16>
    %2 = stablehlo.exponential %arg0 : tensor<4x8xf16>
    %3 = stablehlo.abs %arg1 : tensor<4x8xf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<4x8xf16>
    %5 = stablehlo.add %3, %4 : tensor<4x8xf16>
    %6 = stablehlo.divide %arg0, %5 : tensor<4x8xf16>
    return %1, %2, %6 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>
  }
}
