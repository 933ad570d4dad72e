// A 1 GiB output from a constant splat: the broadcast folds into a splat
// constant of 256x1024x1024 elements.
func.func @splat1g() -> tensor<256x1024x1024xf32> {
  %c = torus.constant dense<1.0> : tensor<f32>
  %b = torus.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<256x1024x1024xf32>
  return %b : tensor<256x1024x1024xf32>
}
