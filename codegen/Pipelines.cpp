//===- Pipelines.cpp - The lowering pipelines every tool shares -----------===//

#include "codegen/Pipelines.h"
#include "codegen/Passes.h"
#include "ir/TorusOps.h"
#include "passes/Passes.h"
#include "runtime/jit/CpuTarget.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

namespace mlir::torus {

void buildLowerToLinalgPipeline(OpPassManager &pm,
                                const CodegenOptions &options) {
  // Algebraic simplification on torus ops (folds and patterns such as
  // transpose(dot_general) -> dot_general) before they become loops.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTorusLowerCollectives());
  // Transposed convolutions without the multiply-adds of their inserted
  // zeros (SplitDilatedConvolutions.cpp).
  pm.addNestedPass<func::FuncOp>(createTorusSplitDilatedConvolutions());
  pm.addNestedPass<func::FuncOp>(createTorusToLinalg());
  pm.addPass(createCanonicalizerPass());
  TorusFusionOptions fusion;
  fusion.fuse = options.fuse;
  pm.addNestedPass<func::FuncOp>(createTorusFusion(fusion));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void buildShardingPipeline(OpPassManager &pm) {
  pm.addPass(createTorusShardingPropagation());
}

void buildSpmdPipeline(OpPassManager &pm) {
  // The partitioner shares offset computations itself and the collective
  // passes clean up after themselves; the linalg stage canonicalizes.
  pm.addPass(createTorusSpmdPartition());
  pm.addPass(createTorusRemoveRedundantReshards());
  pm.addPass(createTorusReduceScatterCreator());
  pm.addPass(createTorusAllReduceSimplifier());
  pm.addPass(createTorusAllReduceCombiner());
}

namespace {
/// `pass` with its textual options set, so that a printed pipeline shows
/// them and parses back to the same passes (options given to a pass's C++
/// constructor are invisible to its textual form).
std::unique_ptr<Pass> withOptions(std::unique_ptr<Pass> pass,
                                  StringRef options) {
  LogicalResult parsed = pass->initializeOptions(
      options, [](const Twine &message) {
        llvm::report_fatal_error("bad built-in pass options: " + message);
        return failure();
      });
  (void)parsed;
  return pass;
}
} // namespace

int64_t defaultVectorBits() {
  // A bad TORUS_TARGET is reported where code is compiled (compile(),
  // torusc, torus-opt's startup); here, building a pipeline, the host's
  // width stands in. A library prints nothing.
  auto target = ::torus::rt::defaultCpuTarget();
  return target.ok() ? target->vectorBits() : hostVectorBits();
}

int64_t hostVectorBits() {
  auto host = ::torus::rt::hostCpuTarget();
  return host.ok() ? host->vectorBits() : 128;
}

int64_t targetVectorBits(const CodegenOptions &options) {
  return options.vectorBits > 0 ? options.vectorBits : defaultVectorBits();
}

void buildBufferizePipeline(OpPassManager &pm, const CodegenOptions &options) {
  // Large splats are filled at run time: a global initializer would be as
  // big as the data and take as long to compile.
  pm.addNestedPass<func::FuncOp>(createTorusSplatsToFills());
  // Entry arguments are the caller's input buffers: never written.
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  pm.addPass(withOptions(bufferization::createOneShotBufferizePass(),
                         "bufferize-function-boundaries=true "
                         "function-boundary-type-conversion="
                         "identity-layout-map"));
  pm.addNestedPass<func::FuncOp>(createTorusUniqueResultBuffers());
  pm.addPass(withOptions(bufferization::createBufferResultsToOutParamsPass(),
                         "hoist-static-allocs=true"));
  if (options.planBuffers)
    pm.addPass(createTorusPlanBuffers());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
}

void buildBuffersToLLVMPipeline(OpPassManager &pm,
                                const CodegenOptions &options) {
  // Kernel spans for run traces, while the ops still name their kernels.
  if (options.traceKernels)
    pm.addPass(createTorusTraceKernels());
  // The kernel stage: contractions and convolutions tiled and vectorized
  // for the host CPU (VectorizeKernels.cpp, docs/codegen.md).
  pm.addNestedPass<func::FuncOp>(createTorusFuseEpilogues());
  pm.addPass(createCanonicalizerPass()); // static panel shapes
  buildKernelPipeline(pm, options);
  std::string bits =
      "vector-bits=" + std::to_string(targetVectorBits(options));
  pm.addNestedPass<func::FuncOp>(
      withOptions(createTorusVectorizeReductions(), bits));
  // Consecutive kernels over the same rows, each row read once for all of
  // them (FuseRows.cpp).
  pm.addNestedPass<func::FuncOp>(createTorusFuseRows());
  // Window reductions (pooling and its gradient) with their output rows
  // innermost, where LLVM vectorizes them (InnermostParallelLoop.cpp).
  pm.addNestedPass<func::FuncOp>(createTorusInnermostParallelLoop());
  // The other large kernels' outer loops, and the reductions' rows, over
  // host threads (ParallelLoops.cpp).
  pm.addPass(createTorusParallelLoops());
  // Broadcast operands read once per row, so that LLVM vectorizes rows
  // whose output shares the workspace with them (RowInvariants.cpp).
  pm.addNestedPass<func::FuncOp>(createTorusRowInvariants());
  // The kernels' own temporaries join the buffer plan (torus-plan-buffers).
  pm.addPass(withOptions(createTorusPlanBuffers(), "only-grow=true"));
  // Loops, then LLVM (with the bare-pointer calling convention, which takes
  // zero-element buffers only as memref<0xT>).
  pm.addPass(createTorusEmptyBufferArguments());
  pm.addPass(createTorusNoAliasArguments());
  pm.addNestedPass<func::FuncOp>(createTorusStridedCopiesToLinalg());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // c64/c128 arithmetic on its parts; complex values stay structs of two
  // floats (convert-complex-to-llvm, below).
  pm.addNestedPass<func::FuncOp>(createTorusComplexToStandard());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertSCFToCFPass());
  // Math to LLVM's intrinsics, then what has none (erf, cbrt) to libm calls
  // (runtime/SupportRoutines.cpp has them); before the vector lowering, which
  // lowers the libm conversion's unrolling of vector math.
  // f32 exp inline (a libm call per element otherwise, vectors unrolled).
  pm.addNestedPass<func::FuncOp>(createTorusExpandExp());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(withOptions(createConvertVectorToLLVMPass(), // kernels' vectors
                         "reassociate-fp-reductions=true"));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions func;
  func.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(func));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // i1 buffers hold bytes; LLVM's <N x i1> in memory is bits.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createTorusBoolVectorsAsBytes());
  pm.addPass(createCanonicalizerPass());
}

