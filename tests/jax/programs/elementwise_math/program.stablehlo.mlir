module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x10xf32>, %arg1: tensor<6x10xf32>) -> (tensor<6x10xf32> {jax.result_info = "result[0]"}, tensor<6x10xf32> {jax.result_info = "result[1]"}, tensor<6x10xf32> {jax.result_info = "result[2]"}, tensor<6x10xf32> {jax.result_info = "result[3]"}, tensor<6x10xf32> {jax.result_info = "result[4]"}, tensor<6x10xf32> {jax.result_info = "result[5]"}, tensor<6x10xf32> {jax.result_info = "result[6]"}, tensor<6x10xf32> {jax.result_info = "result[7]"}, tensor<6x10xf32> {jax.result_info = "result[8]"}, tensor<6x10xf32> {jax.result_info = "result[9]"}, tensor<6x10xf32> {jax.result_info = "result[10]"}, tensor<6x10xf32> {jax.result_info = "result[11]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<6x10xf32>
    %1 = stablehlo.abs %arg0 : tensor<6x10xf32>
    %2 = stablehlo.log_plus_one %1 : tensor<6x10xf32>
    %3 = stablehlo.tanh %arg0 : tensor<6x10xf32>
    %4 = stablehlo.sine %arg0 : tensor<6x10xf32>
    %5 = stablehlo.cosine %arg1 : tensor<6x10xf32>
    %6 = stablehlo.abs %arg1 : tensor<6x10xf32>
    %7 = stablehlo.sqrt %6 : tensor<6x10xf32>
    %8 = stablehlo.maximum %arg0, %arg1 : tensor<6x10xf32>
    %9 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xi1>
    %10 = stablehlo.multiply %arg0, %arg1 : tensor<6x10xf32>
    %11 = stablehlo.subtract %arg0, %arg1 : tensor<6x10xf32>
    %12 = call @_where(%9, %10, %11) : (tensor<6x10xi1>, tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xf32>
    %13 = stablehlo.multiply %arg1, %arg1 : tensor<6x10xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x10xf32>
    %15 = stablehlo.add %14, %13 : tensor<6x10xf32>
    %16 = stablehlo.divide %arg0, %15 : tensor<6x10xf32>
    %17 = stablehlo.abs %arg0 : tensor<6x10xf32>
    %cst_0 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x10xf32>
    %19 = stablehlo.power %17, %18 : tensor<6x10xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6x10xf32>
    %21 = stablehlo.multiply %20, %arg0 : tensor<6x10xf32>
    %22 = stablehlo.floor %21 : tensor<6x10xf32>
    %23 = call @round(%arg1) : (tensor<6x10xf32>) -> tensor<6x10xf32>
    return %0, %2, %3, %4, %5, %7, %8, %12, %16, %19, %22, %23 : tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>
  }
  func.func private @_where(%arg0: tensor<6x10xi1>, %arg1: tensor<6x10xf32>, %arg2: tensor<6x10xf32>) -> tensor<6x10xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<6x10xi1>, tensor<6x10xf32>
    return %0 : tensor<6x10xf32>
  }
  func.func private @round(%arg0: tensor<6x10xf32>) -> tensor<6x10xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<6x10xf32>
    return %0 : tensor<6x10xf32>
  }
}
