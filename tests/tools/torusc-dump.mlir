// Tests torusc --dump-dir: the module after every pass numbered in order
// (module_0000.<name>.NNNN.after_<pass>.mlir), the LLVM IR before and after
// optimization, the assembly, a memory report, a collective report and,
// with --dump-dot, the graph with shardings as colours.
// RUN: rm -rf %t && torusc %S/Inputs/sharded_mlp.mlir --replicas=2 --dump-dir=%t --dump-dot --emit=obj -o %t/mlp.o
// RUN: ls %t | LC_ALL=C sort | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=INPUT < %t/module_0000.mlp.0000.input.mlir
// RUN: FileCheck %s --check-prefix=AFTER < %t/module_0000.mlp.0008.after_torus-lower-collectives.mlir
// RUN: FileCheck %s --check-prefix=COLLECTIVES < %t/module_0000.mlp.collectives.txt
// RUN: FileCheck %s --check-prefix=DOT < %t/module_0000.mlp.torus.dot
// RUN: FileCheck %s --check-prefix=LLVM < %t/module_0000.mlp.*.llvm.ll
// RUN: FileCheck %s --check-prefix=LLVMOPT < %t/module_0000.mlp.*.llvm-opt.ll
// RUN: rm -rf %t.chain && torusc %S/Inputs/chain.mlir --topology=v3-8 --dump-dir=%t.chain --emit=bufferized -o /dev/null
// RUN: FileCheck %s --check-prefix=MEMORY < %t.chain/module_0000.chain.memory.txt
// RUN: rm -rf %t.before && torusc %S/Inputs/dot_all_reduce.mlir --emit=linalg --dump-dir=%t.before --dump-before-passes -o /dev/null
// RUN: ls %t.before | LC_ALL=C sort | FileCheck %s --check-prefix=BEFORE
// RUN: rm -rf %t.cost && torusc %S/Inputs/chain.mlir --topology=v4-32 --dump-dir=%t.cost --emit=linalg -o /dev/null
// RUN: FileCheck %s --check-prefix=PRICED < %t.cost/module_0000.chain.collectives.txt
// RUN: FileCheck %s --check-prefix=COST < %t.cost/module_0000.chain.cost.txt
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --dump-dot 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: not torusc %S/Inputs/dot_all_reduce.mlir --dump-dir=/dev/null/x 2>&1 | FileCheck %s --check-prefix=BADDIR

// FILES:      mlp.o
// FILES-NEXT: mlp.torus.json
// FILES-NEXT: module_0000.mlp.0000.input.mlir
// FILES-NEXT: module_0000.mlp.0001.after_torus-sharding-propagation.mlir
// FILES-NEXT: module_0000.mlp.0002.after_torus-spmd-partition.mlir
// FILES-NEXT: module_0000.mlp.0003.after_torus-remove-redundant-reshards.mlir
// FILES-NEXT: module_0000.mlp.0004.after_torus-reduce-scatter-creator.mlir
// FILES-NEXT: module_0000.mlp.0005.after_torus-all-reduce-simplifier.mlir
// FILES-NEXT: module_0000.mlp.0006.after_torus-all-reduce-combiner.mlir
// FILES-NEXT: module_0000.mlp.0007.after_canonicalize.mlir
// FILES-NEXT: module_0000.mlp.0008.after_torus-lower-collectives.mlir
// FILES-NEXT: module_0000.mlp.0009.after_torus-split-dilated-convolutions.mlir
// FILES-NEXT: module_0000.mlp.0010.after_torus-to-linalg.mlir
// FILES-NEXT: module_0000.mlp.0011.after_canonicalize.mlir
// FILES-NEXT: module_0000.mlp.0012.after_torus-fusion.mlir
// FILES-NEXT: module_0000.mlp.0013.after_canonicalize.mlir
// FILES-NEXT: module_0000.mlp.0014.after_cse.mlir
// FILES-NEXT: module_0000.mlp.0015.after_torus-splats-to-fills.mlir
// FILES-NEXT: module_0000.mlp.0016.after_empty-tensor-to-alloc-tensor.mlir
// FILES-NEXT: module_0000.mlp.0017.after_one-shot-bufferize.mlir
// FILES-NEXT: module_0000.mlp.0018.after_torus-unique-result-buffers.mlir
// FILES-NEXT: module_0000.mlp.0019.after_buffer-results-to-out-params.mlir
// FILES-NEXT: module_0000.mlp.0020.after_torus-plan-buffers.mlir
// FILES:      module_0000.mlp.{{[0-9]+}}.after_torus-strided-copies-to-linalg.mlir
// FILES-NEXT: module_0000.mlp.{{[0-9]+}}.after_convert-linalg-to-loops.mlir
// FILES:      module_0000.mlp.{{[0-9]+}}.after_reconcile-unrealized-casts.mlir
// FILES-NEXT: module_0000.mlp.{{[0-9]+}}.after_torus-bool-vectors-as-bytes.mlir
// FILES-NEXT: module_0000.mlp.[[N:[0-9]+]].after_canonicalize.mlir
// FILES-NEXT: module_0000.mlp.{{[0-9]+}}.llvm.ll
// FILES-NEXT: module_0000.mlp.{{[0-9]+}}.llvm-opt.ll
// FILES-NEXT: module_0000.mlp.{{[0-9]+}}.asm.s
// FILES-NEXT: module_0000.mlp.collectives.txt
// FILES-NEXT: module_0000.mlp.memory.txt
// FILES-NEXT: module_0000.mlp.sharded.dot
// FILES-NEXT: module_0000.mlp.spmd.dot
// FILES-NEXT: module_0000.mlp.torus.dot

