// Tests that with several partitions per replica, collectives export in
// HLO's flattened-id mode (channel_id, use_global_device_ids=true), since
// Torus groups name logical devices r * P + p, and that the text reads back
// to the same groups. Ops and arguments keep their #torus.sharding.
// RUN: torusc %s --emit=hlo -o %t.hlo
// RUN: FileCheck %s --input-file=%t.hlo
// RUN: torusc %t.hlo --emit=hlo | diff %t.hlo -
// RUN: torusc %t.hlo --emit=torus | FileCheck %s --check-prefix=TORUS

// CHECK: HloModule spmd, entry_computation_layout={(f32[8,4]{1,0})->f32[8,4]{1,0}}, replica_count=2, num_partitions=2
// TORUS: module @spmd attributes {torus.num_partitions = 2 : i64, torus.num_replicas = 2 : i64}
module @spmd attributes {torus.num_replicas = 2 : i64, torus.num_partitions = 2 : i64} {
// CHECK: %x = f32[8,4]{1,0} parameter(0), sharding={devices=[2,1]1,0}
// TORUS: func.func @step(%{{.*}}: tensor<8x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]1,0}>})
func.func @step(%x: tensor<8x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]1,0}>}) -> tensor<8x4xf32> {
  // CHECK: all-reduce(f32[8,4]{1,0} %x), channel_id=1, replica_groups={{[{][{]}}0,2},{1,3{{[}][}]}}, use_global_device_ids=true, to_apply=%sum_f32, sharding={replicated}
  // TORUS: torus.all_reduce sum %{{.*}} {replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, torus.sharding = #torus.sharding<{replicated}>}
  %0 = torus.all_reduce sum %x {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, torus.sharding = #torus.sharding<{replicated}>} : tensor<8x4xf32>
  // Without groups: every device.
  // CHECK: ROOT {{.*}} all-reduce({{.*}}), channel_id=2, replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}, use_global_device_ids=true, to_apply=%max_f32
  %1 = torus.all_reduce max %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
}
