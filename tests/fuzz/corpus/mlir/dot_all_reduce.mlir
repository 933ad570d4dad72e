func.func @step(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %0 = torus.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %1 = torus.all_reduce sum %0 {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
