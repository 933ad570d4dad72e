//===- Pipelines.h - The lowering pipelines every tool shares ---*- C++ -*-===//
#ifndef TORUS_CODEGEN_PIPELINES_H
#define TORUS_CODEGEN_PIPELINES_H

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace mlir::torus {

/// torus → linalg, tensor, arith and math on tensors; collectives become
/// runtime calls. (`--torus-lower-to-linalg` in torus-opt.)
void buildLowerToLinalgPipeline(OpPassManager &pm);

/// linalg on tensors → the LLVM dialect: bufferize (results become
/// caller-provided out-parameters, entry arguments read-only), free
/// temporaries, loops, and LLVM with the bare-pointer calling convention, so
/// the entry function takes one pointer per buffer.
/// (`--torus-lower-to-llvm` in torus-opt.)
void buildLowerToLLVMPipeline(OpPassManager &pm);

/// Registers the two pipelines above, and torus → LLVM as
/// `--torus-compile`, for `mlir-opt`-style tools.
void registerTorusPipelines();

/// Every dialect and external interface model the pipelines use.
void registerCodegenDialects(DialectRegistry &registry);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_PIPELINES_H
