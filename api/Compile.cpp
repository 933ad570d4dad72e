//===- Compile.cpp - Traced function to a JIT-loaded Executable -----------===//

#include "api/CompileKeepingShardings.h"
#include "api/ExecutableImpl.h"
#include "api/TraceFiles.h"
#include "codegen/Compiler.h"
#include "codegen/IRDumper.h"
#include "codegen/MemoryReport.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/trace/TraceRecorder.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>

namespace torus {

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

/// The dumper `options` ask for (dumpDir, else TORUS_DUMP_TO), or null.
absl::StatusOr<std::unique_ptr<mlir::torus::IRDumper>>
dumperFor(const CompileOptions &options, const std::string &name) {
  std::string directory = options.dumpDir;
  if (directory.empty())
    if (const char *env = std::getenv("TORUS_DUMP_TO"))
      directory = env;
  if (directory.empty())
    return nullptr;
  // Modules compiled by this process, numbered as XLA numbers its dumps.
  static std::atomic<int> nextModule{0};
  mlir::torus::IRDumperOptions dumpOptions;
  dumpOptions.printingFlags.enableDebugInfo();
  return mlir::torus::IRDumper::create(directory, name, nextModule++,
                                       dumpOptions);
}

/// InvalidArgument naming the first field of `options` out of its range.
absl::Status checkOptions(const CompileOptions &options) {
  if (options.numReplicas < 1)
    return absl::InvalidArgumentError(
        fmt::format("CompileOptions::numReplicas is {}; it must be at least 1",
                    options.numReplicas));
  if (options.numPartitions < 0)
    return absl::InvalidArgumentError(
        fmt::format("CompileOptions::numPartitions is {}; it must be at least "
                    "0 (0: as traced)",
                    options.numPartitions));
  if (options.optLevel < 0 || options.optLevel > 3)
    return absl::InvalidArgumentError(fmt::format(
        "CompileOptions::optLevel is {}; it must be 0 to 3", options.optLevel));
  return absl::OkStatus();
}

std::string printLLVM(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}
} // namespace

namespace {
absl::StatusOr<Executable>
compileTraced(const TracedFunction &fn, const CompileOptions &options,
              std::vector<std::string> &inputShardings,
              std::vector<std::string> &outputShardings) {
  TORUS_RETURN_IF_ERROR(checkOptions(options));
  auto [context, module] = isolatedCopy(*fn.impl().module);
  if (!module)
    return absl::InternalError("compile: cannot copy the traced module");
  TORUS_ASSIGN_OR_RETURN(rt::CpuTarget target,
                         rt::defaultCpuTarget(options.target));
  TORUS_RETURN_IF_ERROR(rt::checkHostCanRun(target));
  mlir::torus::CompilerOptions compilerOptions;
  compilerOptions.vectorBits = target.vectorBits();
  compilerOptions.numReplicas = options.numReplicas;
  compilerOptions.numPartitions = options.numPartitions;
  compilerOptions.fuse = options.fuse;
  compilerOptions.planBuffers = options.planBuffers;
  compilerOptions.traceKernels = options.kernelSpans || traceToIsSet();
  TORUS_ASSIGN_OR_RETURN(auto dumper, dumperFor(options, fn.impl().name));
  // Executable::memoryReport(): read from the bufferized program, as torusc
  // reads its memory.txt.
  absl::StatusOr<mlir::torus::MemoryReport> memory =
      absl::InternalError("compile: the bufferized program was not seen");
  const int64_t numInputs = static_cast<int64_t>(fn.inputs().size());
  compilerOptions.afterStage = [&](mlir::torus::Stage stage,
                                   mlir::ModuleOp m) {
    if (dumper && stage == mlir::torus::Stage::Torus)
      dumper->recordError(dumper->writeNumberedModule("input", m));
    if (stage == mlir::torus::Stage::Bufferized)
      memory = mlir::torus::analyzeMemory(m, numInputs);
  };
  if (dumper) {
    compilerOptions.configurePassManager = [&](mlir::PassManager &pm) {
      pm.addInstrumentation(dumper->createInstrumentation());
    };
  }
  TORUS_ASSIGN_OR_RETURN(auto compiled,
                         mlir::torus::compileToLLVMIR(*module, compilerOptions));
  if (dumper)
    dumper->recordError(
        dumper->writeNumbered("llvm", "ll", printLLVM(*compiled.llvmModule)));
  inputShardings = compiled.inputShardings;
  outputShardings = compiled.outputShardings;

  // One path for the JIT and for saved programs: optimize, emit an object
  // for the target, load that object.
  llvm::Module &llvmModule = *compiled.llvmModule;
  TORUS_RETURN_IF_ERROR(
      rt::JitModule::optimizeFor(llvmModule, target, options.optLevel));
  if (dumper) {
    dumper->recordError(
        dumper->writeNumbered("llvm-opt", "ll", printLLVM(llvmModule)));
    TORUS_RETURN_IF_ERROR(dumper->status());
  }
  TORUS_ASSIGN_OR_RETURN(
      std::string object,
      rt::JitModule::compileFor(llvmModule, target, rt::CodeFileType::Object,
                                options.optLevel));
  rt::ProgramArtifact artifact;
  artifact.spec = std::move(compiled.spec);
  artifact.entrySymbol = compiled.entrySymbol;
  artifact.objectHash = rt::objectHash(object);
  artifact.numPartitions = compiled.numPartitions;
  artifact.targetTriple = target.triple;
  artifact.targetCpu = target.cpu;
  artifact.targetFeatures = target.features;
  absl::StatusOr<MemoryReport> memoryReport =
      memory.ok() ? absl::StatusOr<MemoryReport>(mlir::torus::summarizeMemory(
                        *memory, artifact.spec.numReplicas *
                                     std::max<int64_t>(1, artifact.numPartitions)))
                  : absl::StatusOr<MemoryReport>(memory.status());
  return loadExecutable(std::move(object), std::move(artifact),
                        std::move(memoryReport));
}
} // namespace

absl::StatusOr<Executable>
compileKeepingShardings(const TracedFunction &fn, const CompileOptions &options,
                        std::vector<std::string> &inputShardings,
                        std::vector<std::string> &outputShardings) {
  const std::string traceFile =
      traceFileFor(options.traceFile, TraceKind::Compile, fn.impl().name);
  if (traceFile.empty())
    return compileTraced(fn, options, inputShardings, outputShardings);
  // The calling thread's track: the passes, stages and LLVM steps find it.
  rt::TraceRecorder trace;
  constexpr int64_t kPid = 1, kTid = 1;
  trace.nameProcess(kPid, "torus::compile");
  trace.nameThread(kPid, kTid, "compile " + fn.impl().name);
  absl::StatusOr<Executable> compiled = absl::UnknownError("not compiled");
  {
    rt::TraceTrack track(&trace, kPid, kTid);
    rt::TraceSpan span("compile " + fn.impl().name, "compile");
    compiled = compileTraced(fn, options, inputShardings, outputShardings);
  }
  // A failed compile's trace too; its own error comes first.
  absl::Status written = trace.writeFile(traceFile);
  if (!compiled.ok())
    return compiled;
  TORUS_RETURN_IF_ERROR(written);
  return compiled;
}

absl::StatusOr<Executable> compile(const TracedFunction &fn,
                                   const CompileOptions &options) {
  std::vector<std::string> inputShardings, outputShardings;
  return compileKeepingShardings(fn, options, inputShardings, outputShardings);
}

} // namespace torus
