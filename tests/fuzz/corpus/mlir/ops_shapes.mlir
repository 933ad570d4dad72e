func.func @shapes(%v: tensor<3xf32>, %m: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xi32>) {
  %c = torus.constant dense<1.5> : tensor<f32>
  %0 = torus.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = torus.transpose %m, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = torus.reshape %m : (tensor<2x3xf32>) -> tensor<6xf32>
  %3 = torus.convert %2 : (tensor<6xf32>) -> tensor<6xi32>
  %s = torus.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %4 = torus.add %0, %s : tensor<2x3xf32>
  return %4, %1, %3 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xi32>
}
