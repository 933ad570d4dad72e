//===- Compile.cpp - Traced function to a JIT-loaded Executable -----------===//

#include "api/ExecutableImpl.h"
#include "codegen/Compiler.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/RuntimeAbi.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace torus {

Executable::Executable(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}
const std::string &Executable::name() const { return impl_->program.spec.name; }
int64_t Executable::numReplicas() const {
  return impl_->program.spec.numReplicas;
}
const std::vector<TensorSpec> &Executable::inputs() const {
  return impl_->program.spec.inputs;
}
const std::vector<TensorSpec> &Executable::outputs() const {
  return impl_->program.spec.outputs;
}

namespace {
/// A copy of `module` in a fresh context: compiling never touches the traced
/// function, so one TracedFunction can be compiled from several threads, and
/// everything lowering creates is freed with the copy.
std::pair<std::unique_ptr<mlir::MLIRContext>, mlir::OwningOpRef<mlir::ModuleOp>>
isolatedCopy(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  auto context = createTorusContext();
  auto copy = mlir::parseSourceString<mlir::ModuleOp>(text, context.get());
  return {std::move(context), std::move(copy)};
}
} // namespace

absl::StatusOr<Executable> compile(const TracedFunction &fn,
                                   const CompileOptions &options) {
  auto [context, module] = isolatedCopy(*fn.impl().module);
  if (!module)
    return absl::InternalError("compile: cannot copy the traced module");
  mlir::torus::CompilerOptions compilerOptions;
  compilerOptions.numReplicas = options.numReplicas;
  TORUS_ASSIGN_OR_RETURN(auto compiled,
                         mlir::torus::compileToLLVMIR(*module, compilerOptions));

  auto impl = std::make_shared<Executable::Impl>();
  rt::JitOptions jit;
  jit.optLevel = options.optLevel;
  jit.symbols = rt::runtimeAbiSymbols();
  TORUS_ASSIGN_OR_RETURN(impl->code,
                         rt::JitModule::load(std::move(compiled.llvmContext),
                                             std::move(compiled.llvmModule),
                                             jit));
  TORUS_ASSIGN_OR_RETURN(void *entry, impl->code->lookup(compiled.entrySymbol));
  impl->program.spec = std::move(compiled.spec);
  impl->program.entry = reinterpret_cast<rt::EntryFn>(entry);
  return Executable(std::move(impl));
}

} // namespace torus
