//===- ConvertToTorus.h - stablehlo and chlo to torus -----------*- C++ -*-===//
//
// The conversion of the stablehlo and chlo dialects to the torus dialect
// (Passes.td: torus-convert-stablehlo). The patterns live in one file per
// op family; each file adds its own through its populate function.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_STABLEHLO_CONVERTTOTORUS_H
#define TORUS_IR_STABLEHLO_CONVERTTOTORUS_H

#include "ir/TorusOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

#include <memory>
#include <optional>

namespace mlir::sdy {
class MeshAttr;
class TensorShardingAttr;
} // namespace mlir::sdy

namespace mlir::torus::stablehlo {

#define GEN_PASS_DECL
#include "ir/stablehlo/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "ir/stablehlo/Passes.h.inc"

/// Converts every stablehlo and chlo op of `module` (errors name the ops
/// that have no torus equivalent).
LogicalResult convertStablehloToTorus(ModuleOp module);

// Pattern sets, one per op family.
void populateElementwisePatterns(RewritePatternSet &patterns);
void populateShapePatterns(RewritePatternSet &patterns);
void populateReductionPatterns(RewritePatternSet &patterns);
void populateContractionPatterns(RewritePatternSet &patterns);
void populateIndexingPatterns(RewritePatternSet &patterns);
void populateControlFlowPatterns(RewritePatternSet &patterns);
void populateChloPatterns(RewritePatternSet &patterns);
void populateShardingPatterns(RewritePatternSet &patterns);
void populateCollectivePatterns(RewritePatternSet &patterns);

/// True for the chlo ops ConvertChlo.cpp expands (their patterns name what
/// they reject; the catch-all error for chlo ops leaves them alone).
bool hasChloExpansion(Operation *op);

/// `sdy.sharding` and `mhlo.sharding` on function arguments and results as
/// `torus.sharding` (ConvertSharding.cpp); errors name the value.
LogicalResult convertFunctionShardings(ModuleOp module);
/// The mesh `sharding` is over: its own, or the sdy.mesh it names, looked
/// up from `scope`; failure with `error` set when there is none.
FailureOr<sdy::MeshAttr> meshOf(Operation *scope,
                                sdy::TensorShardingAttr sharding,
                                std::string &error);
/// `sharding` as a #torus.sharding over the devices of its mesh (XLA's
/// HloSharding for the same axes); failure with `error` set.
FailureOr<ShardingAttr> toTorusSharding(Operation *scope,
                                        sdy::TensorShardingAttr sharding,
                                        std::string &error);
/// Makes a module whose entry is a manual computation (shard_map, pmap)
/// over every mesh axis a program of each device, before conversion
/// (ConvertManualComputation.cpp): its arguments become the shards the
/// body takes, the body replaces the computation; the global arrays' types
/// and shardings stay on the entry's arguments and results
/// (kGlobalTypeAttrName, kGlobalShardingAttrName). True when it did.
FailureOr<bool> inlineManualComputations(ModuleOp module);
/// After conversion of a program made per device: it runs as R x P
/// replicas of one partition, device d = replica * P + partition as replica
/// d; partition_id and replica_id are computed from that.
void runPerDevice(ModuleOp module);
/// Erases the module's sdy.mesh ops (once nothing refers to them).
void eraseMeshes(ModuleOp module);

// Shared by the pattern files.

/// The HLO opcode a stablehlo op corresponds to: its mnemonic with `-` for
/// `_` (`log_plus_one` is `log-plus-one`).
std::string hloOpcodeOf(Operation *op);

/// The kind of a reducer region whose body is one binary op on its two
/// arguments (either order) and returns it, as the HLO importer reads a
/// `to_apply` computation (`add` is sum, ...); `replaceAllowed` also
/// accepts a body that returns its second argument (scatter's overwrite:
/// returned as nullopt with `isReplace` set).
std::optional<ReduceKind> reducerKind(Region &region, bool *isReplace = nullptr,
                                      unsigned n = 1, unsigned j = 0);

/// `operand` converted to `elementType` (itself if it has it).
Value convertElementType(OpBuilder &b, Location loc, Value operand,
                         Type elementType);

} // namespace mlir::torus::stablehlo

#endif // TORUS_IR_STABLEHLO_CONVERTTOTORUS_H
