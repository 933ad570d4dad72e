//===- Pipelines.h - The lowering pipelines every tool shares ---*- C++ -*-===//
#ifndef TORUS_CODEGEN_PIPELINES_H
#define TORUS_CODEGEN_PIPELINES_H

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
/// annotations (issue 7). Returns false while those passes are not built:
/// the compiler then skips the stage, and stopping there is an error.
bool buildShardingPipeline(OpPassManager &pm);

/// SPMD partitioning: one program per partition, parameterized by
/// partition_id, with the collectives resharding needs (issue 7). Returns
/// false while not built, as buildShardingPipeline.
bool buildSpmdPipeline(OpPassManager &pm);

/// torus → linalg, tensor, arith and math on tensors; collectives become
/// runtime calls. (`--torus-lower-to-linalg` in torus-opt.)
void buildLowerToLinalgPipeline(OpPassManager &pm);

/// linalg on tensors → linalg on buffers: one-shot bufferization (results
/// become caller-provided out-parameters, entry arguments read-only) and
/// ownership-based deallocation of temporaries. The memory report
/// (MemoryReport.h) reads the module at this point.
void buildBufferizePipeline(OpPassManager &pm);

/// Buffers → the LLVM dialect: loops, and LLVM with the bare-pointer calling
/// convention, so the entry function takes one pointer per buffer.
void buildBuffersToLLVMPipeline(OpPassManager &pm);

/// buildBufferizePipeline then buildBuffersToLLVMPipeline.
/// (`--torus-lower-to-llvm` in torus-opt.)
void buildLowerToLLVMPipeline(OpPassManager &pm);

/// Registers the pipelines above, and torus → LLVM as `--torus-compile`,
/// for `mlir-opt`-style tools.
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
