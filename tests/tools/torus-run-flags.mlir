// torus-run's numeric flags are checked, and it takes an HLO program's
// device counts exactly as torusc does (tools/common/ProgramMesh.h).
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --core-memory-mib=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: torus-run %S/Inputs/allreduce8.mlir --replicas=8 --core-memory-mib=-1; test $? -eq 2
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --core-memory-mib=17592186044416 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --core-memory-mib=99999999999999999999 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: torus-run %S/Inputs/allreduce8.mlir --replicas=8 --core-memory-mib=17592186044415 | FileCheck %s --check-prefix=MAX
// The header's replica_count=8 is the default of --replicas, with a
// computation shape given too (torus-run used to ignore it then).
// RUN: torusc %torus_src/ir/hlo/test/run-allreduce8.hlo --computation-shape=1x1x1x1 --emit=torus | FileCheck %s --check-prefix=TORUSC
// RUN: torus-run %torus_src/ir/hlo/test/run-allreduce8.hlo --computation-shape=1x1x1x1 | FileCheck %s --check-prefix=HEADER
// RUN: torus-run %torus_src/ir/hlo/test/run-allreduce8.hlo | FileCheck %s --check-prefix=HEADER

// NEGATIVE: torus-run: --core-memory-mib=-1: the capacity must be a whole number of MiB from 0 to 17592186044415
// WRAP: torus-run: --core-memory-mib=17592186044416: the capacity must be a whole number of MiB from 0 to 17592186044415
// HUGE: torus-run: {{.*}}core-memory-mib
// MAX: peak device memory of a core: {{[0-9]+}} bytes (of 18446744073708503040)
// TORUSC: torus.num_replicas = 8
// HEADER: @main.1: 8 replicas on 8 emulated cores
