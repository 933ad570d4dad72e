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

// A manual computation over every mesh axis is the program of each device:
// its body, on each device's shard, as 8 replicas of one partition; the
// groups name devices, partition_id is the device's (d % 8).
// PRINT: sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%{{.*}}: tensor<2x2xf32>) {
// PRINT: sdy.return %{{.*}} : tensor<2x2xf32>
// PRINT-NEXT: } : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-LABEL: module @jit_smap attributes {torus.num_partitions = 1 : i64, torus.num_replicas = 8 : i64}
// The global arrays' types and shardings stay on the arguments and results.
// CHECK: func.func public @main(%[[X:[^:]*]]: tensor<2x2xf32> {torus.global_sharding = #torus.sharding<"{devices=[4,2]<=[8]}">, torus.global_type = tensor<8x4xf32>}) -> (tensor<2x2xf32> {jax.result_info = "result", torus.global_sharding = #torus.sharding<"{devices=[4,2]<=[8]}">, torus.global_type = tensor<8x4xf32>})
// CHECK-NEXT: %[[SUM:.*]] = torus.all_reduce sum %[[X]] {replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>} : tensor<2x2xf32>
// CHECK-NEXT: %[[D:.*]] = torus.replica_id : tensor<ui32>
// CHECK-NEXT: %[[P:.*]] = torus.constant dense<8> : tensor<ui32>
// CHECK-NEXT: torus.remainder %[[D]], %[[P]] : tensor<ui32>
// CHECK-NOT: sdy.
// CHECK: return
module @jit_smap attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<2x2xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
      %p = stablehlo.partition_id : tensor<ui32>
      %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
      %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
      %2 = stablehlo.add %1, %b : tensor<2x2xf32>
      sdy.return %2 : tensor<2x2xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// A shard_map over some of the mesh axes is refused, naming the others.
module @jit_partial attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    // expected-error @+1 {{a manual computation (shard_map) that leaves mesh axes {"y"} automatic is not supported}}
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x4xf32>) {
      sdy.return %arg1 : tensor<2x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// Its operands must be the entry's arguments, given to each device as its
// shard, not values computed before it.
module @jit_computed_input attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=8]>
  func.func public @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %n = stablehlo.negate %arg0 : tensor<8x4xf32>
    // expected-error @+1 {{operand 0 of a manual computation (shard_map, pmap) is not an argument of @main}}
    %0 = sdy.manual_computation(%n) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%arg1: tensor<1x4xf32>) {
      sdy.return %arg1 : tensor<1x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// Its results must be the entry's results.
module @jit_used_result attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=8]>
  func.func public @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%arg1: tensor<1x4xf32>) {
      sdy.return %arg1 : tensor<1x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    // expected-error @+1 {{uses result 0 of a manual computation (shard_map, pmap), which Torus runs as the program of each device}}
    %1 = stablehlo.negate %0 : tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}
