//===- LlvmDiagnostics.h - LLVM's diagnostics into Statuses -----*- C++ -*-===//
//
// Without a handler, an LLVMContext prints every diagnostic of the
// optimizer and the code generator on stderr ("warning: stack frame size
// ... exceeds limit", "error: ...") and, for an error, exits the process.
// A library must do neither: captureLlvmDiagnostics() installs a handler
// that records them instead, and takeLlvmErrors() turns the recorded
// errors into the Status of the step that caused them. Warnings and
// remarks are kept (warnings()), never printed.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_LLVMDIAGNOSTICS_H
#define TORUS_RUNTIME_JIT_LLVMDIAGNOSTICS_H

#include "torus/Status.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace torus::rt {

/// The diagnostics of one LLVMContext, shared by its handler and whoever
/// checks them (the JIT compiles lazily, at lookup).
class LlvmDiagnostics {
public:
  /// Records one diagnostic (the handler calls this).
  void record(bool isError, std::string message);
  /// The errors recorded since the last call, as an Internal error
  /// `<what>: <messages>`, and forgets them; OK when there were none.
  absl::Status takeErrors(std::string_view what);
  /// The warnings and remarks recorded so far, one per line.
  std::string warnings() const;

private:
  mutable std::mutex mutex_;
  std::string errors_, warnings_;
};

/// Routes `context`'s diagnostics into the returned record; the record the
/// context already has when called again.
std::shared_ptr<LlvmDiagnostics> captureLlvmDiagnostics(
    llvm::LLVMContext &context);

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_LLVMDIAGNOSTICS_H
