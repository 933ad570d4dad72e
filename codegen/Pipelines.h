//===- Pipelines.h - The lowering pipelines every tool shares ---*- C++ -*-===//
#ifndef TORUS_CODEGEN_PIPELINES_H
#define TORUS_CODEGEN_PIPELINES_H

#include <cstdint>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace mlir::torus {

// The stages of the compiler, in order (Compiler.h's Stage and torusc's
// `--emit=` ladder): torus → sharded → spmd → linalg → bufferized →
// llvm-dialect. Each builder below adds the passes from the previous stage
// to its own.

/// Sharding propagation: every op gets a sharding from the user's
/// annotations (torus-sharding-propagation; calls are inlined first).
void buildShardingPipeline(OpPassManager &pm);

/// SPMD partitioning: one program for every partition, parameterized by
/// partition_id, with the collectives resharding needs, then the collective
/// optimizations (redundant reshards, reduce-scatter creation, all-reduce
/// simplification and combining; canonicalization is left to the linalg
/// stage). The passes read the partition and
/// replica counts from the module's torus.num_partitions and
/// torus.num_replicas, which the compiler sets.
void buildSpmdPipeline(OpPassManager &pm);

/// Switches of the naive lowering, for comparisons (CompilerOptions).
struct CodegenOptions {
  /// torus-fusion fuses elementwise ops (else it only names the kernels).
  bool fuse = true;
  /// torus-plan-buffers carves the entry's temporaries from one workspace
  /// (else they are allocated and freed per call).
  bool planBuffers = true;
  /// The target CPU's vector width, for the kernel stage's
  /// `vector-bits` options; 0: the builders pass defaultVectorBits().
  int64_t vectorBits = 0;
  /// Bracket every kernel with the runtime's __torus_kernel_begin/end
  /// calls (torus-trace-kernels), for run traces.
  bool traceKernels = false;
};

/// torus → linalg, tensor, arith and math on tensors; collectives become
/// runtime calls; elementwise ops fused into kernels (torus-fusion).
/// (`--torus-lower-to-linalg` in torus-opt.)
void buildLowerToLinalgPipeline(OpPassManager &pm,
                                const CodegenOptions &options = {});

/// linalg on tensors → linalg on buffers: one-shot bufferization (results
/// become caller-provided out-parameters, entry arguments read-only) and
/// ownership-based deallocation of temporaries. The memory report
/// (MemoryReport.h) reads the module at this point. The entry's static
/// temporaries are views of one workspace (torus-plan-buffers).
void buildBufferizePipeline(OpPassManager &pm,
                            const CodegenOptions &options = {});

/// Buffers → the LLVM dialect: loops, and LLVM with the bare-pointer calling
/// convention, so the entry function takes one pointer per buffer.
void buildBuffersToLLVMPipeline(OpPassManager &pm,
                                const CodegenOptions &options = {});

/// The kernel stage, first in buildBuffersToLLVMPipeline: contractions and
/// convolutions on buffers become tiled, peeled, vectorized kernels for the
/// host CPU (torus-vectorize-kernels; docs/codegen.md).
void buildKernelPipeline(OpPassManager &pm,
                         const CodegenOptions &options = {});

/// The default target's vector register width in bits (512 with AVX-512F,
/// 256 with AVX2 and FMA, else 128): this host's, or TORUS_TARGET's when it
/// is set (runtime/jit/CpuTarget.h). The pipeline builders pass it as the
/// kernel passes' `vector-bits` option when CodegenOptions::vectorBits is 0;
/// with a bad TORUS_TARGET, this host's width (the tools name the problem;
/// the library prints nothing).
int64_t defaultVectorBits();

/// This host's vector register width in bits (as defaultVectorBits, without
/// TORUS_TARGET): the kernel passes' width when their `vector-bits` option
/// is 0 (a pass reads no environment variable).
int64_t hostVectorBits();

/// `options.vectorBits`, or defaultVectorBits() when it is 0: the width the
/// builders give the kernel passes.
int64_t targetVectorBits(const CodegenOptions &options);

/// buildBufferizePipeline then buildBuffersToLLVMPipeline.
/// (`--torus-lower-to-llvm` in torus-opt.)
void buildLowerToLLVMPipeline(OpPassManager &pm);

/// Registers the pipelines above (buildKernelPipeline as `--torus-kernels`),
/// and torus → LLVM as `--torus-compile`, for `mlir-opt`-style tools.
void registerTorusPipelines();

/// Registers every pass the pipelines above use (torus's, and upstream's
/// bufferization, linalg, conversion and transform passes), so that a
/// textual pipeline printed by a PassManager can be parsed back
/// (`torusc --pass-pipeline`).
void registerCompilerPasses();

/// Every dialect and external interface model the pipelines use.
void registerCodegenDialects(DialectRegistry &registry);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_PIPELINES_H
