//===- HloForms.h - torus ops for HLO forms the ops do not carry -*- C++ -*-===//
//
// HLO and StableHLO state some things torus ops leave out: reductions from
// init values that are not the identity, gather/scatter batching
// dimensions. Both importers (ir/hlo, ir/stablehlo) rewrite them into
// torus ops with these builders, so the two read them the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_OPS_HLOFORMS_H
#define TORUS_IR_OPS_HLOFORMS_H

#include "ir/TorusOps.h"

namespace mlir::torus {

/// True if `value` is a splat constant equal to `kind`'s identity
/// (reduceIdentity; 0 and 1 for complex sums and products).
bool isReduceIdentity(Value value, ReduceKind kind);

/// `kind`'s combination of `a` and `b` (torus.add for sum, ...).
Value combineByKind(OpBuilder &b, Location loc, ReduceKind kind, Value a,
                    Value c);

/// `reduced`, the reduction of `operand` by `kind` from the identity
/// (torus.reduce or, with `window`, torus.reduce_window), with HLO's init
/// value `init` (0-d) folded in as XLA folds it: once (max, min, and, or:
/// once is as good as many), and for a sum or product over windows once
/// more per padding element or base-dilation hole in the window (XLA pads
/// with the init value).
Value foldInitValue(OpBuilder &b, Location loc, ReduceKind kind,
                    Value operand, Value reduced, Value init,
                    ReduceWindowOp window = {});

/// gather/scatter indices with batching dimensions rewritten away, as XLA's
/// BatchedGatherScatterNormalizer does: an iota along each of the indices'
/// `batchingDims` appended along `indexVectorDim` (which becomes a real
/// dimension if it was the implicit trailing one; updated). The operand
/// dimensions they pair with join the index map and the collapsed
/// (inserted) dimensions.
Value appendBatchIotas(OpBuilder &b, Location loc, Value indices,
                       int64_t &indexVectorDim,
                       ArrayRef<int64_t> batchingDims);

/// XLA's CollectiveOpGroupMode: what the ids in replica_groups name.
enum class CollectiveGroupMode {
  CrossReplica,             // replica ids, within each partition
  CrossPartition,           // partition ids, within each replica
  CrossReplicaAndPartition, // replica ids, with all their partitions
  FlattenedId,              // global device ids r * P + p
};

using DeviceGroups = SmallVector<SmallVector<int64_t>>;

/// `groups`, read in `mode`, as the torus collectives' logical device
/// groups (device d = replica * P + partition) of a program on `replicas`
/// x `partitions` devices; empty groups mean all replicas (all
/// partitions). For an id out of range, `badId(id, "replica" or
/// "partition", limit)` reports it and the result is failure.
FailureOr<DeviceGroups> deviceGroupsOf(
    DeviceGroups groups, CollectiveGroupMode mode, int64_t replicas,
    int64_t partitions,
    function_ref<void(int64_t id, StringRef what, int64_t limit)> badId);

/// In a program already per device, which runs device d = replica * P +
/// partition as replica d of one partition: the device's partition id
/// (`partition` true, d % P) or replica id (d / P), of type `type`.
Value perDeviceId(OpBuilder &b, Location loc, RankedTensorType type,
                  bool partition, int64_t partitions);

} // namespace mlir::torus

#endif // TORUS_IR_OPS_HLOFORMS_H
