// 1 GiB output per replica from a scalar argument: fits any core, but eight
// replicas need 16 GiB of host memory (device buffers and host copies).
func.func @out1g(%c: tensor<f32>) -> tensor<256x1024x1024xf32> {
  %b = torus.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<256x1024x1024xf32>
  return %b : tensor<256x1024x1024xf32>
}
