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

/// For an op imported from HLO (a FusedLoc tagged "hlo", ir/hlo/HloImport.h:
/// its HLO text position, then its source from the metadata), the source:
/// `file:line:col: note: from 'op_name', called from ...`; else empty.
std::string sourceNote(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto tag = fused ? dyn_cast_if_present<StringAttr>(fused.getMetadata())
                   : StringAttr();
  if (!tag || tag.getValue() != "hlo" || fused.getLocations().size() < 2)
    return "";
  Location source = fused.getLocations()[1];
  std::string name;
  if (auto named = dyn_cast<NameLoc>(source)) {
    name = named.getName().str();
    source = named.getChildLoc();
  }
  llvm::SmallVector<std::string> frames;
  while (auto call = dyn_cast<CallSiteLoc>(source)) {
    frames.push_back(formatLocation(call.getCallee()));
    source = call.getCaller();
  }
  frames.push_back(formatLocation(source));
  if (!isa<FileLineColLoc>(source) && frames.size() == 1)
    return "";
  std::string text = frames.front() + ": note: from";
  if (!name.empty())
    text += " '" + name + "'";
  for (size_t i = 1; i < frames.size(); ++i)
    text += (i == 1 ? ", called from " : ", from ") + frames[i];
  return text;
}

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
        // An op imported from HLO names its source too.
        if (std::string note = sourceNote(diag.getLocation()); !note.empty())
          os << "\n" << note;
        for (Diagnostic &note : diag.getNotes())
          os << "\n" << formatLocation(note.getLocation()) << ": note: " << note;
        return success();
      }) {}

} // namespace mlir::torus
