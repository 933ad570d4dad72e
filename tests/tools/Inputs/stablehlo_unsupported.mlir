module @jit_f {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = chlo.zeta %arg0, %arg0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
