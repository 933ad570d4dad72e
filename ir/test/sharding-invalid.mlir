// Tests that malformed shardings are rejected with messages that say what
// is wrong: device lists that do not fill the tile assignment, repeated
// devices, tile dimensions that do not match the tensor's rank, devices
// beyond the module's partition count.
// RUN: torus-opt %s -split-input-file -verify-diagnostics

func.func @too_few_devices(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{tile assignment [2,2] has 4 tiles but the device list has 3 devices}}
  %0 = torus.sharding_constraint %x, sharding = {devices=[2,2]0,1,2} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

func.func @repeated_device(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{device 1 appears twice in the tile assignment}}
  %0 = torus.sharding_constraint %x, sharding = {devices=[1,2]1,1} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

func.func @rank_mismatch(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'torus.sharding_constraint' op sharding {devices=[1,2,4,1]<=[8]} has 4 tile dimensions but the tensor [8,16] has rank 2}}
  %0 = torus.sharding_constraint %x, sharding = {devices=[1,2,4,1]<=[8]} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

func.func @zero_tiles(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{tile dimensions must be positive, got [0,2]}}
  %0 = torus.sharding_constraint %x, sharding = {devices=[0,2]0} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

func.func @unknown_kind(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{expected 'replicated', 'maximal', 'devices' or 'manual', got 'tiles'}}
  %0 = torus.sharding_constraint %x, sharding = {tiles=[2,1]} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

func.func @bad_transpose(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{the transpose must permute the iota's dimensions}}
  %0 = torus.sharding_constraint %x, sharding = {devices=[2,2]<=[2,2]T(0,0)} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

module attributes {torus.num_partitions = 2 : i64} {
  func.func @beyond_partitions(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{'torus.sharding_constraint' op sharding {devices=[2,2]<=[4]} spans 4 devices but the program has 2 partitions}}
    %0 = torus.sharding_constraint %x, sharding = {devices=[2,2]<=[4]} : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module attributes {torus.num_partitions = 2 : i64} {
  func.func @maximal_beyond(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{'torus.sharding_constraint' op sharding {maximal device=3} names device 3 but the program has 2 partitions}}
    %0 = torus.sharding_constraint %x, sharding = {maximal device=3} : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// expected-error @+1 {{a tiled sharding needs at least one tile dimension}}
func.func @no_tile_dims(%x: tensor<8xf32> {torus.sharding = #torus.sharding<{devices=[]0}>}) {
  return
}
