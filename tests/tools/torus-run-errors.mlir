// Tests that torus-run reports bad programs, inputs and command lines with
// the documented exit codes (1 invalid program or inputs, 2 bad command
// line or I/O), naming the argument, the expected and the actual type.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not torus-run %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: torus-run %S/Inputs/malformed.mlir; test $? -eq 1
// RUN: not torus-run %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: torus-run %S/Inputs/does-not-exist.mlir; test $? -eq 2
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --input w=%torus_src/tests/data/allreduce8/x.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: torus-run %S/Inputs/allreduce8.mlir --replicas=8 --input w=%torus_src/tests/data/allreduce8/x.npy; test $? -eq 1
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --input nope=%torus_src/tests/data/allreduce8/x.npy 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --input x 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --input x=%t/none.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=4 2>&1 | FileCheck %s --check-prefix=GROUPS
// RUN: not torus-run %S/Inputs/allreduce8.mlir --topology=v3-8 --replicas=9 2>&1 | FileCheck %s --check-prefix=MESH
// RUN: not torus-run %S/Inputs/allreduce8.mlir --steps=0 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: printf 'not an npy' > %t/bad.npy
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --input x=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=BADNPY
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 a.npy b.npy c.npy 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: torusc %S/Inputs/allreduce8.mlir --replicas=8 --emit=obj -o %t/step.o
// RUN: not torus-run %t/step.torus.json --replicas=4 2>&1 | FileCheck %s --check-prefix=AOTREPLICAS
// RUN: not torus-run %t/missing.torus.json 2>&1 | FileCheck %s --check-prefix=AOTMISSING
// RUN: not torus-run %S/Inputs/chain.mlir --replicas=2 --core-memory-mib=0 2>&1 | FileCheck %s --check-prefix=OOM
// RUN: torus-run %S/Inputs/chain.mlir --replicas=2 --core-memory-mib=0; test $? -eq 4
// RUN: torusc %S/Inputs/allreduce8.mlir --replicas=8 --target-cpu=x86-64 --target-features=+amx-tile,+sse4a --emit=obj -o %t/foreign.o
// RUN: not torus-run %t/foreign.torus.json 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: torus-run %t/foreign.torus.json; test $? -eq 1
// RUN: not env TORUS_TARGET=pentium9 torus-run %S/Inputs/allreduce8.mlir --replicas=8 2>&1 | FileCheck %s --check-prefix=BADTARGET

// VERIFY: malformed.mlir:2:8: error: 'torus.dot_general' op contracting dimension sizes differ
// MISSING: torus-run: cannot read '{{.*}}does-not-exist.mlir': No such file or directory
// SHAPE: torus-run: argument 1 (w): expects f32[4,3] (the same for every replica) or f32[8,4,3] (one slice per replica), but {{.*}}x.npy holds f32[8,8,4]
// NAME: torus-run: --input nope={{.*}}: @step has no argument 'nope' (arguments: x, w)
// SYNTAX: torus-run: --input x: expected NAME=FILE.npy
// NOFILE: torus-run: {{.*}}none.npy: cannot open
// GROUPS: allreduce8.mlir:13:11: error: all_reduce: replica_groups name replica 4, but the program runs on 4 replicas (ids 0 to 3)
// MESH: torus-run: --replicas=9 x 1 core per replica = 9 cores, but v3-8 has 8
// STEPS: torus-run: --steps must be at least 1, got 0
// BADNPY: torus-run: argument 0 (x): {{.*}}bad.npy: not a .npy file
// TOOMANY: torus-run: 3 input files given, but @step takes 2 arguments
// AOTREPLICAS: torus-run: {{.*}}step.torus.json was compiled for 8 replicas; --replicas=4 needs a recompile
// AOTMISSING: torus-run: cannot read '{{.*}}missing.torus.json'
// OOM: torus-run: program 'chain' needs 64.00 KiB (65536 bytes) of device memory on each core (inputs 16.00 KiB, outputs 16.00 KiB, workspace 32.00 KiB), more than a core's capacity of 0 B
// OOM-NOT: random values
// AMX is Intel's, SSE4A AMD's: no host has both.
// FOREIGN: foreign.torus.json: the code was compiled for CPU 'x86-64' and needs features this host's CPU '{{.*}}' lacks: {{amx-tile|sse4a}}
// BADTARGET: TORUS_TARGET: target 'pentium9': unknown x86-64 CPU 'pentium9'
