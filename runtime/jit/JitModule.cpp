//===- JitModule.cpp - Generated code loaded into this process ------------===//

#include "runtime/jit/JitModule.h"
#include "runtime/jit/BoolMemoryAsBytes.h"
#include "runtime/jit/LlvmDiagnostics.h"
#include "runtime/jit/PerfMap.h"
#include "runtime/SupportRoutines.h"
#include "runtime/trace/TraceRecorder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <fmt/format.h>

#include <mutex>

namespace torus::rt {

namespace {

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

absl::Status toStatus(llvm::Error error, std::string_view what) {
  std::string message = llvm::toString(std::move(error));
  return absl::InternalError(fmt::format("{}: {}", what, message));
}

llvm::OptimizationLevel toLevel(int optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::OptimizationLevel::O0;
  case 1:
    return llvm::OptimizationLevel::O1;
  case 2:
    return llvm::OptimizationLevel::O2;
  default:
    return llvm::OptimizationLevel::O3;
  }
}

/// A machine builder for `target` (the host's when its triple is empty).
absl::StatusOr<llvm::orc::JITTargetMachineBuilder>
targetMachine(const CpuTarget &target, int optLevel) {
  initializeNativeTarget();
  CpuTarget resolved = target;
  if (resolved.triple.empty()) {
    TORUS_ASSIGN_OR_RETURN(resolved, hostCpuTarget());
  }
  llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(resolved.triple)};
  jtmb.setCPU(resolved.cpu);
  std::vector<std::string> features;
  for (llvm::StringRef f : llvm::split(llvm::StringRef(resolved.features), ','))
    if (!f.empty())
      features.push_back(f.str());
  jtmb.addFeatures(features);
  jtmb.setCodeGenOptLevel(optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
                           : optLevel == 0 ? llvm::CodeGenOptLevel::None
                                           : llvm::CodeGenOptLevel::Default);
  return jtmb;
}

absl::Status optimize(llvm::Module &module, llvm::TargetMachine &tm,
                      int optLevel) {
  module.setTargetTriple(tm.getTargetTriple().str());
  module.setDataLayout(tm.createDataLayout());
  if (optLevel <= 0)
    return absl::OkStatus();
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // No loop unrolling: the kernel stage has already unrolled the loops
  // that need it into register tiles, and LLVM's unroller only copied
  // them again. Without it the MLP training step compiles in about half
  // the time (LLVM's part 520 -> 190 ms, its object 78 -> 22 KB), its
  // kernels running as fast (benchmarks/README.md). The loop vectorizer
  // still vectorizes (and interleaves) the scalar loops left.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  // Pred buffers read as bytes, so that the vectorizer can load them.
  pb.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
        mpm.addPass(
            llvm::createModuleToFunctionPassAdaptor(BoolMemoryAsBytesPass()));
      });
  pb.buildPerModuleDefaultPipeline(toLevel(optLevel)).run(module, mam);
  return absl::OkStatus();
}

} // namespace

absl::Status JitModule::optimizeFor(llvm::Module &module,
                                    const CpuTarget &target, int optLevel) {
  TraceSpan span("LLVM optimization", "llvm");
  span.addArg("opt_level", int64_t{optLevel});
  auto diagnostics = captureLlvmDiagnostics(module.getContext());
  TORUS_ASSIGN_OR_RETURN(auto jtmb, targetMachine(target, optLevel));
  auto tm = jtmb.createTargetMachine();
  if (!tm)
    return toStatus(tm.takeError(), "cannot create a target machine");
  TORUS_RETURN_IF_ERROR(optimize(module, **tm, optLevel));
  return diagnostics->takeErrors("LLVM optimization");
}

struct JitModule::SessionErrors {
  std::mutex mutex;
  std::string text;
};

JitModule::JitModule(std::unique_ptr<llvm::orc::LLJIT> jit,
                     std::shared_ptr<SessionErrors> errors)
    : jit_(std::move(jit)), errors_(std::move(errors)) {}
JitModule::~JitModule() = default;

