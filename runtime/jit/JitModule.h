//===- JitModule.h - Generated code loaded into this process ----*- C++ -*-===//
//
// Optimizes an LLVM IR module for a CPU (CpuTarget.h: this host's by
// default) and loads it with ORC's LLJIT, or loads an object file compiled
// ahead of time (compileFor, `torusc --emit=obj`). The code resolves the
// runtime's ABI functions (JitOptions::symbols) and its support routines
// (SupportRoutines.h), nothing else. Depends on LLVM
// only, never on MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_JITMODULE_H
#define TORUS_RUNTIME_JIT_JITMODULE_H

#include "runtime/jit/CpuTarget.h"
#include "torus/Status.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace torus::rt {

class LlvmDiagnostics;

struct JitOptions {
  /// LLVM optimization level, 0 to 3.
  int optLevel = 3;
  /// The CPU load() compiles for; an empty triple: this host. load()
  /// refuses a target this host cannot run (checkHostCanRun).
  CpuTarget target;
  /// Symbols the code may call besides the support routines
  /// (supportRoutineSymbols(), always defined), such as the runtime ABI
  /// (runtimeAbiSymbols()). Nothing else resolves.
  std::vector<std::pair<std::string_view, void *>> symbols;
};

enum class CodeFileType { Assembly, Object };

class JitModule {
public:
  /// Optimizes `module` for `options.target` and loads it. Takes ownership
  /// of both.
  static absl::StatusOr<std::unique_ptr<JitModule>>
  load(std::unique_ptr<llvm::LLVMContext> context,
       std::unique_ptr<llvm::Module> module, const JitOptions &options);

  /// Runs LLVM's default pipeline at `optLevel` for `target` (an empty
  /// triple: this host) on `module`, setting its triple and data layout, as
  /// load() does.
  static absl::Status optimizeFor(llvm::Module &module,
                                  const CpuTarget &target, int optLevel);

  /// Loads an object file compiled by compileFor (for a target this host
  /// can run: check the artifact's record first, AotProgram does).
  /// `name` identifies it in errors. Takes a copy of `bytes`.
  static absl::StatusOr<std::unique_ptr<JitModule>>
  loadObject(std::string_view bytes, std::string_view name,
             const JitOptions &options);
  /// loadObject() on the contents of the file at `path`.
  static absl::StatusOr<std::unique_ptr<JitModule>>
  loadObjectFile(const std::string &path, const JitOptions &options);

  /// Compiles `module` to assembly text or an ELF object for `target`
  /// (an empty triple: this host), position-independent, so both
  /// loadObject() and a system linker accept the object. Runs only code
  /// generation at `optLevel`: call optimizeFor() first, with the same
  /// target. Sets the module's triple and data layout.
  static absl::StatusOr<std::string> compileFor(llvm::Module &module,
                                                const CpuTarget &target,
                                                CodeFileType type,
                                                int optLevel);

  /// Address of `symbol` in the loaded code.
  absl::StatusOr<void *> lookup(std::string_view symbol);

  ~JitModule();

  /// What ORC reported while linking (it would print it on stderr): kept,
  /// and added to the Status of the lookup that failed.
  struct SessionErrors;

private:
  JitModule(std::unique_ptr<llvm::orc::LLJIT> jit,
            std::shared_ptr<SessionErrors> errors);
  /// A JIT with `options.symbols` and the support routines, reporting its
  /// session's errors into `errors`.
  static absl::StatusOr<std::unique_ptr<llvm::orc::LLJIT>>
  createJit(const JitOptions &options,
            const std::shared_ptr<SessionErrors> &errors);
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::shared_ptr<SessionErrors> errors_;
  /// The diagnostics of the IR module's context (load(); the JIT compiles
  /// it at the first lookup), or null for objects.
  std::shared_ptr<LlvmDiagnostics> llvmDiagnostics_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_JITMODULE_H
