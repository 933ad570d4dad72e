// A data-parallel step on 8 replicas, checked against NumPy by
// tests/tools/torus-run-npy.mlir with the data tests/data/make_allreduce8.py
// wrote:
// every replica r multiplies its own batch x[r] by the shared weights w, then
//   result 0: sum over replicas of x[r]^T (x[r] w)     (all_reduce sum)
//   result 1: max of x[r] w over the replicas of r's parity group
//   result 2: sum over replicas of r * (x[r] w)         (replica_id)
func.func @step(%x: tensor<8x4xf32>, %w: tensor<4x3xf32>)
    -> (tensor<4x3xf32>, tensor<8x3xf32>, tensor<8x3xf32>) {
  %y = torus.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %g = torus.dot_general %x, %y, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %gsum = torus.all_reduce sum %g : tensor<4x3xf32>
  %ymax = torus.all_reduce max %y {replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>} : tensor<8x3xf32>
  %id = torus.replica_id : tensor<i32>
  %idf = torus.convert %id : (tensor<i32>) -> tensor<f32>
  %idb = torus.broadcast_in_dim %idf, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
  %yw = torus.multiply %y, %idb : tensor<8x3xf32>
  %ysum = torus.all_reduce sum %yw : tensor<8x3xf32>
  return %gsum, %ymax, %ysum : tensor<4x3xf32>, tensor<8x3xf32>, tensor<8x3xf32>
}
