//===- DiagnosticCollector.h - MLIR diagnostics as text ---------*- C++ -*-===//
//
// Library code reports compiler errors as absl::Status messages rather than
// printing them: this handler gathers the diagnostics of a context while it
// lives, one `file:line:col: error: message` line each (notes included).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_DIAGNOSTICCOLLECTOR_H
#define TORUS_IR_DIAGNOSTICCOLLECTOR_H

#include "mlir/IR/Diagnostics.h"

#include <string>

namespace mlir::torus {

/// `file:line:col` of the first file location inside `loc`, else MLIR's
/// rendering of it.
std::string formatLocation(Location loc);

class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *ctx);
  /// The text gathered so far; clears it.
  std::string take() { return std::move(text_); }
  bool empty() const { return text_.empty(); }

private:
  std::string text_;
  ScopedDiagnosticHandler handler_;
};

} // namespace mlir::torus

#endif // TORUS_IR_DIAGNOSTICCOLLECTOR_H
