func.func @step(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
