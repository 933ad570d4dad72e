// A two-layer model-parallel MLP in the style of the seed's
// experimental_split_to_logical_devices example: the batch is split over
// two logical devices, the hidden layer's weights over the other axis.
// The shardings are annotations only (issue 7 builds the passes that use
// them); torusc draws them as colours with --dump-dot.
func.func @mlp(%x: tensor<8x16xf32> {torus.sharding = "{devices=[2,1]0,1}"},
               %w1: tensor<16x32xf32> {torus.sharding = "{devices=[1,2]0,1}"},
               %w2: tensor<32x4xf32> {torus.sharding = "{replicated}"})
    -> (tensor<8x4xf32> {torus.sharding = "{replicated}"}) {
  %h = torus.dot_general %x, %w1, batching_dims = [] x [], contracting_dims = [1] x [0] {torus.sharding = "{devices=[2,2]0,1,2,3}"} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %zero = torus.constant dense<0.0> : tensor<8x32xf32>
  %r = torus.maximum %h, %zero {torus.sharding = "{devices=[2,2]0,1,2,3}"} : tensor<8x32xf32>
  %y = torus.dot_general %r, %w2, batching_dims = [] x [], contracting_dims = [1] x [0] {torus.sharding = "{replicated}"} : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
  %s = torus.all_reduce sum %y : tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}
