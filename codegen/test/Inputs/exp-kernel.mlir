// exp(x - max(x)) over rows: the kernel of a softmax.
func.func @softmax_like(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %m = torus.reduce max %x, dims = [1] : (tensor<16x64xf32>) -> tensor<16xf32>
  %mb = torus.broadcast_in_dim %m, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
  %d = torus.subtract %x, %mb : tensor<16x64xf32>
  %e = torus.exp %d : tensor<16x64xf32>
  return %e : tensor<16x64xf32>
}
