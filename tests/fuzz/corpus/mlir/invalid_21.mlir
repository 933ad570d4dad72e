func.func @slice_rank(%a: tensor<4x3xf32>) -> tensor<2xf32> {
  %0 = torus.slice %a, start_indices = [0], limit_indices = [2, 2], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
