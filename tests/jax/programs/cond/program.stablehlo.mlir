module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i1>, %arg1: tensor<4x4xf32>, %arg2: tensor<4x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %2 = stablehlo.transpose %arg2, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %3 = stablehlo.subtract %arg1, %2 : tensor<4x4xf32>
      stablehlo.return %3 : tensor<4x4xf32>
    }, {
      %2 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      stablehlo.return %2 : tensor<4x4xf32>
    }) : (tensor<i32>) -> tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
}
