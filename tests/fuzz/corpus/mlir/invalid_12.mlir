func.func @overlapping_groups(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.all_reduce sum %a {replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
