// tanh of f32 (tests/data/stablehlo/make_tanh_f32.py has XLA's values).
module @tanh_f32 {
  func.func public @main(%x: tensor<512xf32>) -> tensor<512xf32> {
    %0 = stablehlo.tanh %x : tensor<512xf32>
    return %0 : tensor<512xf32>
  }
}
