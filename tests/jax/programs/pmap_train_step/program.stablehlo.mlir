module @jit__fun attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=8]> {stablehlo.mesh = {axes = [{name = "i", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8x4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}, {}]>}, %arg1: tensor<8x2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}, {}]>}) -> (tensor<8x4x3xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}, {}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"i"}, {}, {}]>, <@mesh, [{"i"}, {}, {}]>] out_shardings=[<@mesh, [{"i"}, {}, {}]>] manual_axes={"i"} (%arg2: tensor<1x4x3xf32>, %arg3: tensor<1x2x4xf32>) {
      %1 = stablehlo.reshape %arg2 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
      %2 = stablehlo.reshape %arg3 : (tensor<1x2x4xf32>) -> tensor<2x4xf32>
      %3 = stablehlo.dot_general %2, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
      %4 = stablehlo.tanh %3 : tensor<2x3xf32>
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
      %6 = stablehlo.subtract %5, %4 : tensor<2x3xf32>
      %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
      %8 = stablehlo.multiply %7, %6 : tensor<2x3xf32>
      %9 = stablehlo.multiply %8, %4 : tensor<2x3xf32>
      %10 = stablehlo.add %8, %9 : tensor<2x3xf32>
      %11 = stablehlo.dot_general %10, %2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
      %12 = stablehlo.transpose %11, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
      %13 = "stablehlo.all_reduce"(%12) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %20 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %20 : tensor<f32>
      }) : (tensor<4x3xf32>) -> tensor<4x3xf32>
      %cst_1 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
      %15 = stablehlo.divide %13, %14 : tensor<4x3xf32>
      %cst_2 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
      %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
      %17 = stablehlo.multiply %16, %15 : tensor<4x3xf32>
      %18 = stablehlo.subtract %1, %17 : tensor<4x3xf32>
      %19 = stablehlo.broadcast_in_dim %18, dims = [1, 2] : (tensor<4x3xf32>) -> tensor<1x4x3xf32>
      sdy.return %19 : tensor<1x4x3xf32>
    } : (tensor<8x4x3xf32>, tensor<8x2x4xf32>) -> tensor<8x4x3xf32>
    return %0 : tensor<8x4x3xf32>
  }
}