absl::StatusOr<std::unique_ptr<llvm::orc::LLJIT>>
JitModule::createJit(const JitOptions &options,
                     const std::shared_ptr<SessionErrors> &errors) {
  TORUS_ASSIGN_OR_RETURN(auto jtmb,
                         targetMachine(options.target, options.optLevel));
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(jtmb).create();
  if (!jit)
    return toStatus(jit.takeError(), "cannot create the JIT");
  // ORC prints errors that reach no caller ("JIT session error: Symbols not
  // found") on stderr; a library keeps them for the Status instead.
  (*jit)->getExecutionSession().setErrorReporter(
      [errors](llvm::Error error) {
        std::string message = llvm::toString(std::move(error));
        std::lock_guard<std::mutex> lock(errors->mutex);
        if (!errors->text.empty())
          errors->text += "; ";
        errors->text += message;
      });
  if (perfMapRequested() && !writePerfMapFor(**jit))
    return absl::FailedPreconditionError(
        "TORUS_PERF_MAP is set, but this JIT does not link with JITLink, "
        "so it cannot list its functions for perf");
  // Generated code resolves against the runtime's tables only, never the
  // process: a libcall nothing provides is an error naming it on every host
  // (SupportRoutines.h), not a crash on some, and nothing of the embedding
  // program is called by accident.
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();
  llvm::orc::SymbolMap symbols;
  auto define = [&](std::string_view name, void *address) {
    symbols[(*jit)->mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  };
  for (auto [name, address] : supportRoutineSymbols())
    define(name, address);
  for (auto [name, address] : options.symbols)
    define(name, address);
  if (llvm::Error e = dylib.define(llvm::orc::absoluteSymbols(symbols)))
    return toStatus(std::move(e), "cannot define runtime symbols");
  return std::move(*jit);
}

absl::StatusOr<std::unique_ptr<JitModule>>
JitModule::load(std::unique_ptr<llvm::LLVMContext> context,
                std::unique_ptr<llvm::Module> module,
                const JitOptions &options) {
  if (!options.target.triple.empty())
    TORUS_RETURN_IF_ERROR(checkHostCanRun(options.target));
  TORUS_ASSIGN_OR_RETURN(auto jtmb,
                         targetMachine(options.target, options.optLevel));
  auto tm = jtmb.createTargetMachine();
  if (!tm)
    return toStatus(tm.takeError(), "cannot create a target machine");
  auto diagnostics = captureLlvmDiagnostics(*context);
  {
    TraceSpan span("LLVM optimization", "llvm");
    TORUS_RETURN_IF_ERROR(optimize(*module, **tm, options.optLevel));
    TORUS_RETURN_IF_ERROR(diagnostics->takeErrors("LLVM optimization"));
  }

  TraceSpan span("JIT load", "llvm");
  auto errors = std::make_shared<SessionErrors>();
  TORUS_ASSIGN_OR_RETURN(auto jit, createJit(options, errors));
  if (llvm::Error e = jit->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    return toStatus(std::move(e), "cannot add the module to the JIT");
  auto loaded = std::unique_ptr<JitModule>(
      new JitModule(std::move(jit), std::move(errors)));
  loaded->llvmDiagnostics_ = std::move(diagnostics);
  return loaded;
}

absl::StatusOr<std::unique_ptr<JitModule>>
JitModule::loadObject(std::string_view bytes, std::string_view name,
                      const JitOptions &options) {
  TraceSpan span("JIT load object", "llvm");
  span.addArg("bytes", static_cast<int64_t>(bytes.size()));
  auto errors = std::make_shared<SessionErrors>();
  TORUS_ASSIGN_OR_RETURN(auto jit, createJit(options, errors));
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(bytes.data(), bytes.size()),
      llvm::StringRef(name.data(), name.size()));
  if (llvm::Error e = jit->addObjectFile(std::move(buffer)))
    return toStatus(std::move(e), fmt::format("cannot load '{}'", name));
  // Linking happens at the first lookup(); an unresolved symbol is reported
  // there.
  return std::unique_ptr<JitModule>(
      new JitModule(std::move(jit), std::move(errors)));
}

absl::StatusOr<std::unique_ptr<JitModule>>
JitModule::loadObjectFile(const std::string &path, const JitOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return absl::NotFoundError(fmt::format("cannot read '{}': {}", path,
                                           buffer.getError().message()));
  return loadObject(std::string_view((*buffer)->getBufferStart(),
                                     (*buffer)->getBufferSize()),
                    path, options);
}

absl::StatusOr<std::string> JitModule::compileFor(llvm::Module &module,
                                                  const CpuTarget &target,
                                                  CodeFileType type,
                                                  int optLevel) {
  TraceSpan span(type == CodeFileType::Object ? "machine code: object"
                                              : "machine code: assembly",
                 "llvm");
  TORUS_ASSIGN_OR_RETURN(auto jtmb, targetMachine(target, optLevel));
  // Position-independent code: JITLink loads it as well as a system linker
  // linking it into an executable or a shared library.
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  auto tm = jtmb.createTargetMachine();
  if (!tm)
    return toStatus(tm.takeError(), "cannot create a target machine");
  auto diagnostics = captureLlvmDiagnostics(module.getContext());
  module.setTargetTriple((*tm)->getTargetTriple().str());
  module.setDataLayout((*tm)->createDataLayout());
  llvm::SmallVector<char, 0> code;
  llvm::raw_svector_ostream out(code);
  llvm::legacy::PassManager pm;
  if ((*tm)->addPassesToEmitFile(pm, out, nullptr,
                                 type == CodeFileType::Object
                                     ? llvm::CodeGenFileType::ObjectFile
                                     : llvm::CodeGenFileType::AssemblyFile))
    return absl::InternalError(
        "the target machine cannot emit this file type");
  pm.run(module);
  TORUS_RETURN_IF_ERROR(diagnostics->takeErrors("LLVM code generation"));
  return std::string(code.begin(), code.end());
}

absl::StatusOr<void *> JitModule::lookup(std::string_view symbol) {
  // The first lookup links what was added (JITLink): the JIT's link step.
  TraceSpan span("JIT link and lookup", "llvm");
  auto address = jit_->lookup(llvm::StringRef(symbol.data(), symbol.size()));
  // Errors of compiling the IR (at the first lookup) are LLVM diagnostics.
  if (llvmDiagnostics_)
    if (absl::Status s = llvmDiagnostics_->takeErrors("LLVM code generation");
        !s.ok()) {
      if (!address)
        llvm::consumeError(address.takeError());
      return s;
    }
  if (!address) {
    absl::Status status =
        toStatus(address.takeError(),
                 fmt::format("cannot find '{}' in generated code", symbol));
    std::lock_guard<std::mutex> lock(errors_->mutex);
    if (errors_->text.empty())
      return status;
    return absl::Status(status.code(),
                        fmt::format("{} ({})", std::string(status.message()),
                                    std::exchange(errors_->text, "")));
  }
  return address->toPtr<void *>();
}

} // namespace torus::rt
