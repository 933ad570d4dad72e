func.func @step(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.add %a, %a : tensor<4xf32
  return %0 : tensor<4xf32>
}
