//===- JitModule.h - Generated code loaded into this process ----*- C++ -*-===//
//
// Optimizes an LLVM IR module for the host CPU and loads it with ORC's
// LLJIT, or loads an object file compiled ahead of time for this host
// (compileForHost, `torusc --emit=obj`). The runtime's ABI functions, and the
// process's own symbols (libm, malloc), resolve inside it. Depends on LLVM
// only, never on MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_JITMODULE_H
#define TORUS_RUNTIME_JIT_JITMODULE_H

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

struct JitOptions {
  /// LLVM optimization level, 0 to 3.
  int optLevel = 3;
  /// Symbols the code may call that the process does not export, such as
  /// the runtime ABI (runtimeAbiSymbols()).
  std::vector<std::pair<std::string_view, void *>> symbols;
};

/// The machine code is compiled for: an LLVM target triple, CPU name and
/// feature string (`+avx2,-avx512f,...`).
struct HostTarget {
  std::string triple;
  std::string cpu;
  std::string features;
};

enum class CodeFileType { Assembly, Object };

class JitModule {
public:
  /// Optimizes `module` for the host and loads it. Takes ownership of both.
  static absl::StatusOr<std::unique_ptr<JitModule>>
  load(std::unique_ptr<llvm::LLVMContext> context,
       std::unique_ptr<llvm::Module> module, const JitOptions &options);

  /// Runs LLVM's default pipeline at `optLevel` for the host CPU on `module`
  /// (setting its triple and data layout), as load() does.
  static absl::Status optimizeForHost(llvm::Module &module, int optLevel);

  /// Loads an object file compiled for this host by compileForHost.
  /// `name` identifies it in errors. Takes a copy of `bytes`.
  static absl::StatusOr<std::unique_ptr<JitModule>>
  loadObject(std::string_view bytes, std::string_view name,
             const JitOptions &options);
  /// loadObject() on the contents of the file at `path`.
  static absl::StatusOr<std::unique_ptr<JitModule>>
  loadObjectFile(const std::string &path, const JitOptions &options);

  /// The target the JIT compiles for: this host's CPU and its features.
  static absl::StatusOr<HostTarget> hostTarget();

  /// Compiles `module` to assembly text or an ELF object for the host, with
  /// the target machine the JIT uses (position-independent, so both
  /// loadObject() and a system linker accept the object). Runs only code
  /// generation at `optLevel`: call optimizeForHost() first. Sets the
  /// module's triple and data layout.
  static absl::StatusOr<std::string>
  compileForHost(llvm::Module &module, CodeFileType type, int optLevel);

  /// OK if code compiled for `target` can run on this host: same
  /// architecture and OS, and every CPU feature it was compiled with
  /// (`+feature` in target.features) present here. FailedPrecondition naming
  /// the missing features otherwise.
  static absl::Status checkHostCanRun(const HostTarget &target);

  /// Address of `symbol` in the loaded code.
  absl::StatusOr<void *> lookup(std::string_view symbol);

  ~JitModule();

private:
  explicit JitModule(std::unique_ptr<llvm::orc::LLJIT> jit);
  /// A JIT for the host with `options.symbols` and the process's symbols.
  static absl::StatusOr<std::unique_ptr<llvm::orc::LLJIT>>
  createJit(const JitOptions &options);
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_JITMODULE_H
