func.func @broadcast_rank(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = torus.broadcast_in_dim %a, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
