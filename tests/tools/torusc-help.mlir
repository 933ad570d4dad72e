// Tests that torusc --help shows torusc's own options in groups a newcomer
// can read, and hides LLVM's unrelated ones.
// RUN: torusc --help | FileCheck %s
// RUN: torusc --version | FileCheck %s --check-prefix=VERSION

// CHECK: OVERVIEW: torusc: compile a torus dialect module
// CHECK: Exit codes: 0 ok, 1 invalid program, 2 bad command line or I/O, 3 internal error.
// CHECK: Dumps:
// CHECK: --dump-dir=<dir>
// CHECK: --dump-dot
// CHECK: Input and output:
// CHECK: --emit=<value>
// CHECK: =sharded
// CHECK: =obj
// CHECK: MLIR printing and timing:
// CHECK: --mlir-print-debuginfo
// CHECK: Pass control:
// CHECK: --pass-pipeline=<pipeline>
// CHECK: --print-ir-after=<pass>
// CHECK: --print-ir-after-all
// CHECK: Reports:
// CHECK: --report=<value>
// CHECK: =roofline
// CHECK: Target mesh:
// CHECK: --computation-shape=<XxYxZxC>
// CHECK: --mesh-shape=<XxYxZxC>
// CHECK: --num-partitions=<long>
// CHECK: --replicas=<long>
// CHECK: --topology=<preset[,preset...]>
// CHECK-NOT: --x86-
// CHECK-NOT: --debug-pass
// CHECK-NOT: --mlir-print-ir-tree-dir

// VERSION: torusc (Torus 0.1.0), built with LLVM/MLIR 19
