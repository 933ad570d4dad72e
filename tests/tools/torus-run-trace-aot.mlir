// Tests torus-run --trace on ahead-of-time artifacts of the 8-replica
// data-parallel step: the same timeline as a JIT run (a valid trace, the
// load on the host track, a track per emulated core with its step, its
// all-reduces and the time it waited for its peers), with every kernel on
// the cores' tracks when torusc compiled the object with --kernel-spans and
// none without; the traced run's results are NumPy's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torusc %S/Inputs/allreduce8.mlir --replicas=8 --kernel-spans --emit=obj -o %t/spans.o
// RUN: torus-run %t/spans.torus.json --input x=%torus_src/tests/data/allreduce8/x.npy --input w=%torus_src/tests/data/allreduce8/w.npy --output-dir=%t/out --trace=%t/spans.json > /dev/null
// RUN: python3 %S/validate_trace.py %t/spans.json --top 1000 --tracks-with '^step 0$' --tracks-with '^fusion\.' --tracks-with '^all_reduce #0' --tracks-with '^wait for peers$' | FileCheck %s --check-prefixes=CHECK,SPANS
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/allreduce8/expected %t/out | FileCheck %s --check-prefix=MATCH
// RUN: torusc %S/Inputs/allreduce8.mlir --replicas=8 --emit=obj -o %t/plain.o
// RUN: torus-run %t/plain.torus.json --trace=%t/plain.json > /dev/null 2>&1
// RUN: python3 %S/validate_trace.py %t/plain.json --top 1000 --tracks-with '^step 0$' --tracks-with '^all_reduce #0' | FileCheck %s --check-prefixes=CHECK,PLAIN

// CHECK: valid: {{[0-9]+}} spans on 9 tracks in 2 processes
// CHECK-NEXT: process 1 'torus-run': 1 track: host
// CHECK-NEXT: process 2 'emulated cores (host time)': 8 tracks: core 0 (replica 0), core 1 (replica 1), core 2 (replica 2), core 3 (replica 3), core 4 (replica 4), core 5 (replica 5), core 6 (replica 6), core 7 (replica 7)
// CHECK-DAG: torus-run: load program
// CHECK-DAG: torus-run: JIT load object
// CHECK-DAG: torus-run: run 0
// CHECK-DAG: {{ 8x}}  emulated cores (host time): step 0
// CHECK-DAG: {{ 8x}}  emulated cores (host time): all_reduce #0 at {{.*}}allreduce8.mlir:12:11
// SPANS-DAG: {{ 8x}}  emulated cores (host time): fusion.{{[0-9]+}} at allreduce8.mlir:10:8
// 7 of 8 cores wait in #0 and #2, 3 of 4 in each group of #1: 7 + 6 + 7.
// SPANS-DAG: {{ 20x}}  emulated cores (host time): wait for peers
// SPANS-DAG: tracks with '^step 0$': 8 of 8
// SPANS-DAG: tracks with '^fusion\.': 8 of 8
// SPANS-DAG: tracks with '^all_reduce #0': 8 of 8
// PLAIN-NOT: fusion.
// PLAIN-DAG: tracks with '^step 0$': 8 of 8
// PLAIN-DAG: tracks with '^all_reduce #0': 8 of 8
// MATCH: all 480 values match (3 results)
