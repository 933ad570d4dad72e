func.func @aliased(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %s = torus.add %a, %b : tensor<3xf32>
  return %a, %s, %s, %a : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
