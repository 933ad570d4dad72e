// Tests torusc --trace: a valid Chrome/Perfetto trace (validate_trace.py
// checks the format rules and nesting) with a span per MLIR pass, per
// lowering stage, and the LLVM stages (translation, optimization, machine
// code) on the "compile" track; the trace of a failing compile is written
// too; an unwritable trace file is a usage error (exit 2) naming it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torusc %S/Inputs/sharded_mlp.mlir --replicas=2 --emit=obj -o %t/mlp.o --trace=%t/compile.json
// RUN: python3 %S/validate_trace.py %t/compile.json --top 1000 | FileCheck %s
// RUN: not torusc %S/Inputs/malformed.mlir --trace=%t/failed.json 2> /dev/null
// RUN: python3 %S/validate_trace.py %t/failed.json | FileCheck %s --check-prefix=FAILED
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --replicas=4 --trace=%t/no/such/dir/t.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: torusc %S/Inputs/dot_all_reduce.mlir --replicas=4 --trace=%t/no/such/dir/t.json -o /dev/null 2>/dev/null || test $? -eq 2

// CHECK: valid: {{[0-9]+}} spans on {{[0-9]+}} tracks in 1 processes
// CHECK: process 1 'torusc': {{[0-9]+}} track{{s?}}: compile
// CHECK-DAG: torusc: torusc
// CHECK-DAG: torusc: parse
// CHECK-DAG: torusc: stage linalg
// CHECK-DAG: torusc: stage bufferized
// CHECK-DAG: torusc: stage llvm-dialect
// CHECK-DAG: torusc: torus-to-linalg
// CHECK-DAG: torusc: torus-fusion
// CHECK-DAG: torusc: one-shot-bufferize
// CHECK-DAG: torusc: torus-vectorize-kernels
// CHECK-DAG: torusc: convert-func-to-llvm
// CHECK-DAG: torusc: translate to LLVM IR
// CHECK-DAG: torusc: LLVM optimization
// CHECK-DAG: torusc: machine code: object

// FAILED: valid:
// FAILED: torusc: parse

// UNWRITABLE: torusc: cannot write the trace '{{.*}}/no/such/dir/t.json': No such file or directory
