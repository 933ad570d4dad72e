// Tests torus-run --trace on an 8-core data-parallel step (allreduce8.mlir:
// every replica's matmuls, three all-reduces) on a v3-8, two steps: a valid
// Chrome/Perfetto trace (validate_trace.py checks the format and nesting)
// with the compile on the host track, one track per emulated core, each
// with its kernels, its all-reduces and the time it waited for its peers
// in them, and the cost model's simulated steps on the same 8 cores. The
// results of the traced run (compiled with kernel spans) are NumPy's, as
// untraced. An unwritable trace file is exit 2, before anything runs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torus-run %S/Inputs/allreduce8.mlir --topology=v3-8 --input x=%torus_src/tests/data/allreduce8/x.npy --input w=%torus_src/tests/data/allreduce8/w.npy --steps=2 --output-dir=%t/out --trace=%t/run.json > /dev/null
// RUN: python3 %S/validate_trace.py %t/run.json --top 1000 --tracks-with '^step 0$' --tracks-with '^fusion\.' --tracks-with '^all_reduce #0' --tracks-with '^wait for peers$' --tracks-with '^host to device$' --tracks-with '^compute$' | FileCheck %s
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/allreduce8/expected %t/out | FileCheck %s --check-prefix=MATCH
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --trace=%t/no/such/dir/t.json 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: torus-run %S/Inputs/allreduce8.mlir --replicas=8 --trace=%t/no/such/dir/t.json > /dev/null 2>&1 || test $? -eq 2

// CHECK: valid: {{[0-9]+}} spans on 17 tracks in 3 processes
// CHECK-NEXT: process 1 'torus-run': 1 track: host
// CHECK-NEXT: process 2 'emulated cores (host time)': 8 tracks: core 0 (replica 0), core 1 (replica 1), core 2 (replica 2), core 3 (replica 3), core 4 (replica 4), core 5 (replica 5), core 6 (replica 6), core 7 (replica 7)
// CHECK-NEXT: process 3 'simulated TPU v3-8 (cost model)': 8 tracks: core 0, core 1, core 2, core 3, core 4, core 5, core 6, core 7
// The compile, on the host track.
// CHECK-DAG: torus-run: load program
// CHECK-DAG: torus-run: torus-fusion
// CHECK-DAG: torus-run: LLVM optimization
// CHECK-DAG: torus-run: JIT link and lookup
// CHECK-DAG: torus-run: run 0
// CHECK-DAG: torus-run: run 1
// Two runs of one step on 8 cores: 16 steps, 3 all-reduces in each, where
// 7 of 8 cores (3 of 4 in each of the 2 groups of #1) wait: 2 * (7+6+7).
// CHECK-DAG: {{ 16x}}  emulated cores (host time): step 0
// CHECK-DAG: {{ 16x}}  emulated cores (host time): all_reduce #0 at {{.*}}allreduce8.mlir:12:11
// CHECK-DAG: {{ 16x}}  emulated cores (host time): all_reduce #1 at {{.*}}allreduce8.mlir:13:11
// CHECK-DAG: {{ 16x}}  emulated cores (host time): all_reduce #2 at {{.*}}allreduce8.mlir:18:11
// CHECK-DAG: {{ 40x}}  emulated cores (host time): wait for peers
// CHECK-DAG: {{ 16x}}  emulated cores (host time): fusion.0 at allreduce8.mlir:10:8
// CHECK-DAG: {{ 16x}}  simulated TPU v3-8 (cost model): compute
// CHECK-DAG: {{ 16x}}  simulated TPU v3-8 (cost model): all_reduce #0 at {{.*}}allreduce8.mlir:12:11
// CHECK: tracks with '^step 0$': 8 of 8 in 'emulated cores (host time)'
// CHECK-NEXT: tracks with '^step 0$': 8 of 8 in 'simulated TPU v3-8 (cost model)'
// CHECK-NEXT: tracks with '^fusion\.': 8 of 8 in 'emulated cores (host time)'
// CHECK-NEXT: tracks with '^all_reduce #0': 8 of 8 in 'emulated cores (host time)'
// CHECK-NEXT: tracks with '^all_reduce #0': 8 of 8 in 'simulated TPU v3-8 (cost model)'
// CHECK-NEXT: tracks with '^wait for peers$': 8 of 8 in 'emulated cores (host time)'
// CHECK-NEXT: tracks with '^host to device$': 8 of 8 in 'emulated cores (host time)'
// CHECK-NEXT: tracks with '^compute$': 8 of 8 in 'simulated TPU v3-8 (cost model)'

// MATCH: all {{[0-9]+}} values match

// UNWRITABLE: torus-run: cannot write the trace '{{.*}}/no/such/dir/t.json': No such file or directory
