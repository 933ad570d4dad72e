// a . b of two vectors, a rank-0 result.
func.func @vector_dot(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<f32> {
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
