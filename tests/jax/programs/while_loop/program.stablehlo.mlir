module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<f32>) -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg0, %iterArg_1 = %c) : tensor<f32>, tensor<6xf32>, tensor<i32>
    cond {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.reduce(%iterArg_0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
      %2 = stablehlo.compare LT, %1, %iterArg, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_2 = stablehlo.constant dense<100> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = stablehlo.and %2, %3 : tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %2 = stablehlo.multiply %iterArg_0, %1 : tensor<6xf32>
      %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %4 = stablehlo.add %2, %3 : tensor<6xf32>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
      stablehlo.return %iterArg, %4, %5 : tensor<f32>, tensor<6xf32>, tensor<i32>
    }
    return %0#1, %0#2 : tensor<6xf32>, tensor<i32>
  }
}
