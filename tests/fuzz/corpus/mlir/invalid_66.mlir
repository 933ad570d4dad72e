func.func @select_pred_shape(%p: tensor<2xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.select %p, %a, %a : tensor<2xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}
