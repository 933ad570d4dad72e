// Tests torusc's pass control: the default pipeline printed and run back
// with --pass-pipeline gives the same module, IR printing before and after
// passes, MLIR's location printing, and errors for unknown passes.
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --print-pipeline --emit=bufferized | FileCheck %s --check-prefix=PIPELINE
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=bufferized --replicas=4 -o %t.default.mlir
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --replicas=4 --emit=bufferized --pass-pipeline="builtin.module($(torusc %S/Inputs/dot_all_reduce.mlir --print-pipeline --emit=bufferized | grep -v '^//' | sed -e 's/^builtin.module(//' -e 's/)$//' | paste -sd, -))" -o %t.custom.mlir
// RUN: diff %t.default.mlir %t.custom.mlir
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --pass-pipeline='builtin.module(torus-lower-to-linalg)' | FileCheck %s --check-prefix=CUSTOM
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --pass-pipeline='builtin.module(torus-compile)' --emit=llvm --replicas=4 | FileCheck %s --check-prefix=CUSTOMLLVM
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --pass-pipeline='builtin.module(torus-lower-to-linalg)' --emit=llvm --replicas=4 2>&1 | FileCheck %s --check-prefix=NOTLLVM
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=BADPASS
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg --print-ir-after=torus-lower-collectives -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg --print-ir-before=cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg --print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg --print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFOREALL
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --print-ir-after=no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=torus --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUGINFO
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING

// PIPELINE: // linalg
// PIPELINE-NEXT: builtin.module(canonicalize{{.*}},torus-lower-collectives,func.func(torus-split-dilated-convolutions),func.func(torus-to-linalg),
// PIPELINE: // bufferized
// PIPELINE-NEXT: builtin.module(func.func(torus-splats-to-fills{max-elements=1024}),empty-tensor-to-alloc-tensor,one-shot-bufferize{{.*}}bufferize-function-boundaries=true{{.*}}function-boundary-type-conversion=identity-layout-map{{.*}}buffer-results-to-out-params{add-result-attr=false hoist-static-allocs=true}
// PIPELINE-NOT: llvm-dialect

// CUSTOM: linalg.generic
// CUSTOM: call @__torus_collective
// CUSTOMLLVM: define void @__torus_entry_step(ptr %0)
// NOTLLVM: error: cannot be converted to LLVM IR
// BADPASS: torusc: --pass-pipeline: {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// ANCHOR: torusc: --pass-pipeline: the pipeline must be anchored on builtin.module

// AFTER: IR Dump After TorusLowerCollectives (torus-lower-collectives)
// AFTER-NOT: IR Dump
// BEFORE: IR Dump Before CSE (cse)
// BEFORE-NOT: IR Dump
// ALL: IR Dump After TorusLowerCollectives
// ALL: IR Dump After TorusToLinalg (torus-to-linalg) ('func.func' operation: @step)
// ALL: IR Dump After CSE
// BEFOREALL: IR Dump Before TorusLowerCollectives
// BEFOREALL-NOT: IR Dump After
// UNKNOWN: torusc: --print-ir-after: unknown pass 'no-such-pass' (--print-pipeline lists the passes run)

// DEBUGINFO: torus.dot_general {{.*}} loc(#loc
// DEBUGINFO: #loc{{[0-9]*}} = loc("{{.*}}dot_all_reduce.mlir":2:8)
// TIMING: Execution time report
// TIMING: TorusToLinalg
