//===- HloExport.h - The torus dialect as XLA HLO text ----------*- C++ -*-===//
//
// Writes a module of the torus dialect as HLO text in XLA's long form
// (every operand with its shape, row-major layouts `{n-1,...,0}`), so that
// people who know HLO can read it and XLA-style tools can take it. Reading
// the text back with importHloText and writing it again gives the same text.
// docs/hlo.md lists the mapping.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_HLOEXPORT_H
#define TORUS_IR_HLO_HLOEXPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::torus::hlo {

struct HloExportOptions {
  /// Write `metadata={op_name=... source_file=... source_line=...}` from
  /// each op's location.
  bool metadata = true;
};

/// Writes `module` (verified) to `os`. The entry computation is the single
/// public function; private functions reached by torus.call become
/// computations. Fails with a diagnostic on the op that HLO cannot express.
LogicalResult exportHloText(ModuleOp module, llvm::raw_ostream &os,
                            const HloExportOptions &options = {});

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_HLOEXPORT_H
