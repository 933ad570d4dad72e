module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xbf16>, %arg1: tensor<32x24xbf16>) -> (tensor<16x24xbf16> {jax.result_info = "result[0]"}, tensor<16x24xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xbf16>, tensor<32x24xbf16>) -> tensor<16x24xbf16>
    %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xbf16>, tensor<32x24xbf16>) -> tensor<16x24xf32>
    return %0, %1 : tensor<16x24xbf16>, tensor<16x24xf32>
  }
}
