func.func @reduce_window_stride(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  %0 = torus.reduce_window max %a, window = [2, 2] {window_strides = array<i64: 2, 0>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
