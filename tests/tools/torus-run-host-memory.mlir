// Tests that torus-run refuses, with exit 4 and the sizes, a run that does
// not fit the host (every core's buffers and the host's copies, against
// MemAvailable, the cgroup's memory.max and RLIMIT_AS) or one core, before
// it allocates anything: the random inputs are made only after the check.
// Every command runs under `ulimit -v` (4 GB), so a regression fails
// instead of exhausting the machine.
// RUN: (ulimit -v 4000000 && torus-run %S/Inputs/out1g.mlir --replicas=8; echo "exit=$?") 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: (ulimit -v 4000000 && torus-run %S/Inputs/in12g.mlir --topology=v2-8 --replicas=1; echo "exit=$?") 2>&1 | FileCheck %s --check-prefix=CORE

// HOST: torus-run: program 'out1g' needs 16.00 GiB (17179869728 bytes) of host memory across its 8 emulated cores (1.00 GiB of device memory and 4 B of host inputs and 1.00 GiB of host outputs per core), but the host has {{.*}} available ({{.*}}); run fewer replicas, smaller shapes, or on a bigger host
// HOST-NOT: random values
// HOST: exit=4

// CORE-NOT: random values
// CORE: torus-run: program 'in12g' needs 24.00 GiB (25769803776 bytes) of device memory on each core (inputs 12.00 GiB, outputs 12.00 GiB, workspace 0 B), more than a core's capacity of 8.00 GiB
// CORE: exit=4
