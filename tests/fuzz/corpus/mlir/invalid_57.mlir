func.func @scatter_pred_sum(%t: tensor<10xi1>, %ids: tensor<3xi32>, %u: tensor<3xi1>) -> tensor<10xi1> {
  %0 = torus.scatter sum %t[%ids], %u, update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10xi1>, tensor<3xi32>, tensor<3xi1>) -> tensor<10xi1>
  return %0 : tensor<10xi1>
}
