//===- LlvmDiagnostics.cpp - LLVM's diagnostics into Statuses -------------===//

#include "runtime/jit/LlvmDiagnostics.h"

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace torus::rt {

namespace {

/// Marks a context's handler as ours (DiagnosticHandler::DiagnosticContext;
/// LLVM is built without RTTI, so no dynamic_cast).
char kCaptureTag;

struct CaptureHandler : llvm::DiagnosticHandler {
  explicit CaptureHandler(std::shared_ptr<LlvmDiagnostics> diagnostics)
      : llvm::DiagnosticHandler(&kCaptureTag),
        diagnostics(std::move(diagnostics)) {}

  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    diagnostics->record(info.getSeverity() == llvm::DS_Error, os.str());
    return true; // handled: nothing printed, no exit
  }

  std::shared_ptr<LlvmDiagnostics> diagnostics;
};

} // namespace

void LlvmDiagnostics::record(bool isError, std::string message) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string &into = isError ? errors_ : warnings_;
  if (!into.empty())
    into += isError ? "; " : "\n";
  into += message;
}

absl::Status LlvmDiagnostics::takeErrors(std::string_view what) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (errors_.empty())
    return absl::OkStatus();
  absl::Status status =
      absl::InternalError(fmt::format("{}: {}", what, errors_));
  errors_.clear();
  return status;
}

std::string LlvmDiagnostics::warnings() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return warnings_;
}

std::shared_ptr<LlvmDiagnostics>
captureLlvmDiagnostics(llvm::LLVMContext &context) {
  if (const llvm::DiagnosticHandler *current = context.getDiagHandlerPtr();
      current && current->DiagnosticContext == &kCaptureTag)
    return static_cast<const CaptureHandler *>(current)->diagnostics;
  auto diagnostics = std::make_shared<LlvmDiagnostics>();
  context.setDiagnosticHandler(std::make_unique<CaptureHandler>(diagnostics));
  return diagnostics;
}

} // namespace torus::rt
