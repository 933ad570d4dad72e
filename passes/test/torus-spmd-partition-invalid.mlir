// Tests that the partitioner rejects what it cannot partition with a
// message at the op: resharding between manual and other shardings, calls
// that were not inlined, arguments whose shardings do not fit.
// RUN: torus-opt %s --split-input-file --torus-spmd-partition -verify-diagnostics

module attributes {torus.num_partitions = 2 : i64} {
  func.func @manual(%x: tensor<8xf32> {torus.sharding = #torus.sharding<{manual}>}) -> tensor<8xf32> {
    // expected-error @+1 {{cannot reshard {manual} to {devices=[2]<=[2]}: manual shardings only meet manual shardings}}
    %0 = torus.tanh %x {torus.sharding = #torus.sharding<{devices=[2]0,1}>} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {torus.num_partitions = 2 : i64} {
  func.func private @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    return %x : tensor<8xf32>
  }
  func.func @call(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{torus.call must be inlined before partitioning (run --torus-sharding-propagation first)}}
    %0 = torus.call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {torus.num_partitions = 4 : i64} {
  // expected-error @+1 {{argument 0: sharding {devices=[2]<=[2]} spans 2 devices but the program has 4 partitions}}
  func.func @arg(%x: tensor<8xf32> {torus.sharding = #torus.sharding<{devices=[2]0,1}>}) -> tensor<8xf32> {
    return %x : tensor<8xf32>
  }
}
