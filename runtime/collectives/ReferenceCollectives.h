//===- ReferenceCollectives.h - Obviously correct collectives ---*- C++ -*-===//
//
// Single-threaded implementations of every collective, written element by
// element from HLO's definitions with no blocking, chunking or scheduling:
// the oracle the communicator's algorithms are tested against. Kept apart
// from the fast paths (no shared code but the half-float conversions) so a
// bug in one is not silently reproduced in the other.
//
// Reductions fold the participants left to right in group order, as every
// InProcessCommunicator algorithm does, so results are compared exactly,
// floats included.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_REFERENCECOLLECTIVES_H
#define TORUS_RUNTIME_COLLECTIVES_REFERENCECOLLECTIVES_H

#include "runtime/collectives/CollectiveOp.h"
#include "runtime/collectives/ReplicaGroups.h"

#include <cstdint>
#include <vector>

namespace torus::rt {

/// One participant's bytes.
using Bytes = std::vector<unsigned char>;

/// Runs `op` for every group of `groups` (empty: one group of all) over
/// `inputs[id]`, the operand of participant `id` (op.shape and op.dtype),
/// and returns every participant's result. collective-permute ignores
/// `groups`: its pairs name participant ids. `op.check()` must hold for
/// every group. An all-reduce's op.shape may be any shape with the count.
std::vector<Bytes> referenceCollective(const CollectiveOp &op,
                                       const ReplicaGroups &groups,
                                       const std::vector<Bytes> &inputs);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_REFERENCECOLLECTIVES_H
