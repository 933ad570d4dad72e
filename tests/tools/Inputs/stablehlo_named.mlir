// StableHLO whose arguments are named as written (%x, %w), not %argN.
func.func public @main(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<2x3xf32>
  %1 = stablehlo.subtract %0, %w : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
