func.func @permute_pairs_shape(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.collective_permute %a, source_target_pairs = dense<[[0, 1, 2], [2, 1, 0]]> : tensor<2x3xi64> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
