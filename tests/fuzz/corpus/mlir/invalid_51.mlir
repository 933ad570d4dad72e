func.func @gather_offset_dims(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) -> tensor<3x4xf32> {
  %0 = torus.gather %t[%ids], offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
