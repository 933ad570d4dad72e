// -x in bf16 and x widened to f32, for tests/tools/torus-run-bf16.mlir.
func.func @step(%x: tensor<4xbf16>) -> (tensor<4xbf16>, tensor<4xf32>) {
  %neg = torus.negate %x : tensor<4xbf16>
  %wide = torus.convert %x : (tensor<4xbf16>) -> tensor<4xf32>
  return %neg, %wide : tensor<4xbf16>, tensor<4xf32>
}
