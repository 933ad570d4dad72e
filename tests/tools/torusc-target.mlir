// Tests torusc's target mesh options: a topology or a custom mesh, replicas,
// computation shape and partitions are checked against each other and the
// mesh (TensorFlow's DeviceAssignment.build), with errors naming the flags.
// RUN: torusc %S/Inputs/no_groups.mlir --topology=v3-8 --emit=obj -o %t.o && FileCheck %s --check-prefix=V38 < %t.torus.json
// RUN: torusc %S/Inputs/no_groups.mlir --topology=v3-8 --replicas=4 --emit=obj -o %t.4.o && FileCheck %s --check-prefix=V38R4 < %t.4.torus.json
// RUN: torusc %S/Inputs/no_groups.mlir --mesh-shape=2x2x1x2 --replicas=2 --emit=obj -o %t.m.o && FileCheck %s --check-prefix=MESH < %t.m.torus.json
// RUN: torusc %S/Inputs/no_groups.mlir --topology=v3-8 --computation-shape=1x1x1x2 --emit=torus | FileCheck %s --check-prefix=PARTTORUS
// RUN: not torusc %S/Inputs/no_groups.mlir --topology=v3-8 --replicas=16 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not torusc %S/Inputs/no_groups.mlir --topology=v3-8 --mesh-shape=2x2x1x2 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not torusc %S/Inputs/no_groups.mlir --topology=v9-8 2>&1 | FileCheck %s --check-prefix=PRESET
// RUN: not torusc %S/Inputs/no_groups.mlir --mesh-shape=2x2 2>&1 | FileCheck %s --check-prefix=MESHBAD
// RUN: not torusc %S/Inputs/no_groups.mlir --topology=v3-8 --computation-shape=1x1x1 2>&1 | FileCheck %s --check-prefix=SHAPEBAD
// RUN: not torusc %S/Inputs/no_groups.mlir --topology=v3-8 --computation-shape=1x1x1x2 --num-partitions=4 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not torusc %S/Inputs/no_groups.mlir --topology=v3-8 --num-partitions=4 2>&1 | FileCheck %s --check-prefix=NEEDSHAPE
// RUN: torusc %S/Inputs/no_groups.mlir --topology=v3-8 --computation-shape=1x1x1x2 --emit=obj -o %t.p.o && FileCheck %s --check-prefix=PARTITIONED < %t.p.torus.json
// RUN: not torusc %S/Inputs/no_groups.mlir --topology=v3-8 --computation-shape=2x2x1x2 --replicas=2 2>&1 | FileCheck %s --check-prefix=NOFIT
// RUN: not torusc %S/Inputs/no_groups.mlir --replicas=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: torusc %S/Inputs/no_groups.mlir --topology=v3-8 --replicas=16; test $? -eq 2

// V38: "device_assignment": {"topology": "v3-8", "num_partitions": 1, "replica_to_core": [0, 1, 2, 3, 4, 5, 6, 7]}
// V38: "num_replicas": 8
// V38R4: "device_assignment": {"topology": "v3-8", "num_partitions": 1, "replica_to_core": [{{[0-9]+, [0-9]+, [0-9]+, [0-9]+}}]}
// V38R4: "num_replicas": 4
// MESH: "device_assignment": {"topology": "2x2x1x2", "num_partitions": 1, "replica_to_core": [{{[0-9]+, [0-9]+}}]}
// PARTTORUS: torus.all_reduce
// TOOMANY: torusc: --replicas=16 x 1 core per replica = 16 cores, but v3-8 has 8 (mesh [2,2,1,2])
// BOTH: torusc: give either --topology or --mesh-shape, not both
// PRESET: torusc: --topology=v9-8: {{.*}}v9-8
// MESHBAD: torusc: --mesh-shape=2x2:
// SHAPEBAD: torusc: --computation-shape: '1x1x1' has 3 dimensions; expected 4
// MISMATCH: torusc: --num-partitions=4 does not match --computation-shape=1x1x1x2 (2 cores per replica)
// NEEDSHAPE: torusc: --num-partitions=4 needs --computation-shape to say how a replica's 4 cores lie on the v3-8 mesh [2,2,1,2] (e.g. --computation-shape=1x2x1x2)
// PARTITIONED: "device_assignment": {"topology": "v3-8", "num_partitions": 2, "replica_to_core": [{{([0-9]+, ){7}[0-9]+}}]}
// PARTITIONED: "num_replicas": 4
// NOFIT: torusc: --replicas=2 x 8 cores per replica = 16 cores, but v3-8 has 8
// ZERO: torusc: --replicas must be at least 1, got 0
