func.func @if_branch_types(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = torus.if %p -> (tensor<f32>) {
    torus.return %x : tensor<f32>
  } else {
    torus.return %p : tensor<i1>
  }
  return %0 : tensor<f32>
}
