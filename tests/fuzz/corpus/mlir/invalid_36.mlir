func.func @argmax_dim(%a: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = torus.argmax %a, dimension = 2 : (tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}