void buildLowerToLLVMPipeline(OpPassManager &pm) {
  buildBufferizePipeline(pm);
  buildBuffersToLLVMPipeline(pm);
}

void registerTorusPipelines() {
  // MLIR's registries are process-wide and reject a pipeline registered
  // twice; every tool may call this.
  static std::once_flag once;
  std::call_once(once, [] {
    registerCodegenPasses(); // every pass in codegen/Passes.td
    PassPipelineRegistration<>(
        "torus-lower-to-linalg", "Lower torus to linalg on tensors",
        [](OpPassManager &pm) { buildLowerToLinalgPipeline(pm); });
    PassPipelineRegistration<>("torus-lower-to-llvm",
                               "Lower linalg on tensors to the LLVM dialect",
                               buildLowerToLLVMPipeline);
    PassPipelineRegistration<>(
        "torus-bufferize", "Bufferize linalg on tensors and free temporaries",
        [](OpPassManager &pm) { buildBufferizePipeline(pm); });
    PassPipelineRegistration<>(
        "torus-buffers-to-llvm", "Lower linalg on buffers to the LLVM dialect",
        [](OpPassManager &pm) { buildBuffersToLLVMPipeline(pm); });
    PassPipelineRegistration<>(
        "torus-kernels",
        "The kernel stage for the default target (TORUS_TARGET or the host)",
        [](OpPassManager &pm) { buildKernelPipeline(pm); });
    PassPipelineRegistration<>("torus-compile",
                               "Lower torus all the way to the LLVM dialect",
                               [](OpPassManager &pm) {
                                 buildLowerToLinalgPipeline(pm);
                                 buildLowerToLLVMPipeline(pm);
                               });
  });
}

void registerCompilerPasses() {
  registerTorusPipelines();
  static std::once_flag once;
  std::call_once(once, [] {
    registerTorusPasses(); // sharding, partitioning, collective passes
    registerTransformsPasses(); // canonicalize, cse, ...
    registerLinalgPasses();
    bufferization::registerBufferizationPasses();
    memref::registerMemRefPasses();
    registerConvertAffineToStandardPass();
    registerSCFToControlFlowPass();
    registerFinalizeMemRefToLLVMConversionPass();
    registerConvertMathToLLVMPass();
    registerConvertMathToLibmPass();
    registerConvertComplexToLLVMPass();
    registerArithToLLVMConversionPass();
    registerConvertFuncToLLVMPass();
    registerConvertControlFlowToLLVMPass();
    registerConvertVectorToLLVMPass();
    registerReconcileUnrealizedCastsPass();
  });
}

void registerCodegenDialects(DialectRegistry &registry) {
  registry.insert<TorusDialect, affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  complex::ComplexDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}

} // namespace mlir::torus
