func.func @pad_value_shape(%a: tensor<2x3xf32>, %v: tensor<1xf32>) -> tensor<2x3xf32> {
  %0 = torus.pad %a, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
