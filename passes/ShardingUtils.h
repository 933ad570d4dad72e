//===- ShardingUtils.h - Algebra on tile assignments ------------*- C++ -*-===//
//
// What sharding propagation and the SPMD partitioner share: a sharding as an
// N-d array of devices (TileArray) whose last axis is always the
// replication axis, and the operations GSPMD builds everything from —
// moving a dimension's tiles into replication, mapping tiles from one
// tensor's dimensions onto another's (transpose, broadcast, reshape,
// reduce), comparing shardings up to the order inside replication groups,
// and the groups of devices that lie along some axes.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_PASSES_SHARDINGUTILS_H
#define TORUS_PASSES_SHARDINGUTILS_H

#include "ir/Sharding.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::torus {

/// An N-d array of device ids, row-major.
struct TileArray {
  SmallVector<int64_t> dims;
  SmallVector<int64_t> devices;

  int64_t rank() const { return dims.size(); }
  /// Axis i of the result is axis perm[i] of this one.
  TileArray transpose(ArrayRef<int64_t> perm) const;
  /// The same devices in the same order, viewed with `newDims`.
  TileArray reshape(ArrayRef<int64_t> newDims) const;
  /// Groups of devices varying along `axes` (row-major in them), one per
  /// combination of the other axes (row-major).
  SmallVector<SmallVector<int64_t>> groupsAlong(ArrayRef<int64_t> axes) const;
  bool operator==(const TileArray &o) const {
    return dims == o.dims && devices == o.devices;
  }
};

/// The tile array of `s` for a rank-`rank` tensor: data axes, then one
/// replication axis (of size 1 when nothing is replicated). Replicated is
/// `[1, ..., 1, P]` over devices 0..P-1. `s` must not be maximal or manual.
TileArray tileArrayOf(ShardingAttr s, int64_t rank, int64_t numPartitions);

/// The sharding whose tile array is `a` (last axis: replication),
/// normalized: a replication axis of 1 is dropped, and a sharding with
/// every data axis 1 is `{replicated}`.
ShardingAttr shardingOf(MLIRContext *ctx, const TileArray &a);

/// A sharding for a rank-`rank` tensor built from the axes of `mesh`: data
/// dimension d is tiled by mesh axis `axisOfDim[d]` (-1: not tiled); every
/// other mesh axis becomes replication, in mesh order.
ShardingAttr shardingFromMesh(MLIRContext *ctx, const TileArray &mesh,
                              ArrayRef<int64_t> axisOfDim);

/// Moves the tiles of `dims` into replication (XLA's
/// PartiallyReplicateTiledShardingOnDims). Maximal/manual: unchanged.
ShardingAttr untile(ShardingAttr s, ArrayRef<int64_t> dims, int64_t rank,
                    int64_t numPartitions);

/// Maps `s` (of a rank-`srcRank` tensor) onto a rank-`dstRank` tensor:
/// source dim d tiles destination dim dstDimOf[d] (-1: its tiles become
/// replication); destination dims with no source are not tiled.
/// Replicated, maximal and manual map to themselves.
ShardingAttr mapDims(ShardingAttr s, int64_t srcRank, ArrayRef<int64_t> dstDimOf,
                     int64_t dstRank, int64_t numPartitions);

/// True when `a` and `b` place every element on the same devices (equal
/// up to the device order inside replication groups).
bool equivalent(ShardingAttr a, ShardingAttr b, int64_t rank,
                int64_t numPartitions);

/// The number of tiles (devices holding distinct data): 1 unless tiled.
int64_t numTiles(ShardingAttr s);

/// Tiles of dimension `d` (1 unless tiled).
inline int64_t tilesOf(ShardingAttr s, int64_t d) {
  ArrayRef<int64_t> t = s ? s.getDataTileDims() : ArrayRef<int64_t>();
  return d < static_cast<int64_t>(t.size()) ? t[d] : 1;
}

/// The groups of reshape: pairs of (source dims, result dims) whose sizes
/// have equal products, in order; a size-1 dimension forms a group of its
/// own when it can.
struct ReshapeGroup {
  SmallVector<int64_t> src, dst;
};
SmallVector<ReshapeGroup> reshapeGroups(ArrayRef<int64_t> src,
                                        ArrayRef<int64_t> dst);

/// Carries the tiling of `s` (on a tensor of shape `src`) through a
/// reshape to `dst`: a tiled source dim that is the first non-1 dim of its
/// group passes to the group's first non-1 result dim when both divide
/// evenly; other tiles become replication. `exact` is set false when some
/// tiling could not pass.
ShardingAttr reshapeSharding(ShardingAttr s, ArrayRef<int64_t> src,
                             ArrayRef<int64_t> dst, int64_t numPartitions,
                             bool *exact = nullptr);

/// The partition groups as the `replica_groups` of a collective among
/// partitions: for every replica r, each group with ids r * P + p (the
/// runtime's flattened device ids). Shape `[R * groups, group size]`.
DenseIntElementsAttr partitionGroupsAttr(
    MLIRContext *ctx, ArrayRef<SmallVector<int64_t>> groups,
    int64_t numPartitions, int64_t numReplicas);

/// `replica_groups` of a collective among replicas (as the user wrote it;
/// empty: all replicas) rewritten for a program of P partitions: each
/// partition p reduces with the same p of the other replicas.
DenseIntElementsAttr replicaGroupsToDevices(MLIRContext *ctx,
                                            DenseIntElementsAttr groups,
                                            int64_t numPartitions,
                                            int64_t numReplicas);

/// Inverts an operand→result dimension map (ShardingRuleOpInterface::
/// getOperandDimMap) into result→operand.
SmallVector<int64_t> invertDimMap(ArrayRef<int64_t> map, int64_t resultRank);

} // namespace mlir::torus

#endif // TORUS_PASSES_SHARDINGUTILS_H
