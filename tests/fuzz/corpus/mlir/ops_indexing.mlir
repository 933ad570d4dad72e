func.func @indexing(%table: tensor<10x4xf32>, %ids: tensor<3xi32>, %rows: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<10x4xf32>) {
  %0 = torus.gather %table[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] {indices_are_sorted} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  %1 = torus.scatter replace %table[%ids], %rows, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<10x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<10x4xf32>
}
