// Tests that shardings that do not fit the program are rejected, naming the
// value: a device count other than the partition count, tile dimensions
// that do not match the rank, devices beyond the partitions, unparsable
// HLO text.
// RUN: torus-opt %s --split-input-file --torus-sharding-propagation -verify-diagnostics

module attributes {torus.num_partitions = 4 : i64} {
  // expected-error @+1 {{argument 0: sharding {devices=[1,2]<=[2]} spans 2 devices but the program has 4 partitions}}
  func.func @device_count(%x: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>}) -> tensor<8x16xf32> {
    return %x : tensor<8x16xf32>
  }
}

// -----

module attributes {torus.num_partitions = 2 : i64} {
  // expected-error @+1 {{argument 0: sharding {devices=[2]<=[2]} has 1 tile dimension but the tensor [8,16] has rank 2}}
  func.func @rank(%x: tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2]0,1}>}) -> tensor<8x16xf32> {
    return %x : tensor<8x16xf32>
  }
}

// -----

module attributes {torus.num_partitions = 2 : i64} {
  func.func @op_attr(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{'torus.tanh' op sharding {maximal device=2} names device 2 but the program has 2 partitions}}
    %0 = torus.tanh %x {torus.sharding = #torus.sharding<{maximal device=2}>} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module attributes {torus.num_partitions = 2 : i64} {
  // expected-error @+1 {{argument 0: bad sharding '{devices=[2]0}': tile assignment [2] has 2 tiles but the device list has 1 devices}}
  func.func @bad_text(%x: tensor<8xf32> {torus.sharding = "{devices=[2]0}"}) -> tensor<8xf32> {
    return %x : tensor<8xf32>
  }
}

// -----

module attributes {torus.num_partitions = 2 : i64} {
  func.func @not_a_sharding(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{'torus.tanh' op has a torus.sharding attribute that is not a sharding (or not one per result)}}
    %0 = torus.tanh %x {torus.sharding = 3 : i64} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
