//===- DiagnosticCollector.cpp - MLIR diagnostics as text -----------------===//

#include "ir/DiagnosticCollector.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::torus {

std::string formatLocation(Location loc) {
  FileLineColLoc fileLoc;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      fileLoc = f;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (fileLoc)
    return llvm::formatv("{0}:{1}:{2}", fileLoc.getFilename().getValue(),
                         fileLoc.getLine(), fileLoc.getColumn());
  std::string text;
  llvm::raw_string_ostream(text) << loc;
  return text;
}

namespace {
const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}
} // namespace

DiagnosticCollector::DiagnosticCollector(MLIRContext *ctx)
    : handler_(ctx, [this](Diagnostic &diag) {
        llvm::raw_string_ostream os(text_);
        if (!text_.empty())
          os << "\n";
        os << formatLocation(diag.getLocation()) << ": "
           << severityName(diag.getSeverity()) << ": " << diag;
        for (Diagnostic &note : diag.getNotes())
          os << "\n" << formatLocation(note.getLocation()) << ": note: " << note;
        return success();
      }) {}

} // namespace mlir::torus
