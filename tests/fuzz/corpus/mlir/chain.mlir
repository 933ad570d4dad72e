// Four matmuls in a chain: each temporary is dead once the next one is
// computed, but the deallocation pass frees them all at the end.
func.func @chain(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = torus.dot_general %x, %x, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = torus.dot_general %a, %x, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = torus.dot_general %b, %x, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = torus.dot_general %c, %x, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = torus.all_reduce sum %d : tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}
