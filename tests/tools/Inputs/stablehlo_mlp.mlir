// A StableHLO program as `jax.jit(f).lower(x).as_text()` writes it:
// f(x) = sum(relu(x @ w), axis=1) with w a constant.
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}) -> (tensor<2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<[[1.000000e+00, -1.000000e+00], [2.000000e+00, -2.000000e+00], [3.000000e+00, 3.000000e+00]]> : tensor<3x2xf32>
    %0 = stablehlo.dot_general %arg0, %cst, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %2 = stablehlo.maximum %0, %1 : tensor<2x2xf32>
    %3 = call @sum(%2) : (tensor<2x2xf32>) -> tensor<2xf32>
    return %3 : tensor<2xf32>
  }
  func.func private @sum(%arg0: tensor<2x2xf32>) -> tensor<2xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
