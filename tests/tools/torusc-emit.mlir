// Tests torusc's --emit ladder on a dot_general + all_reduce program.
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=torus | FileCheck %s --check-prefix=TORUS
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg | FileCheck %s --check-prefix=LINALG
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=llvm-dialect --replicas=4 | FileCheck %s --check-prefix=LLVMDIALECT
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=llvm --replicas=4 | FileCheck %s --check-prefix=LLVMIR
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --replicas=4 -o %t.ll && FileCheck %s --check-prefix=LLVMIR < %t.ll

// TORUS: torus.dot_general
// TORUS: torus.all_reduce sum

// LINALG: linalg.generic
// LINALG: call @__torus_collective

// LLVMDIALECT: llvm.func @step(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)

// LLVMIR: declare void @__torus_collective(i64, ptr, ptr)
// LLVMIR: define void @step(ptr %0, ptr %1, ptr %2)
// LLVMIR: fmul float
// LLVMIR: call void @__torus_collective(i64 0,
// LLVMIR: define void @__torus_entry_step(ptr %0)
