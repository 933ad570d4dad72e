func.func @contractions(%a: tensor<4x2x8xf32>, %b: tensor<4x8x5xf32>) -> (tensor<4x2x5xf32>, tensor<4xf32>) {
  %0 = torus.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x8xf32>, tensor<4x8x5xf32>) -> tensor<4x2x5xf32>
  %1 = torus.reduce max %0, dims = [1, 2] : (tensor<4x2x5xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4x2x5xf32>, tensor<4xf32>
}
