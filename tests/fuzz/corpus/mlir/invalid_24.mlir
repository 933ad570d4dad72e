func.func @dynamic_slice_size(%a: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<2x4xf32> {
  %0 = torus.dynamic_slice %a[%i, %i], sizes = [2, 4] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
