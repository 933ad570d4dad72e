module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x17xf32>, %arg1: tensor<10x3xi32>) -> (tensor<6x17xf32> {jax.result_info = "result[0]"}, tensor<6x17xf32> {jax.result_info = "result[1]"}, tensor<10x3xi32> {jax.result_info = "result[2]"}, tensor<6x17xf32> {jax.result_info = "result[3]"}) {
    %0 = call @cumsum(%arg0) : (tensor<6x17xf32>) -> tensor<6x17xf32>
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x17xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<6x17xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x17xf32>
    %4 = stablehlo.add %3, %2 : tensor<6x17xf32>
    %5 = call @cumprod(%4) : (tensor<6x17xf32>) -> tensor<6x17xf32>
    %6 = call @cumsum_2(%arg1) : (tensor<10x3xi32>) -> tensor<10x3xi32>
    %7 = call @cummax(%arg0) : (tensor<6x17xf32>) -> tensor<6x17xf32>
    return %0, %5, %6, %7 : tensor<6x17xf32>, tensor<6x17xf32>, tensor<10x3xi32>, tensor<6x17xf32>
  }
  func.func private @cumsum(%arg0: tensor<6x17xf32>) -> tensor<6x17xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<6x17xf32>) -> tensor<6x17xf32>
    return %0 : tensor<6x17xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<6x17xf32>) -> tensor<6x17xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [16, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 17>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<6x17xf32>, tensor<f32>) -> tensor<6x17xf32>
    return %1 : tensor<6x17xf32>
  }
  func.func private @cumprod(%arg0: tensor<6x17xf32>) -> tensor<6x17xf32> {
    %0 = call @cumprod_1(%arg0) : (tensor<6x17xf32>) -> tensor<6x17xf32>
    return %0 : tensor<6x17xf32>
  }
  func.func private @cumprod_1(%arg0: tensor<6x17xf32>) -> tensor<6x17xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[5, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 6, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.multiply %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<6x17xf32>, tensor<f32>) -> tensor<6x17xf32>
    return %0 : tensor<6x17xf32>
  }
  func.func private @cumsum_2(%arg0: tensor<10x3xi32>) -> tensor<10x3xi32> {
    %0 = call @cumsum_3(%arg0) : (tensor<10x3xi32>) -> tensor<10x3xi32>
    return %0 : tensor<10x3xi32>
  }
  func.func private @cumsum_3(%arg0: tensor<10x3xi32>) -> tensor<10x3xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[9, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 10, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<10x3xi32>, tensor<i32>) -> tensor<10x3xi32>
    return %1 : tensor<10x3xi32>
  }
  func.func private @cummax(%arg0: tensor<6x17xf32>) -> tensor<6x17xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [16, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 17>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<6x17xf32>, tensor<f32>) -> tensor<6x17xf32>
    return %1 : tensor<6x17xf32>
  }
}
