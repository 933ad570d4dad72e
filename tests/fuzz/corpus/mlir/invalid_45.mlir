func.func @conv_strides(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {window_strides = array<i64: 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
