//===- Compiler.h - torus module to LLVM IR plus a ProgramSpec --*- C++ -*-===//
//
// The whole compiler, top to bottom, in one place (Compiler.cpp): verify,
// lower to linalg, lower to the LLVM dialect, translate to LLVM IR, and
// describe the result to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_COMPILER_H
#define TORUS_CODEGEN_COMPILER_H

#include "runtime/ProgramSpec.h"
#include "torus/Status.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::torus {

/// How far to lower, in order: the `--emit=` ladder of torusc.
enum class Stage { Torus, Linalg, LLVMDialect, LLVMIR };

struct CompilerOptions {
  /// Replicas the program runs on (HLO replica_count).
  int64_t numReplicas = 1;
  /// Called with the module after each stage is reached (for dumps).
  std::function<void(Stage, ModuleOp)> afterStage;
};

/// An LLVM IR module ready for a JIT, with what the runtime must know.
struct CompiledModule {
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  /// Symbol of the packed `void(void**)` entry point in llvmModule.
  std::string entrySymbol;
  ::torus::rt::ProgramSpec spec;

  CompiledModule();
  CompiledModule(CompiledModule &&) noexcept;
  ~CompiledModule();
};

/// Lowers `module` (in place) to `stage` (at most LLVMDialect). Errors carry
/// `file:line:col` diagnostics.
absl::Status lowerToStage(ModuleOp module, Stage stage,
                          const CompilerOptions &options);

/// Compiles `module` (in place, it ends in the LLVM dialect) to LLVM IR.
absl::StatusOr<CompiledModule> compileToLLVMIR(ModuleOp module,
                                               const CompilerOptions &options);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_COMPILER_H
