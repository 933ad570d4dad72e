func.func @reductions(%x: tensor<2x8x8x3xf32>, %b: tensor<4x5xi1>) -> (tensor<2x4x4x3xf32>, tensor<2xf32>, tensor<2xi32>, tensor<4xi1>) {
  %0 = torus.reduce_window max %x, window = [1, 3, 3, 1] {window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32>
  %r = torus.reshape %x : (tensor<2x8x8x3xf32>) -> tensor<2x192xf32>
  %1:2 = torus.argmin %r, dimension = 1 : (tensor<2x192xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  %2 = torus.reduce or %b, dims = [1] : (tensor<4x5xi1>) -> tensor<4xi1>
  return %0, %1#0, %1#1, %2 : tensor<2x4x4x3xf32>, tensor<2xf32>, tensor<2xi32>, tensor<4xi1>
}
