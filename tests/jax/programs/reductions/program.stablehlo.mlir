module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x10xf32>) -> (tensor<10xf32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}, tensor<3xf32> {jax.result_info = "result[3]"}, tensor<f32> {jax.result_info = "result[4]"}, tensor<i1> {jax.result_info = "result[5]"}, tensor<10xi1> {jax.result_info = "result[6]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<12x10xf32>, tensor<f32>) -> tensor<10xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<12x10xf32>, tensor<f32>) -> tensor<12xf32>
    %cst_1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.minimum across dimensions = [0, 1] : (tensor<12x10xf32>, tensor<f32>) -> tensor<f32>
    %3 = stablehlo.slice %arg0 [0:3, 0:4] : (tensor<12x10xf32>) -> tensor<3x4xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<3x4xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %7 = stablehlo.add %5, %6 : tensor<3x4xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_4) applies stablehlo.multiply across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%arg0 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<12x10xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<1.200000e+02> : tensor<f32>
    %10 = stablehlo.divide %9, %cst_6 : tensor<f32>
    %cst_7 = stablehlo.constant dense<-3.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
    %12 = stablehlo.compare GT, %arg0, %11, FLOAT : (tensor<12x10xf32>, tensor<12x10xf32>) -> tensor<12x10xi1>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %13 = stablehlo.reduce(%12 init: %c) applies stablehlo.and across dimensions = [0, 1] : (tensor<12x10xi1>, tensor<i1>) -> tensor<i1>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
    %15 = stablehlo.compare GT, %arg0, %14, FLOAT : (tensor<12x10xf32>, tensor<12x10xf32>) -> tensor<12x10xi1>
    %c_9 = stablehlo.constant dense<false> : tensor<i1>
    %16 = stablehlo.reduce(%15 init: %c_9) applies stablehlo.or across dimensions = [0] : (tensor<12x10xi1>, tensor<i1>) -> tensor<10xi1>
    return %0, %1, %2, %8, %10, %13, %16 : tensor<10xf32>, tensor<12xf32>, tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<i1>, tensor<10xi1>
  }
}
