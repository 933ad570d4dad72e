//===- HloImport.h - XLA HLO text to the torus dialect ----------*- C++ -*-===//
//
// Reads a module in XLA's HLO text format (as XLA, JAX and TensorFlow dump
// it, long or short form) into a module of the torus dialect: the ENTRY
// computation becomes the public function, `call`ed computations private
// functions, while/conditional computations the regions of torus.while,
// torus.if and torus.case, reducers (`to_apply=`) the kind of the op.
// docs/hlo.md lists what is supported and how each opcode maps.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_HLOIMPORT_H
#define TORUS_IR_HLO_HLOIMPORT_H

#include "ir/Sharding.h"
#include "ir/TorusDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::torus::hlo {

/// The `HloModule` header's replica_count and num_partitions become the
/// module attributes kNumReplicasAttrName and kNumPartitionsAttrName
/// (ir/Sharding.h, declared in ir/TorusDialect.td); torusc takes them as
/// its defaults.
/// The metadata tag of the FusedLoc an imported op gets: its HLO position
/// first, then the location from its `metadata={...}` (op_name becomes a
/// NameLoc, source_file/source_line a FileLineColLoc).
inline constexpr llvm::StringLiteral kHloLocationTag = "hlo";

/// What the importer is told besides the text: device counts for a
/// program that does not state them (docs/hlo.md, "Device counts"; 0: not
/// given). The program's own counts win.
struct HloImportOptions {
  int64_t numReplicas = 0;
  int64_t numPartitions = 0;
};

/// Imports the main buffer of `sourceMgr`. `context` must have the torus and
/// func dialects loaded. On failure returns null after emitting diagnostics
/// located at the offending token (`file.hlo:12:7: error: ...`).
OwningOpRef<ModuleOp> importHloText(const llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context,
                                    const HloImportOptions &options = {});

/// Imports `text`, naming it `bufferName` in locations.
OwningOpRef<ModuleOp> importHloText(llvm::StringRef text,
                                    llvm::StringRef bufferName,
                                    MLIRContext *context,
                                    const HloImportOptions &options = {});

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_HLOIMPORT_H
