//===- DeviceIndexEval.h - Device-dependent integers, per device -*- C++ -*-===//
//
// The collective passes recognise patterns such as "slice block k on the
// k-th member of the group". The partitioner computes such offsets from
// partition_id through a constant table; the user may compute them by hand
// from replica_id. Rather than match op shapes, these helpers evaluate a
// scalar integer value for a given device, folding the ops that device-
// dependent index arithmetic is made of.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_PASSES_DEVICEINDEXEVAL_H
#define TORUS_PASSES_DEVICEINDEXEVAL_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::torus {

/// The replicas and partitions a (partitioned) module runs on, from its
/// `torus.num_replicas` and `torus.num_partitions` (1 when absent).
struct DeviceSpace {
  int64_t numReplicas = 1, numPartitions = 1;
  int64_t numDevices() const { return numReplicas * numPartitions; }
  static DeviceSpace of(ModuleOp module);
};

/// The value of scalar integer `v` on device `device` (the flattened id
/// replica * P + partition), when it depends only on constants,
/// `partition_id` and `replica_id` through constant-table lookups
/// (dynamic_slice), reshapes, conversions and integer arithmetic.
std::optional<int64_t> evaluateOnDevice(Value v, int64_t device,
                                        const DeviceSpace &space);

/// The rows of a `replica_groups` attribute in device ids; no attribute
/// means one group of every device.
llvm::SmallVector<llvm::SmallVector<int64_t>>
collectiveGroups(Attribute groups, const DeviceSpace &space);

/// Erases ops that became dead after a rewrite (side-effect free ops with
/// no uses, and unused partition_id and replica_id reads), to a fixed point.
void eraseDeadIndexCode(ModuleOp module);

} // namespace mlir::torus

#endif // TORUS_PASSES_DEVICEINDEXEVAL_H
