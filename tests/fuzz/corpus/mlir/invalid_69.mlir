func.func @all_gather_groups(%a: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %0 = torus.all_gather %a, all_gather_dim = 0 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
