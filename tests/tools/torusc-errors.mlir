// Tests that torusc reports bad input as file:line:col diagnostics with
// documented exit codes, never a crash.
// RUN: not torusc %S/Inputs/malformed.mlir --emit=llvm 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not torusc %S/Inputs/syntax-error.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --replicas=8 2>&1 | FileCheck %s --check-prefix=GROUPS
// RUN: not torusc %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: torusc %S/Inputs/malformed.mlir; test $? -eq 1
// RUN: torusc %S/Inputs/does-not-exist.mlir; test $? -eq 2

// VERIFY: malformed.mlir:2:8: error: 'torus.dot_general' op contracting dimension sizes differ: lhs dimension 1 is 3 but rhs dimension 0 is 4 (lhs [4,3], rhs [4,2])
// SYNTAX: syntax-error.mlir:2:39: error: expected '>' in tensor type
// GROUPS: dot_all_reduce.mlir:3:8: error: all_reduce: replica_groups leave out replica 4 of 8; every replica must be in exactly one group
// MISSING: torusc: cannot read '{{.*}}does-not-exist.mlir': No such file or directory
