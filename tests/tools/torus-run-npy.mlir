// Tests that torus-run runs a program with all_reduce over 8 replicas on
// .npy inputs (x split per replica, w broadcast) and writes .npy outputs
// equal to NumPy's (tests/data/make_allreduce8.py made the expected
// values), compiled just in time and ahead of time, on a topology too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torus-run %S/Inputs/allreduce8.mlir --replicas=8 --input x=%torus_src/tests/data/allreduce8/x.npy --input w=%torus_src/tests/data/allreduce8/w.npy --output-dir=%t/jit --steps=3 | FileCheck %s --check-prefix=OUT
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/allreduce8/expected %t/jit | FileCheck %s --check-prefix=MATCH
// RUN: torusc %S/Inputs/allreduce8.mlir --topology=v3-8 --emit=obj -o %t/step.o
// RUN: torus-run %t/step.torus.json %torus_src/tests/data/allreduce8/x.npy %torus_src/tests/data/allreduce8/w.npy --output-dir=%t/aot | FileCheck %s --check-prefix=AOT
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/allreduce8/expected %t/aot | FileCheck %s --check-prefix=MATCH
// RUN: torus-run %t/step.o --input 1=%torus_src/tests/data/allreduce8/w.npy --input arg0=%torus_src/tests/data/allreduce8/x.npy --output-dir=%t/byobject > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/allreduce8/expected %t/byobject | FileCheck %s --check-prefix=MATCH
// RUN: torus-run %S/Inputs/allreduce8.mlir --mesh-shape=2x2x1x2 --input x=%torus_src/tests/data/allreduce8/x.npy --input w=%torus_src/tests/data/allreduce8/w.npy --output-dir=%t/mesh | FileCheck %s --check-prefix=MESH
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/allreduce8/expected %t/mesh | FileCheck %s --check-prefix=MATCH
// Random inputs are reproducible from the seed.
// RUN: torus-run %S/Inputs/allreduce8.mlir --replicas=8 --seed=7 --output-dir=%t/r1 2>&1 | FileCheck %s --check-prefix=RANDOM
// RUN: torus-run %S/Inputs/allreduce8.mlir --replicas=8 --seed=7 --output-dir=%t/r2 > /dev/null 2>&1
// RUN: cmp %t/r1/result2.replica5.npy %t/r2/result2.replica5.npy

// OUT-NOT: random values
// OUT: @step: 8 replicas on 8 emulated cores
// OUT-NEXT: step 0: {{[0-9.]+}} ms host
// OUT-NEXT: step 1: {{[0-9.]+}} ms host
// OUT-NEXT: step 2: {{[0-9.]+}} ms host
// OUT-NEXT: median of 3 steps: {{[0-9.]+}} ms host
// OUT-NEXT: peak device memory of a core: {{[0-9]+}} bytes (of 17179869184)
// OUT-NEXT: simulated time: not available (no TPU slice given (--topology or --mesh-shape))
// OUT-NEXT: wrote 3 results x 8 replicas to {{.*}}jit
// MATCH: all 480 values match (3 results)
// AOT: @step: 8 replicas on 8 emulated cores of v3-8
// AOT-NEXT: step 0: {{[0-9.]+}} ms host, {{[0-9.]+}} us simulated on v3-8 (MFU {{[0-9.e-]+}}%)
// AOT: simulated step on v3-8 (8 v3 devices):
// AOT-NEXT: compute
// AOT-NEXT: all_reduce {{.*}}#0 at {{.*}}allreduce8.mlir:12:11: torus over 8
// AOT-NEXT: all_reduce {{.*}}#1 at {{.*}}allreduce8.mlir:13:11: torus over 4 (2 groups)
// AOT-NEXT: all_reduce {{.*}}#2 at {{.*}}allreduce8.mlir:18:11
// AOT-NEXT: total
// AOT-NEXT: measured
// AOT-NEXT: MFU {{[0-9.e-]+}}% (model FLOPs {{.*}} per device / (simulated step x peak 6.15e+13 FLOP/s)
// MESH: @step: 8 replicas on 8 emulated cores of 2x2x1x2
// MESH: simulated time: not available ({{.*}}generation{{.*}})
// RANDOM: argument 0 (x) f32[8,4]: random values, seed 7
// RANDOM: argument 1 (w) f32[4,3]: random values, seed 7
