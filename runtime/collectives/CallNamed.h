//===- CallNamed.h - Test helper: a CollectiveOp via its method -*- C++ -*-===//
//
// Tests describe collectives as CollectiveOps; callNamed calls the
// communicator method that op names (allReduce, allGather, ...) with the
// op's parameters, so every test goes through the public entry points.
// Test-only.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_CALLNAMED_H
#define TORUS_RUNTIME_COLLECTIVES_CALLNAMED_H

#include "runtime/collectives/Communicator.h"

namespace torus::rt::testing {

/// Calls `comm`'s method for `op` as participant `id`.
inline absl::Status callNamed(Communicator &comm, const CollectiveKey &key,
                              int64_t id, const ReplicaGroups &groups,
                              const CollectiveOp &op, const void *in, void *out,
                              absl::Duration timeout = absl::Seconds(120)) {
  switch (op.kind) {
  case CollectiveOpKind::AllReduce:
    return comm.allReduce(key, id, groups, op.reduce, op.dtype,
                          numElements(op.shape), in, out, timeout);
  case CollectiveOpKind::AllGather:
    return comm.allGather(key, id, groups, op.dtype, op.shape, op.dimension, in,
                          out, timeout);
  case CollectiveOpKind::ReduceScatter:
    return comm.reduceScatter(key, id, groups, op.reduce, op.dtype, op.shape,
                              op.dimension, in, out, timeout);
  case CollectiveOpKind::AllToAll:
    return comm.allToAll(key, id, groups, op.dtype, op.shape, op.splitDimension,
                         op.concatDimension, op.splitCount, in, out, timeout);
  case CollectiveOpKind::CollectivePermute:
    return comm.collectivePermute(key, id, op.pairs, op.dtype, op.shape, in,
                                  out, timeout);
  case CollectiveOpKind::Broadcast:
    return comm.broadcast(key, id, groups, op.root, op.dtype, op.shape, in, out,
                          timeout);
  }
  return absl::InternalError("unknown kind");
}

} // namespace torus::rt::testing

#endif // TORUS_RUNTIME_COLLECTIVES_CALLNAMED_H
