module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<3x5xf32>) -> (tensor<3x5xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %0 = stablehlo.clamp %c, %arg0, %c_0 : tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %2 = stablehlo.sine %arg1 : tensor<3x5xf32>
      stablehlo.return %2 : tensor<3x5xf32>
    }, {
      %2 = stablehlo.cosine %arg1 : tensor<3x5xf32>
      stablehlo.return %2 : tensor<3x5xf32>
    }, {
      %2 = stablehlo.multiply %arg1, %arg1 : tensor<3x5xf32>
      stablehlo.return %2 : tensor<3x5xf32>
    }, {
      %2 = stablehlo.exponential %arg1 : tensor<3x5xf32>
      stablehlo.return %2 : tensor<3x5xf32>
    }) : (tensor<i32>) -> tensor<3x5xf32>
    return %1 : tensor<3x5xf32>
  }
}
