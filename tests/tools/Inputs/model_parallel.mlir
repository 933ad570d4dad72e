// The seed's model-parallel step (experimental_split_to_logical_devices):
// 4 logical devices as a 2x2 grid; the batch is split over one axis, the
// hidden layer over the other, and the loss is replicated.
func.func @mlp(%x: tensor<8x16xf32> {torus.sharding = "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}"},
               %w1: tensor<16x32xf32> {torus.sharding = "{devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}"},
               %w2: tensor<32x4xf32> {torus.sharding = "{replicated}"})
    -> (tensor<8x4xf32> {torus.sharding = "{replicated}"}) {
  %h = torus.dot_general %x, %w1, batching_dims = [] x [], contracting_dims = [1] x [0] {torus.sharding = "{devices=[2,2]0,1,2,3}"} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %zero = torus.constant dense<0.0> : tensor<8x32xf32>
  %r = torus.maximum %h, %zero : tensor<8x32xf32>
  %y = torus.dot_general %r, %w2, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
