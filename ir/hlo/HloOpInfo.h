//===- HloOpInfo.h - What HloOpInterface tells the HLO code -----*- C++ -*-===//
//
// Private to ir/hlo: the questions the importer, the exporter and their
// tests ask of an op through its HloOpInterface and ODS traits, by name, so
// that they can iterate the registered ops instead of keeping a table.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_HLOOPINFO_H
#define TORUS_IR_HLO_HLOOPINFO_H

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::torus::hlo {

/// The HLO opcode op `name` declares with `HloOpcode<"...">`, or "".
llvm::StringRef hloOpcode(OperationName name);

/// True if `name` maps to its HLO instruction through HloOpInterface alone
/// (docs/hlo.md): it has an opcode, no ODS attributes, one result and no
/// regions, and its operands are the instruction's, in order. The importer
/// creates such an op for its opcode unless a handler claims the opcode;
/// the exporter writes it unless a handler claims the op.
bool isGenericHloOp(OperationName name);

/// How many operands `name` takes, unless it is variadic.
std::optional<unsigned> fixedOperandCount(OperationName name);

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_HLOOPINFO_H
