//===- Sharding.h - The HLO sharding attribute and where it sits -*- C++ -*-===//
//
// `#torus.sharding<...>` (ShardingAttr, declared in ODS in Sharding.td) is
// XLA's HloSharding: replicated, maximal on one device, tiled over a tile
// assignment (optionally with the last tile dimension replicated), or
// manual. This header adds the plain-value form (ShardingSpec, parsed from
// and printed as HLO text without an MLIRContext) and the conventions for
// attaching shardings to IR:
//
//   - a function argument or result: arg/result attribute `torus.sharding`;
//   - an op's results: discardable attribute `torus.sharding`, one
//     ShardingAttr for a single result or an array of them, one per result
//     (XLA puts a tuple sharding on tuple-shaped instructions);
//   - either may also be a string of HLO text (`"{devices=[2,1]0,1}"`),
//     for hand-written IR (HLO import builds the attribute itself);
//   - `torus.sharding_origin`: where a propagated sharding came from (a
//     string, or an array of them, one per result), for debug dumps;
//   - module attributes `torus.num_partitions` and `torus.num_replicas`:
//     the logical devices per replica and the replicas the program is for.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_SHARDING_H
#define TORUS_IR_SHARDING_H

#include "ir/TorusOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::torus {

/// `torus.sharding` and `torus.sharding_origin`, declared in ODS as the
/// dialect's discardable attributes (TorusDialect.td).
inline constexpr llvm::StringLiteral kShardingAttrName =
    TorusDialect::ShardingAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kShardingOriginAttrName =
    TorusDialect::ShardingOriginAttrHelper::getNameStr();
/// The device counts' names, declared with their type in ir/TorusDialect.td
/// (prefer TorusDialect::NumPartitionsAttrHelper and NumReplicasAttrHelper).
inline constexpr llvm::StringLiteral kNumPartitionsAttrName =
    TorusDialect::NumPartitionsAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kNumReplicasAttrName =
    TorusDialect::NumReplicasAttrHelper::getNameStr();
/// On the entry arguments and results of a program made per device: the
/// global array's type and #torus.sharding over all devices (TorusDialect.td).
inline constexpr llvm::StringLiteral kGlobalTypeAttrName =
    TorusDialect::GlobalTypeAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kGlobalShardingAttrName =
    TorusDialect::GlobalShardingAttrHelper::getNameStr();

/// An HLO sharding as plain values: what a ShardingAttr holds.
struct ShardingSpec {
  ShardingKind kind = ShardingKind::replicated;
  /// maximal: the device.
  int64_t device = 0;
  /// tiled: the tile assignment's shape (with the replication dimension
  /// last when lastTileDimReplicate) and its devices, row-major.
  llvm::SmallVector<int64_t> tileDims;
  llvm::SmallVector<int64_t> devices;
  bool lastTileDimReplicate = false;

  static ShardingSpec replicated() { return {}; }
  static ShardingSpec maximal(int64_t device);
  /// Tiled over `tileDims` with the iota device list.
  static ShardingSpec tiled(llvm::ArrayRef<int64_t> tileDims,
                            bool lastTileDimReplicate = false);
};

/// Parses HLO's spelling of a sharding: `{replicated}`, `{maximal
/// device=1}`, `{devices=[2,1]0,1}`, `{devices=[2,2]<=[4]}`,
/// `{devices=[2,2]<=[2,2]T(1,0)}`, `... last_tile_dim_replicate}`,
/// `... last_tile_dims={replicated}}`, `{manual}`; a trailing
/// `metadata={...}` is ignored. The result is verified.
FailureOr<ShardingSpec> parseShardingSpec(llvm::StringRef text,
                                          std::string &error);
/// HLO's spelling; a tiled iota device list prints as `<=[n]`.
std::string formatShardingSpec(const ShardingSpec &spec);
/// The attribute's structural checks (kind-specific fields, tile dims
/// positive, one distinct non-negative device per tile).
LogicalResult verifyShardingSpec(const ShardingSpec &spec, std::string &error);

ShardingAttr getShardingAttr(MLIRContext *ctx, const ShardingSpec &spec);
ShardingSpec toShardingSpec(ShardingAttr attr);

/// `attr` as a sharding: a ShardingAttr, or a StringAttr of HLO text.
/// Null for anything else, or when the text does not parse (then `error`,
/// if given, says why).
ShardingAttr toShardingAttr(Attribute attr, MLIRContext *ctx,
                            std::string *error = nullptr);

/// The sharding `op`'s `torus.sharding` gives result `i`, or null.
ShardingAttr getResultSharding(Operation *op, unsigned i);
/// Sets `torus.sharding` (single or array form) to `shardings`.
void setResultShardings(Operation *op, llvm::ArrayRef<ShardingAttr> shardings);

/// The tile index of every device along tile dimension `dim` of a tiled
/// sharding, indexed by device id (size: max device + 1, -1 for devices
/// not in the assignment).
llvm::SmallVector<int64_t> tileIndexTable(ShardingAttr sharding, int64_t dim);

/// The groups of devices that differ only in the tile dimensions `dims`
/// (each listed in row-major order of those dimensions): the participants
/// of a collective that combines the tiles along `dims`.
llvm::SmallVector<llvm::SmallVector<int64_t>>
deviceGroupsAlong(ShardingAttr sharding, llvm::ArrayRef<int64_t> dims);

} // namespace mlir::torus

#endif // TORUS_IR_SHARDING_H
