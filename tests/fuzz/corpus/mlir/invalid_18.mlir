func.func @transpose_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = torus.transpose %a, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
