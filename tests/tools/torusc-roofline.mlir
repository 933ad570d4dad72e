// Tests torusc --report=roofline on a bf16 [128,256] x [256,512] matmul and
// an all-reduce of its bf16[128,512] result on the 4 chips of a v4-8, with
// every figure computed by hand:
//   FLOPs      2 * 128 * 256 * 512                      = 33554432
//   HBM bytes  2 * (128*256 + 256*512 + 128*512)         = 458752
//   FLOP time  33554432 / 275e12                         = 122.0 ns
//   HBM time   458752 / 1.2e12                           = 382.3 ns (memory-bound)
//   ICI bytes  2 (n-1)/n * 131072, n = 4                 = 196608
//   all-reduce torus over the 2x2 chips, x-y and y-x orders at once on
//              65536 bytes each: 2 steps of 32768 B, then 2 of 16384 B, at
//              1.1e15 / (4096 * 6) B/s per link plus 1 us per hop = 6.20 us
//   step       382.3 ns + 6.20 us = 6.58 us; MFU 33554432 / (6.58 us * 275e12) = 1.9%
// and the what-if table on three slices, the dump file, and the errors.
//
// RUN: torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8 --report=roofline | FileCheck %s
// RUN: torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8,v4-32,v5p-128 --report=roofline | FileCheck %s --check-prefix=WHATIF
// RUN: torusc %S/Inputs/roofline_matmul.mlir --topology=v3-8,v4-8 --replicas=8 --report=roofline | FileCheck %s --check-prefix=NOFIT
// RUN: rm -rf %t && torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8 --dump-dir=%t --emit=linalg -o /dev/null
// RUN: FileCheck %s --check-prefix=DUMP < %t/module_0000.matmul.roofline.txt
// RUN: torusc %S/Inputs/model_parallel.mlir --topology=v3-8 --computation-shape=1x2x1x2 --report=roofline | FileCheck %s --check-prefix=MLP
// RUN: torusc %torus_src/tests/jax/programs/attention/program.stablehlo.mlir --topology=v4-8,v4-32,v5p-128 --report=roofline | FileCheck %s --check-prefix=ATTENTION
// RUN: not torusc %S/Inputs/roofline_matmul.mlir --report=roofline 2>&1 | FileCheck %s --check-prefix=NOSLICE
// RUN: not torusc %S/Inputs/roofline_matmul.mlir --mesh-shape=2x2x1x1 --report=roofline 2>&1 | FileCheck %s --check-prefix=MESH
// RUN: not torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8,v4-32 2>&1 | FileCheck %s --check-prefix=NOREPORT
// RUN: not torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8,,v4-32 --report=roofline 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8,v4-33 --report=roofline 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8 --report=roofline --emit=llvm 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8 --report=speed 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: torusc %S/Inputs/roofline_matmul.mlir --topology=v4-8 --report=roofline; test $? -eq 0
// RUN: torusc %S/Inputs/roofline_matmul.mlir --report=roofline; test $? -eq 2

// CHECK: @matmul (4 replicas x 1 partition)
// CHECK-NEXT: Roofline of one step on v4-8 (4 v4 devices); per device: peak 275 TFLOP/s (bf16), HBM 1.2 TB/s, ICI 44.8 GB/s per link and direction
// CHECK: op FLOPs HBM bytes ICI bytes FLOP time HBM time ICI time time bound location
// CHECK-NEXT: torus.dot_general 33554432 458752 0 122.0 ns 382.3 ns 0 s 382.3 ns memory {{.*}}roofline_matmul.mlir:4:8
// CHECK-NEXT: all_reduce #0 0 0 196608 0 s 0 s 6.20 us 6.20 us latency {{.*}}roofline_matmul.mlir:5:8
// CHECK: Step, per device:
// CHECK-NEXT: FLOPs 33554432
// CHECK-NEXT: HBM bytes 458752
// CHECK-NEXT: ICI bytes 196608 (sent)
// CHECK-NEXT: compute 382.3 ns (FLOPs 122.0 ns, HBM 382.3 ns: roofline of the totals; the ops one after another: 382.3 ns)
// CHECK-NEXT: collectives 6.20 us
// CHECK-NEXT: step 6.58 us (serial; 6.20 us if communication overlapped compute perfectly)
// CHECK-NEXT: bound latency
// CHECK-NEXT: MFU 1.9% (2.0% if overlapped)

// WHATIF: What-if: @matmul (4 replicas x 1 partition) on 3 slices
// WHATIF: slice devices compute collectives step overlapped bound MFU vs first
// WHATIF-NEXT: v4-8 4 v4 382.3 ns 6.20 us 6.58 us 6.20 us latency 1.9% 1.00x
// WHATIF-NEXT: v4-32 4 v4 382.3 ns 6.20 us 6.58 us 6.20 us latency 1.9% 1.00x
// WHATIF-NEXT: v5p-128 4 v5p 165.9 ns 4.98 us 5.15 us 4.98 us latency 1.4% 0.78x

// NOFIT: What-if: @matmul (8 replicas x 1 partition) on 2 slices
// NOFIT: v3-8 8 v3
// NOFIT-NEXT: v4-8 cannot be priced: --replicas=8 x 1 core per replica = 8 cores, but v4-8 has 4 (mesh [2,2,1,1])

// DUMP: Roofline of one step on v4-8 (4 v4 devices)
// DUMP: torus.dot_general 33554432

// MLP: @mlp (2 replicas x 4 partitions)
// MLP-NEXT: Roofline of one step on v3-8 (8 v3 devices)
// MLP: torus.dot_general 2048 1536
// MLP: all_reduce #0
// MLP: all_gather #1
// MLP: bound latency

// ATTENTION: What-if: @main (1 replica x 1 partition) on 3 slices
// ATTENTION: v4-8 1 v4 {{.*}} memory {{.*}} 1.00x
// ATTENTION-NEXT: v4-32 1 v4
// ATTENTION-NEXT: v5p-128 1 v5p

// NOSLICE: torusc: --report=roofline prices the program on a TPU slice: give --topology (a preset such as v4-8, or several separated by commas)
// MESH: a custom --mesh-shape has no TPU generation to price with
// NOREPORT: torusc: --topology=v4-8,v4-32 names 2 slices; pricing a program on several slices is a report: add --report=roofline
// EMPTY: torusc: --topology=v4-8,,v4-32: an empty slice name in the comma-separated list
// UNKNOWN: torusc: --topology: unknown TPU preset "v4-33"
// EMIT: torusc: --report writes the report instead of --emit's output
// KIND: torusc: for the --report option: Cannot find option named 'speed'!
