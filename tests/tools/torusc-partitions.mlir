// Tests torusc on a model-parallel program: 4 partitions per replica run
// the sharding and SPMD stages (local shapes, the collectives resharding
// needs), the dumps show both stages and their graphs, the reports count
// replicas x partitions, the AOT metadata places every logical device, and
// torus-run says it cannot split inputs for an AOT partitioned program.
// RUN: torusc %S/Inputs/model_parallel.mlir --num-partitions=4 --emit=spmd | FileCheck %s --check-prefix=SPMD
// RUN: rm -rf %t && torusc %S/Inputs/model_parallel.mlir --topology=v3-8 --computation-shape=1x2x1x2 --dump-dir=%t --dump-dot --emit=obj -o %t/mlp.o
// RUN: ls %t | LC_ALL=C sort | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=COLLECTIVES < %t/module_0000.mlp.collectives.txt
// RUN: FileCheck %s --check-prefix=META < %t/mlp.torus.json
// RUN: FileCheck %s --check-prefix=DOT < %t/module_0000.mlp.spmd.dot
// RUN: not torus-run %t/mlp.torus.json 2>&1 | FileCheck %s --check-prefix=RUNERR
// RUN: not torusc %S/Inputs/model_parallel.mlir --num-partitions=2 --emit=spmd 2>&1 | FileCheck %s --check-prefix=MISMATCH

// SPMD: module attributes {torus.num_partitions = 4 : i64, torus.num_replicas = 1 : i64}
// SPMD: func.func @mlp(%arg0: tensor<4x16xf32>
// SPMD: torus.partition_id
// SPMD: torus.dot_general {{.*}} -> tensor<4x16xf32>
// SPMD: torus.all_reduce sum {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]>
// SPMD: torus.all_gather {{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3]]>

// FILES:      mlp.o
// FILES-NEXT: mlp.torus.json
// FILES-NEXT: module_0000.mlp.0000.input.mlir
// FILES-NEXT: module_0000.mlp.0001.after_torus-sharding-propagation.mlir
// FILES-NEXT: module_0000.mlp.0002.after_torus-spmd-partition.mlir
// FILES:      module_0000.mlp.collectives.txt
// FILES-NEXT: module_0000.mlp.cost.txt
// FILES-NEXT: module_0000.mlp.memory.txt
// FILES-NEXT: module_0000.mlp.roofline.txt
// FILES-NEXT: module_0000.mlp.sharded.dot
// FILES-NEXT: module_0000.mlp.spmd.dot
// FILES-NEXT: module_0000.mlp.torus.dot

// COLLECTIVES: Collectives of @mlp on 2 replicas x 4 partitions (8 devices): 2 call sites
// COLLECTIVES: 0 all_reduce sum f32[4,4] f32[4,4] 64 {{\[\[}}0,1],[2,3],[4,5],[6,7]] 2
// COLLECTIVES: 1 all_gather - f32[4,4] f32[8,4] 64 {{\[\[}}0,2],[1,3],[4,6],[5,7]] 2
// COLLECTIVES: Simulated on v3-8 by the ICI cost model

// META: "device_assignment": {"topology": "v3-8", "num_partitions": 4, "replica_to_core": [{{([0-9]+, ){7}[0-9]+}}]}
// META: "num_replicas": 2
// META: "inputs": ["f32[4,16]", "f32[16,16]", "f32[32,4]"]

// DOT: torus.partition_id
// DOT: torus.all_gather

// RUNERR: torus-run: torus-run runs an AOT program with one partition per replica
// MISMATCH: sharding
