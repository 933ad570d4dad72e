func.func @add_mismatched(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %0 = torus.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
