func.func @all_to_all_count(%a: tensor<4x4xf32>) -> tensor<1x16xf32> {
  %0 = torus.all_to_all %a, split_dimension = 0, concat_dimension = 1, split_count = 4 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4x4xf32>) -> tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}
