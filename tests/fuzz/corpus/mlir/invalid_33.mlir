func.func @reverse_dim(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = torus.reverse %a, dims = [2] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
