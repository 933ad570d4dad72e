// Tests the export of collectives, ids and random bits: replica groups,
// HLO's unsigned ids and rng state (bit-preserving converts around them),
// and all_to_all with split and concat dimensions that differ (HLO's array
// all-to-all between reshapes and transposes). The module's replica count
// becomes the header's replica_count.
// RUN: torusc %s --emit=hlo -o %t.hlo
// RUN: FileCheck %s --input-file=%t.hlo
// The first import turns the converts around HLO's unsigned ids and rng
// state into ui32/ui64 values and converts of their own, so the text is a
// fixed point from the second export on.
// RUN: torusc %t.hlo --emit=hlo -o %t2.hlo
// RUN: torusc %t2.hlo --emit=hlo | diff %t2.hlo -
// RUN: torusc %t.hlo --emit=torus | FileCheck %s --check-prefix=TORUS

// CHECK-LABEL: HloModule collectives, entry_computation_layout={{.*}}, replica_count=4
// TORUS: module @collectives attributes {torus.num_replicas = 4 : i64}
module @collectives attributes {torus.num_replicas = 4 : i64} {
// CHECK-LABEL: ENTRY %step
func.func @step(%x: tensor<2x4xf32>, %y: tensor<4x2xf32>, %s: tensor<2xi64>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>,
        tensor<8x1xf32>, tensor<1x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>,
        tensor<2xi64>, tensor<3x3xi32>) {
  // CHECK: all-reduce(f32[2,4]{1,0} %x), replica_groups={}, to_apply=%sum_f32
  // TORUS: torus.all_reduce sum %{{.*}} : tensor<2x4xf32>
  %0 = torus.all_reduce sum %x : tensor<2x4xf32>
  // CHECK: all-reduce(f32[2,4]{1,0} %x), replica_groups={{[{][{]}}0,2},{1,3{{[}][}]}}, to_apply=%min_f32
  // TORUS: torus.all_reduce min %{{.*}} {replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>}
  %1 = torus.all_reduce min %x {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<2x4xf32>
  // CHECK: f32[8,4]{1,0} all-gather(f32[2,4]{1,0} %x), replica_groups={}, dimensions={0}
  // TORUS: torus.all_gather %{{.*}}, all_gather_dim = 0
  %2 = torus.all_gather %x, all_gather_dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf32>
  // CHECK: f32[1,4]{1,0} reduce-scatter(f32[2,4]{1,0} %x), replica_groups={{[{][{]}}0,1},{2,3{{[}][}]}}, dimensions={0}, to_apply=%sum_f32
  // TORUS: torus.reduce_scatter sum %{{.*}}, scatter_dimension = 0 {replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>}
  %3 = torus.reduce_scatter sum %x, scatter_dimension = 0 {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<1x4xf32>
  // CHECK: f32[2,4]{1,0} all-to-all(f32[2,4]{1,0} %x), replica_groups={}, dimensions={1}
  // TORUS: torus.all_to_all %{{.*}}, split_dimension = 1, concat_dimension = 1, split_count = 4
  %4 = torus.all_to_all %x, split_dimension = 1, concat_dimension = 1, split_count = 4 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  // CHECK: %[[R1:reshape.[0-9]+]] = f32[2,4,1]{2,1,0} reshape(f32[2,4]{1,0} %x)
  // CHECK-NEXT: %[[T1:transpose.[0-9]+]] = f32[4,2,1]{2,1,0} transpose(f32[2,4,1]{2,1,0} %[[R1]]), dimensions={1,0,2}
  // CHECK-NEXT: %[[A:all-to-all.[0-9]+]] = f32[4,2,1]{2,1,0} all-to-all(f32[4,2,1]{2,1,0} %[[T1]]), replica_groups={}, dimensions={0}
  // CHECK-NEXT: %[[T2:transpose.[0-9]+]] = f32[4,2,1]{2,1,0} transpose(f32[4,2,1]{2,1,0} %[[A]]), dimensions={0,1,2}
  // CHECK-NEXT: f32[8,1]{1,0} reshape(f32[4,2,1]{2,1,0} %[[T2]])
  // TORUS: torus.reshape
  // TORUS-NEXT: torus.transpose
  // TORUS-NEXT: torus.all_to_all %{{.*}}, split_dimension = 0, concat_dimension = 0, split_count = 4
  // TORUS-NEXT: torus.transpose
  // TORUS-NEXT: torus.reshape
  %5 = torus.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4 : (tensor<2x4xf32>) -> tensor<8x1xf32>
  // CHECK: f32[4,1,2]{2,1,0} reshape(f32[4,2]{1,0} %y)
  // CHECK: f32[1,4,2]{2,1,0} transpose(f32[4,1,2]{2,1,0} %{{.*}}), dimensions={1,0,2}
  // CHECK-NEXT: f32[1,8]{1,0} reshape
  %6 = torus.all_to_all %y, split_dimension = 0, concat_dimension = 1, split_count = 4 : (tensor<4x2xf32>) -> tensor<1x8xf32>
  // CHECK: collective-permute(f32[2,4]{1,0} %x), source_target_pairs={{[{][{]}}0,1},{1,2},{2,3},{3,0{{[}][}]}}
  // TORUS: torus.collective_permute %{{.*}}, source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>
  %7 = torus.collective_permute %x, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64> : tensor<2x4xf32>
  // CHECK: %[[RID:replica-id.[0-9]+]] = u32[] replica-id()
  // CHECK-NEXT: s32[] convert(u32[] %[[RID]])
  // TORUS: torus.replica_id : tensor<ui32>
  %8 = torus.replica_id : tensor<i32>
  // CHECK: %[[PID:partition-id.[0-9]+]] = u32[] partition-id()
  // CHECK-NEXT: s32[] convert(u32[] %[[PID]])
  // TORUS: torus.partition_id : tensor<ui32>
  %9 = torus.partition_id : tensor<i32>
  // CHECK: %[[STATE:convert.[0-9]+]] = u64[2]{0} convert(s64[2]{0} %s)
  // CHECK-NEXT: %[[RNG:rng-bit-generator.[0-9]+]] = (u64[2]{0}, u32[3,3]{1,0}) rng-bit-generator(u64[2]{0} %[[STATE]]), algorithm=rng_three_fry
  // CHECK-NEXT: get-tuple-element((u64[2]{0}, u32[3,3]{1,0}) %[[RNG]]), index=0
  // CHECK-NEXT: s64[2]{0} convert(
  // CHECK-NEXT: get-tuple-element((u64[2]{0}, u32[3,3]{1,0}) %[[RNG]]), index=1
  // CHECK-NEXT: s32[3,3]{1,0} convert(
  // TORUS: torus.rng_bit_generator THREE_FRY %{{.*}} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x3xui32>)
  %s1, %bits = torus.rng_bit_generator THREE_FRY %s : (tensor<2xi64>) -> (tensor<2xi64>, tensor<3x3xi32>)
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %s1, %bits
      : tensor<2x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>,
        tensor<8x1xf32>, tensor<1x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>,
        tensor<2xi64>, tensor<3x3xi32>
}
}
