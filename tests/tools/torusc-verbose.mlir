// Tests -v: torusc and torus-run print one line per phase of the compile on
// stderr (parsing, the passes of every stage, codegen with its kernel count,
// LLVM optimization, machine code; torus-run: JIT linking), each with its
// time; stdout is unchanged, and without -v stderr has none of it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torusc -v %S/Inputs/sharded_mlp.mlir --replicas=2 --emit=obj -o %t/mlp.o 2>&1 >/dev/null | FileCheck %s
// RUN: torusc -v %S/Inputs/sharded_mlp.mlir --replicas=2 --emit=linalg 2>&1 >/dev/null | FileCheck %s --check-prefix=LINALG
// RUN: torus-run -v %S/Inputs/allreduce8.mlir --replicas=8 2>&1 >/dev/null | FileCheck %s --check-prefix=JIT
// RUN: torusc %S/Inputs/sharded_mlp.mlir --replicas=2 --emit=obj -o %t/quiet.o 2>&1 | count 0
// RUN: torusc -v %S/Inputs/sharded_mlp.mlir --replicas=2 --emit=linalg 2>/dev/null | FileCheck %s --check-prefix=STDOUT

// CHECK: torusc: parsing {{.*}}sharded_mlp.mlir: {{[0-9.]+}} ms
// CHECK-NEXT: torusc: running 1 pass (to sharded): {{[0-9.]+}} {{m?}}s
// CHECK-NEXT: torusc: running {{[0-9]+}} passes (to spmd): {{[0-9.]+}} {{m?}}s
// CHECK-NEXT: torusc: running {{[0-9]+}} passes (to linalg): {{[0-9.]+}} {{m?}}s
// CHECK-NEXT: torusc: running {{[0-9]+}} passes (to bufferized): {{[0-9.]+}} {{m?}}s
// CHECK-NEXT: torusc: running {{[0-9]+}} passes (to llvm-dialect): {{[0-9.]+}} {{m?}}s
// CHECK-NEXT: torusc: codegen: 4 kernels, LLVM IR: {{[0-9.]+}} {{m?}}s
// CHECK-NEXT: torusc: LLVM optimization (-O3): {{[0-9.]+}} {{m?}}s
// CHECK-NEXT: torusc: machine code (object): {{[0-9.]+}} {{m?}}s
// CHECK-NOT: torusc:

// LINALG: torusc: parsing
// LINALG: torusc: running {{[0-9]+}} passes (to linalg)
// LINALG-NOT: codegen

// JIT: torus-run: parsing {{.*}}allreduce8.mlir: {{[0-9.]+}} {{m?}}s
// JIT: torus-run: running {{[0-9]+}} passes (to llvm-dialect)
// JIT-NEXT: torus-run: codegen: 5 kernels, LLVM IR: {{[0-9.]+}} {{m?}}s
// JIT-NEXT: torus-run: LLVM optimization (-O3): {{[0-9.]+}} {{m?}}s
// JIT-NEXT: torus-run: machine code and linking (JIT): {{[0-9.]+}} {{m?}}s

// STDOUT: func.func @mlp
