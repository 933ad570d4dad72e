// Tests that #torus.sharding parses HLO's spellings (explicit and iota
// device lists, transposed iota, replication flags) and prints them back in
// HLO's canonical form, on ops, arguments and results.
// RUN: torus-opt %s | torus-opt | FileCheck %s

// CHECK-LABEL: func.func @kinds
// CHECK-SAME: {torus.sharding = #torus.sharding<{replicated}>}
// CHECK-SAME: {torus.sharding = #torus.sharding<{maximal device=1}>}
// CHECK-SAME: {torus.sharding = #torus.sharding<{manual}>}
// CHECK-SAME: -> (tensor<8x16xf32> {torus.sharding = #torus.sharding<"{devices=[2,1]<=[2]}">})
func.func @kinds(%a: tensor<8x16xf32> {torus.sharding = #torus.sharding<{replicated}>},
                 %b: tensor<8x16xf32> {torus.sharding = #torus.sharding<{maximal device=1}>},
                 %c: tensor<8x16xf32> {torus.sharding = #torus.sharding<{manual}>})
    -> (tensor<8x16xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>}) {
  return %a : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @device_lists
func.func @device_lists(%x: tensor<8x32x32x3xf32>) -> tensor<8x32x32x3xf32> {
  // An explicit iota list prints in the iota form.
  // CHECK: torus.sharding_constraint %{{.*}}, sharding = {devices=[1,2,4,1]<=[8]} : tensor<8x32x32x3xf32>
  %0 = torus.sharding_constraint %x, sharding = {devices=[1,2,4,1]0,1,2,3,4,5,6,7} : tensor<8x32x32x3xf32>
  // A permuted list stays explicit; <=[2,4]T(1,0) is 0,4,1,5,2,6,3,7.
  // CHECK: sharding = {devices=[1,2,4,1]0,4,1,5,2,6,3,7}
  %1 = torus.sharding_constraint %0, sharding = {devices=[1,2,4,1]<=[2,4]T(1,0)} : tensor<8x32x32x3xf32>
  // CHECK: sharding = {devices=[1,4,1,1,2]<=[8] last_tile_dim_replicate}
  %2 = torus.sharding_constraint %1, sharding = {devices=[1,4,1,1,2]<=[8] last_tile_dims={replicated}} : tensor<8x32x32x3xf32>
  // CHECK: sharding = {devices=[2,1,1,1,4]3,2,1,0,7,6,5,4 last_tile_dim_replicate}
  %3 = torus.sharding_constraint %2, sharding = {devices=[2,1,1,1,4]3,2,1,0,7,6,5,4 last_tile_dim_replicate} : tensor<8x32x32x3xf32>
  return %3 : tensor<8x32x32x3xf32>
}

// Shardings on op results: one for a single result, an array otherwise. The
// iota form prints quoted (MLIR's attribute syntax cannot hold its '<'); both
// forms parse.
// CHECK-LABEL: func.func @on_ops
// CHECK: torus.add %{{.*}}, %{{.*}} {torus.sharding = #torus.sharding<"{devices=[2]<=[2]}">} : tensor<4xf32>
// CHECK: torus.argmax %{{.*}}, dimension = 0 {torus.sharding = [#torus.sharding<{replicated}>, #torus.sharding<{maximal device=0}>]}
func.func @on_ops(%a: tensor<4xf32>) -> tensor<i32> {
  %0 = torus.add %a, %a {torus.sharding = #torus.sharding<"{devices=[2]<=[2]}">} : tensor<4xf32>
  %v, %i = torus.argmax %0, dimension = 0 {torus.sharding = [#torus.sharding<{replicated}>, #torus.sharding<{maximal device=0}>]} : (tensor<4xf32>) -> (tensor<f32>, tensor<i32>)
  return %i : tensor<i32>
}
