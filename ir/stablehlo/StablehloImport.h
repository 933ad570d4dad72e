//===- StablehloImport.h - StableHLO text to the torus dialect --*- C++ -*-===//
//
// Reads StableHLO text (what `jax.jit(f).lower(...).as_text()` and
// `jax.export` write: the stablehlo and chlo dialects inside func.func) and
// converts it to the torus dialect (ConvertToTorus.h). docs/stablehlo.md
// lists what is accepted.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_STABLEHLO_STABLEHLOIMPORT_H
#define TORUS_IR_STABLEHLO_STABLEHLOIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::torus::stablehlo {

/// Adds the stablehlo, chlo and func dialects (what StableHLO text uses).
void registerStablehloDialects(DialectRegistry &registry);

/// True if `text` looks like StableHLO: it names a `stablehlo.` or `chlo.`
/// op outside `//` comments. torusc and torus-run pick the reader of a
/// `.mlir` file by it.
bool looksLikeStablehlo(llvm::StringRef text);

/// `text` with every `dense<"0x..."> : tensor<...xi1>` written one byte per
/// element (as MLIR 20 and StableHLO's tools write booleans) rewritten to
/// the bit-packed form Debian's MLIR 19 reads (a splat `true` as 0xFF).
/// Every other byte of `text` is kept, so locations on other lines hold.
std::string repackBooleanHex(llvm::StringRef text);

/// Parses `sourceMgr`'s main buffer as StableHLO (after repackBooleanHex)
/// without converting it; null after diagnostics on failure.
OwningOpRef<ModuleOp> parseStablehloText(const llvm::SourceMgr &sourceMgr,
                                         MLIRContext *context);

/// Parses the main buffer of `sourceMgr` as StableHLO and converts it to
/// the torus dialect: the module's `mhlo.num_replicas` and
/// `mhlo.num_partitions` become its torus device counts, private functions
/// called from the entry stay functions (called with torus.call). On
/// failure returns null after emitting diagnostics located in the source.
/// `context` gets the dialects it needs loaded.
OwningOpRef<ModuleOp> importStablehloText(const llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context);

/// Imports `text`, naming it `bufferName` in locations.
OwningOpRef<ModuleOp> importStablehloText(llvm::StringRef text,
                                          llvm::StringRef bufferName,
                                          MLIRContext *context);

} // namespace mlir::torus::stablehlo

#endif // TORUS_IR_STABLEHLO_STABLEHLOIMPORT_H
