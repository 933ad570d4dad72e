// Tests torusc's --emit ladder on a dot_general + all_reduce program: every
// stage prints what it names (with one partition the sharded and spmd stages
// leave the program as it is).
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=torus | FileCheck %s --check-prefix=TORUS
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg | FileCheck %s --check-prefix=LINALG
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=bufferized --replicas=4 | FileCheck %s --check-prefix=BUFFERIZED
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=llvm-dialect --replicas=4 | FileCheck %s --check-prefix=LLVMDIALECT
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=llvm --replicas=4 | FileCheck %s --check-prefix=LLVMIR
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --replicas=4 -o %t.ll && FileCheck %s --check-prefix=LLVMIR < %t.ll
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=asm --replicas=4 | FileCheck %s --check-prefix=ASM
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=asm -O0 --replicas=4 | FileCheck %s --check-prefix=ASM
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=sharded | FileCheck %s --check-prefix=SHARDED
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=spmd --replicas=4 | FileCheck %s --check-prefix=SPMD
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --emit=obj 2>&1 | FileCheck %s --check-prefix=OBJSTDOUT
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --emit=nonsense 2>&1 | FileCheck %s --check-prefix=BADEMIT
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=nonsense; test $? -eq 2
// RUN: cat %S/Inputs/dot_all_reduce.mlir | torusc - --emit=torus | FileCheck %s --check-prefix=TORUS

// TORUS: torus.dot_general
// TORUS: torus.all_reduce sum

// LINALG: linalg.generic
// LINALG: call @__torus_collective

// BUFFERIZED: func.func @step(%{{.*}}: memref<4x3xf32>, %{{.*}}: memref<2x4xf32>, %{{.*}}: memref<2x3xf32>{{.*}})
// The temporary is a view of the entry's workspace (torus-plan-buffers).
// BUFFERIZED: memref.view %{{.*}}[%{{.*}}][] {torus.buffer = 0 : i64
// BUFFERIZED-NOT: memref.dealloc

// LLVMDIALECT: llvm.func @step(%{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias})

// LLVMIR: declare void @__torus_collective(i64, ptr, ptr)
// LLVMIR: define internal void @step(ptr noalias %0, ptr noalias %1, ptr noalias %2{{.*}})
// LLVMIR: {{fmul float|fmuladd}}
// LLVMIR: call void @__torus_collective(i64 0,
// LLVMIR: define void @__torus_entry_step(ptr %0)

// ASM-DAG: __torus_entry_step:
// ASM-DAG: __torus_collective

// SHARDED: torus.dot_general
// SHARDED: torus.all_reduce sum
// SPMD: torus.dot_general
// SPMD: torus.all_reduce sum
// OBJSTDOUT: torusc: --emit=obj writes an object file and its metadata; give the object's path with -o
// BADEMIT: Cannot find option named 'nonsense'