// INPUT: func.func @mlp
// INPUT: torus.dot_general
// AFTER: torus.collectives = [{kind = "all_reduce"
// AFTER: call @__torus_collective

// MEMORY: Memory of @chain on one core (8 cores run it, each needing the same)
// MEMORY: Read from the bufferized IR; exact for this program.
// MEMORY:      peak per core             64.00 KiB (65536 bytes)
// MEMORY-NEXT:   inputs                  16.00 KiB (16384 bytes)
// MEMORY-NEXT:   outputs                 16.00 KiB (16384 bytes)
// MEMORY-NEXT:   workspace               32.00 KiB (32768 bytes)  (buffer plan: 3 temporaries at offsets fixed at compile time, allocated once per core)
// MEMORY-NEXT:   unplanned temporaries   0 B
// MEMORY-NEXT: peak by liveness          64.00 KiB (65536 bytes)  (if each temporary were freed after its last use)
// MEMORY-NEXT:   temporaries at peak     32.00 KiB (32768 bytes)  (reached at {{.*}}chain.mlir:4:8)
// MEMORY-NEXT: all temporaries, summed   48.00 KiB (49152 bytes)
// MEMORY-NEXT: all 8 cores               512.00 KiB (524288 bytes)
// MEMORY-NEXT: core memory capacity      16.00 GiB (17179869184 bytes)  (0.0004% used at the peak)
// MEMORY: Largest buffers (5 of 5)
// MEMORY: buffer     type                        bytes  alloc/last/free   produced by              location
// MEMORY: input 0    f32[64,64]                  16384  whole run         (argument)
// MEMORY: temp 0     f32[64,64]                  16384  {{[0-9]+/[0-9]+/[0-9]+}}  linalg.generic @0 {{.*}}chain.mlir:4:8
// MEMORY: temp 2     f32[64,64]                  16384  {{[0-9]+/[0-9]+/[0-9]+}}  linalg.generic @16384 {{.*}}chain.mlir:6:8
// MEMORY: Temporaries alive at the peak by liveness:
// MEMORY-NEXT: temp 0
// MEMORY-NEXT: temp 1
// MEMORY-NOT: temp 2

// COLLECTIVES: Collectives of @mlp on 2 replicas: 1 call site
// COLLECTIVES: 0  all_reduce         sum     f32[8,4]       f32[8,4]              128  all replicas                 2         128  {{.*}}sharded_mlp.mlir:14:8
// COLLECTIVES: Simulated time: not available: no TPU slice given (--topology or --mesh-shape).

// DOT: digraph "mlp" {
// DOT: arg0 [shape=ellipse, label="argument 0\nf32[8,16]\nsharding = {devices=[2,1]0,1}", style=filled, fillcolor="#8dd3c7"];
// DOT: op0 [shape=box, label="torus.dot_general\n%arg0, %arg1, batching_dims = [] x [],\ncontracting_dims = [1] x [0]\nsharding = {devices=[2,2]0,1,2,3}\n{{.*}}sharded_mlp.mlir:10:8", style=filled, fillcolor="[[C4:#[0-9a-f]+]]"];
// DOT: arg0 -> op0 [label="f32[8,16]"];
// DOT: op2 [shape=box, label="torus.maximum{{.*}}", style=filled, fillcolor="[[C4]]"];
// DOT: op4 [shape=box, label="torus.all_reduce\nsum %3\n{{.*}}"];
// DOT: subgraph cluster_legend {
// DOT: label="{replicated}"

// LLVM: define void @__torus_entry_mlp(ptr %0)
// LLVMOPT: target triple = "x86_64
// LLVMOPT: define void @__torus_entry_mlp(ptr nocapture readonly %0)

// BEFORE:      module_0000.step.0000.input.mlir
// BEFORE-NEXT: module_0000.step.0001.before_torus-sharding-propagation.mlir
// BEFORE-NEXT: module_0000.step.0002.after_torus-sharding-propagation.mlir
// BEFORE-NEXT: module_0000.step.0003.before_torus-spmd-partition.mlir
// BEFORE:      module_0000.step.0015.before_torus-lower-collectives.mlir
// BEFORE-NEXT: module_0000.step.0016.after_torus-lower-collectives.mlir
// BEFORE-NEXT: module_0000.step.0017.before_torus-split-dilated-convolutions.mlir
// BEFORE-NEXT: module_0000.step.0018.after_torus-split-dilated-convolutions.mlir
// BEFORE-NEXT: module_0000.step.0019.before_torus-to-linalg.mlir

// PRICED: Collectives of @chain on 16 replicas: 1 call site
// PRICED: # kind {{.*}} ring sent simulated location
// PRICED: 0 all_reduce sum f32[64,64] f32[64,64] 16384 all replicas 16 30720 {{[0-9.]+}} us {{.*}}chain.mlir:8:8
// PRICED: Simulated on v4-32 by the ICI cost model (runtime/cost): {{[0-9.]+}} us per step for all collectives.
// PRICED-NEXT: #0: torus over 16: bidirectional rings along 2 x (8.00 KiB), then 2 y (4.00 KiB), then 4 z (1.00 KiB), 10 steps
// COST: simulated step on v4-32 (16 v4 devices):
// COST-NEXT: compute {{.*}}(FLOPs {{.*}}, HBM {{.*}}: memory-bound)
// COST-NEXT: all_reduce
// COST-NEXT: total

// NODIR: torusc: --dump-dot writes into the dump directory; add --dump-dir=DIR
// BADDIR: torusc: cannot create the dump directory '/dev/null/x'
