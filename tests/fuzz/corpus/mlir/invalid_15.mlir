func.func @unknown_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  %0 = torus.compare XX, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
