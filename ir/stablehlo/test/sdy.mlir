// Tests that Shardy's meshes and shardings parse and print as JAX writes
// them, and that torus-convert-stablehlo turns them into #torus.sharding
// (XLA's HloSharding for the same mesh axes).
// RUN: torus-opt %s --split-input-file | torus-opt --split-input-file | FileCheck %s --check-prefix=PRINT
// RUN: torus-opt %s --split-input-file --torus-convert-stablehlo -verify-diagnostics | FileCheck %s

// PRINT: sdy.mesh @mesh = <["x"=4, "y"=2]>
// PRINT: #sdy.sharding<@mesh, [{"x"}, {}]>
// PRINT: #sdy.sharding<@mesh, [{}, {"y", ?}p1], replicated={"x"}>
// PRINT: sdy.sharding_constraint %{{.*}} <@mesh, [{"x"}, {"y"}]> : tensor<8x4xf32>
// CHECK-LABEL: module @jit_f attributes {torus.num_partitions = 8 : i64, torus.num_replicas = 1 : i64}
// CHECK-NOT: sdy.mesh
// Dimension 0 over x (4 tiles), y unused: replicated over it, last.
// CHECK: %arg0: tensor<8x16xf32> {torus.sharding = #torus.sharding<"{devices=[4,1,2]<=[8] last_tile_dim_replicate}">}
// Dimension 1 over y: the tile assignment has y major, x (replicated) minor.
// CHECK-SAME: %arg1: tensor<16x4xf32> {torus.sharding = #torus.sharding<{devices=[1,2,4]0,2,4,6,1,3,5,7 last_tile_dim_replicate}>}
// CHECK-SAME: -> (tensor<4xf32> {jax.result_info = "result", torus.sharding = #torus.sharding<{replicated}>})
// CHECK: torus.sharding_constraint %{{.*}}, sharding = {devices=[4,2]<=[8]} : tensor<8x4xf32>
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", ?}p1], replicated={"x"}>}) -> (tensor<4xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {"y"}]> : tensor<8x4xf32>
    %2 = stablehlo.tanh %1 : tensor<8x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}

// -----

// PRINT: sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%{{.*}}: tensor<1x4xf32>) {
// PRINT: sdy.return %{{.*}} : tensor<1x4xf32>
// PRINT-NEXT: } : (tensor<8x4xf32>) -> tensor<8x4xf32>
module @jit_pmap attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=8]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}) -> tensor<8x4xf32> {
    // expected-error @+2 {{'sdy.manual_computation' (shard_map, pmap) is not supported yet}}
    // expected-error @+1 {{failed to legalize operation 'sdy.manual_computation'}}
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%arg1: tensor<1x4xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
      sdy.return %1 : tensor<1x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
