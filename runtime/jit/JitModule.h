//===- JitModule.h - Generated code loaded into this process ----*- C++ -*-===//
//
// Optimizes an LLVM IR module for the host CPU and loads it with ORC's
// LLJIT. The runtime's ABI functions, and the process's own symbols (libm,
// malloc), resolve inside it. Depends on LLVM only, never on MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_JITMODULE_H
#define TORUS_RUNTIME_JIT_JITMODULE_H

#include "torus/Status.h"

#include <memory>
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

class JitModule {
public:
  /// Optimizes `module` for the host and loads it. Takes ownership of both.
  static absl::StatusOr<std::unique_ptr<JitModule>>
  load(std::unique_ptr<llvm::LLVMContext> context,
       std::unique_ptr<llvm::Module> module, const JitOptions &options);

  /// Runs LLVM's default pipeline at `optLevel` for the host CPU on `module`
  /// (setting its triple and data layout), as load() does.
  static absl::Status optimizeForHost(llvm::Module &module, int optLevel);

  /// Address of `symbol` in the loaded code.
  absl::StatusOr<void *> lookup(std::string_view symbol);

  ~JitModule();

private:
  explicit JitModule(std::unique_ptr<llvm::orc::LLJIT> jit);
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_JITMODULE_H
