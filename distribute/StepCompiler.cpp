//===- StepCompiler.cpp - Compiling a traced step, shardings kept ---------===//

#include "distribute/StepCompiler.h"
#include "api/ExecutableImpl.h"
#include "codegen/Compiler.h"
#include "ir/trace/TracedFunctionImpl.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace torus::distribute::detail {

absl::StatusOr<CompiledProgram> compileStep(const TracedFunction &fn,
                                            int64_t numReplicas) {
  // A copy in a fresh context, as compile() makes: the traced function is
  // never mutated.
  std::string text;
  llvm::raw_string_ostream os(text);
  fn.impl().module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  auto context = createTorusContext();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(text, context.get());
  if (!module)
    return absl::InternalError("compile: cannot copy the traced module");

  mlir::torus::CompilerOptions options;
  options.numReplicas = numReplicas;
  options.numPartitions = 0; // the count the step was traced under
  TORUS_ASSIGN_OR_RETURN(auto compiled,
                         mlir::torus::compileToLLVMIR(*module, options));
  CompiledProgram out;
  out.numPartitions = compiled.numPartitions;
  out.inputShardings = compiled.inputShardings;
  out.outputShardings = compiled.outputShardings;

  const int optLevel = CompileOptions().optLevel;
  llvm::Module &llvmModule = *compiled.llvmModule;
  TORUS_RETURN_IF_ERROR(rt::JitModule::optimizeForHost(llvmModule, optLevel));
  TORUS_ASSIGN_OR_RETURN(
      std::string object,
      rt::JitModule::compileForHost(llvmModule, rt::CodeFileType::Object,
                                    optLevel));
  TORUS_ASSIGN_OR_RETURN(rt::HostTarget host, rt::JitModule::hostTarget());
  rt::ProgramArtifact artifact;
  artifact.spec = std::move(compiled.spec);
  artifact.entrySymbol = compiled.entrySymbol;
  artifact.numPartitions = compiled.numPartitions;
  artifact.targetTriple = host.triple;
  artifact.targetCpu = host.cpu;
  artifact.targetFeatures = host.features;
  TORUS_ASSIGN_OR_RETURN(Executable exe,
                         loadExecutable(std::move(object), std::move(artifact)));
  out.exe.emplace(std::move(exe));
  return out;
}

} // namespace torus::distribute::detail
