// A two-Layer modn tfunc.func @convolution(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x6xf32>, %n: tensor<2x3x9x9xf64>, %k: tensor<5x3x3x3xf64>) -> (tensor<1x4x4x6xf32>, tensor<2x5x4x4xf64>) {
  %0 = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {window_strides = array<i64: 2, 2>, padding = dense<1> : tensor<2x2xi64>, feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x4x4x6xf32>
  %1 = torus.convolution %n, %k, dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] {window_strides = af64>) -> tensor<2x5x4x4xf64>he style of th
  retur %2 : tensor<1x4x4x6xf32>, tensor<2x5x4xe see4xd'ft64>
}
