//===- LLVMTranslation.cpp - LLVM dialect to an LLVM IR module ------------===//

#include "codegen/LLVMTranslation.h"
#include "ir/DiagnosticCollector.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace mlir::torus {

std::string packedEntryName(const std::string &name) {
  return "__torus_entry_" + name;
}

absl::StatusOr<std::unique_ptr<llvm::Module>>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                  const std::string &name, unsigned numBuffers,
                  int64_t workspaceBytes) {
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  DiagnosticCollector diags(module->getContext());
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, name);
  if (!llvmModule)
    return absl::InternalError("translation to LLVM IR failed: " +
                               diags.take());

  llvm::Function *entry = llvmModule->getFunction(name);
  if (!entry)
    return absl::InternalError(
        fmt::format("LLVM IR has no function @{}", name));
  const unsigned numArgs = numBuffers + (workspaceBytes > 0 ? 1 : 0);
  if (entry->arg_size() != numArgs)
    return absl::InternalError(fmt::format(
        "@{} takes {} arguments after lowering, expected {} buffer pointers",
        name, entry->arg_size(), numArgs));

  // void __torus_entry_<name>(ptr %buffers) { call @name(buffers[0], ...) }
  llvm::IRBuilder<> b(context);
  auto *ptrTy = b.getPtrTy();
  auto *packed = llvm::Function::Create(
      llvm::FunctionType::get(b.getVoidTy(), {ptrTy}, false),
      llvm::GlobalValue::ExternalLinkage, packedEntryName(name), *llvmModule);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", packed));
  llvm::SmallVector<llvm::Value *> args;
  for (unsigned i = 0; i < numBuffers; ++i) {
    llvm::Value *slot =
        b.CreateConstInBoundsGEP1_64(ptrTy, packed->getArg(0), i);
    args.push_back(b.CreateLoad(ptrTy, slot));
  }
  if (workspaceBytes > 0) {
    // void *__torus_workspace(int64_t bytes): the core's workspace.
    llvm::FunctionCallee workspace = llvmModule->getOrInsertFunction(
        "__torus_workspace",
        llvm::FunctionType::get(ptrTy, {b.getInt64Ty()}, false));
    args.push_back(b.CreateCall(workspace, {b.getInt64(workspaceBytes)}));
  }
  b.CreateCall(entry, args);
  b.CreateRetVoid();

  // Only the packed entry is visible: user functions may be called `exp` or
  // `abs`, and must neither clash with nor be called instead of libm's.
  // Every function runs with subnormals flushed (runtime/FloatMode.h), and
  // says so, so that LLVM folds constants as the CPU will compute.
  for (llvm::Function &fn : *llvmModule) {
    if (fn.isDeclaration())
      continue;
    if (&fn != packed)
      fn.setLinkage(llvm::GlobalValue::InternalLinkage);
    fn.addFnAttr("denormal-fp-math", "preserve-sign,preserve-sign");
  }

  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*llvmModule, &os))
    return absl::InternalError("generated LLVM IR is invalid: " + problems);
  return llvmModule;
}

} // namespace mlir::torus
