module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result[0]"}, tensor<8x16xf32> {jax.result_info = "result[1]"}, tensor<8x16xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %cst = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %2 = stablehlo.sqrt %cst : tensor<f32>
    %3 = stablehlo.convert %2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %5 = stablehlo.divide %1, %4 : tensor<8x8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.maximum %7, %6 : tensor<8xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x8xf32>
    %12 = stablehlo.exponential %11 : tensor<8x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
    %16 = stablehlo.divide %12, %15 : tensor<8x8xf32>
    %17 = stablehlo.multiply %14, %14 : tensor<8x1xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %19 = stablehlo.divide %18, %17 : tensor<8x1xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %21 = stablehlo.dot_general %20, %16, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %22 = stablehlo.transpose %21, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %23 = stablehlo.dot_general %20, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x8xf32>
    %24 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<8x8xf32>
    %26 = stablehlo.multiply %25, %12 : tensor<8x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %28 = stablehlo.reshape %27 : (tensor<8xf32>) -> tensor<8x1xf32>
    %29 = stablehlo.negate %28 : tensor<8x1xf32>
    %30 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
    %31 = stablehlo.divide %23, %30 : tensor<8x8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%29 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
    %34 = stablehlo.add %31, %33 : tensor<8x8xf32>
    %35 = stablehlo.multiply %34, %12 : tensor<8x8xf32>
    %36 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %37 = stablehlo.divide %35, %36 : tensor<8x8xf32>
    %38 = stablehlo.dot_general %37, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %39 = stablehlo.transpose %38, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %40 = stablehlo.dot_general %37, %0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<16x8xf32>) -> tensor<8x16xf32>
    %41 = stablehlo.transpose %39, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    return %40, %41, %22 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
}
