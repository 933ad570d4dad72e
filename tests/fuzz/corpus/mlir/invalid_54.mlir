func.func @scatter_batch(%t: tensor<10x4xf32>, %ids: tensor<3xi32>, %u: tensor<2x4xf32>) -> tensor<10x4xf32> {
  %0 = torus.scatter sum %t[%ids], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<2x4xf32>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}
