func.func @call_unknown(%x: tensor<f32>) -> tensor<f32> {
  %0 = torus.call @nowhere(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
