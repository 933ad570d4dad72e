//===- LLVMTranslation.h - LLVM dialect to an LLVM IR module ----*- C++ -*-===//
#ifndef TORUS_CODEGEN_LLVMTRANSLATION_H
#define TORUS_CODEGEN_LLVMTRANSLATION_H

#include "torus/Status.h"

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

/// Symbol of the packed entry point generated for function `name`.
std::string packedEntryName(const std::string &name);

/// Translates a module in the LLVM dialect to LLVM IR and adds the packed
/// entry point `void packedEntryName(name)(void **buffers)` that calls
/// `@name` with `buffers[0..numBuffers)`, the runtime's EntryFn.
absl::StatusOr<std::unique_ptr<llvm::Module>>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                  const std::string &name, unsigned numBuffers);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_LLVMTRANSLATION_H
