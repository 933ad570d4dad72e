func.func @reduce_missing_dim(%a: tensor<4x3xf32>) -> tensor<4xf32> {
  %0 = torus.reduce sum %a, dims = [2] : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
