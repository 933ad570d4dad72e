module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x20xf32>) -> (tensor<20xf32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<12x20xf32>, tensor<f32>) -> tensor<20xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<20xf32>
    %3 = stablehlo.is_finite %2 : (tensor<20xf32>) -> tensor<20xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %5 = stablehlo.select %3, %2, %4 : tensor<20xi1>, tensor<20xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<12x20xf32>
    %8 = stablehlo.subtract %arg0, %7 : tensor<12x20xf32>
    %9 = stablehlo.exponential %8 : tensor<12x20xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<12x20xf32>, tensor<f32>) -> tensor<20xf32>
    %11 = stablehlo.abs %10 : tensor<20xf32>
    %12 = stablehlo.log %11 : tensor<20xf32>
    %13 = stablehlo.add %12, %5 : tensor<20xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %14 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.maximum across dimensions = [1] : (tensor<12x20xf32>, tensor<f32>) -> tensor<12xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %16 = stablehlo.maximum %15, %14 : tensor<12xf32>
    %17 = stablehlo.is_finite %16 : (tensor<12xf32>) -> tensor<12xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %19 = stablehlo.select %17, %16, %18 : tensor<12xi1>, tensor<12xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x20xf32>
    %22 = stablehlo.subtract %arg0, %21 : tensor<12x20xf32>
    %23 = stablehlo.exponential %22 : tensor<12x20xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<12x20xf32>, tensor<f32>) -> tensor<12xf32>
    %25 = stablehlo.abs %24 : tensor<12xf32>
    %26 = stablehlo.log %25 : tensor<12xf32>
    %27 = stablehlo.add %26, %19 : tensor<12xf32>
    return %13, %27 : tensor<20xf32>, tensor<12xf32>
  }
}
