//===- CollectiveOp.h - What one collective call asks for -------*- C++ -*-===//
//
// The description every participant of a collective passes, independent of
// its buffers: the kind, element type, operand shape and the kind's
// parameters (HLO's all_gather_dim, scatter_dimension, split/concat
// dimensions, source-target pairs, a broadcast root). Participants must pass
// equal descriptions; the shape rules (result shape, divisibility, dimension
// ranges) are HLO's and live here, once, for the communicator, the
// executor's validation, the reference implementation and the cost model.
//
// Tensors are dense and row-major.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_COLLECTIVEOP_H
#define TORUS_RUNTIME_COLLECTIVES_COLLECTIVEOP_H

#include "runtime/ProgramSpec.h"
#include "torus/Status.h"
#include "torus/Types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace torus::rt {

enum class CollectiveOpKind : int32_t {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  CollectivePermute,
  Broadcast,
};
/// HLO's spelling: `all-reduce`, `all-gather`, `reduce-scatter`,
/// `all-to-all`, `collective-permute`, and `broadcast`.
std::string_view collectiveOpKindName(CollectiveOpKind kind);

/// collective_permute's (source, target) participant pairs.
using SourceTargetPairs = std::vector<std::pair<int64_t, int64_t>>;

struct CollectiveOp {
  CollectiveOpKind kind = CollectiveOpKind::AllReduce;
  /// all-reduce and reduce-scatter.
  ReduceKind reduce = ReduceKind::Sum;
  DType dtype = DType::F32;
  /// The operand's shape (each participant's input).
  Shape shape;
  /// all-gather: all_gather_dim; reduce-scatter: scatter_dimension.
  int64_t dimension = 0;
  /// all-to-all.
  int64_t splitDimension = 0;
  int64_t concatDimension = 0;
  int64_t splitCount = 0;
  /// broadcast: the rank (position in the replica group) of the root.
  int64_t root = 0;
  /// collective-permute.
  SourceTargetPairs pairs;

  /// Checks the HLO shape rules for a group of `groupSize` participants
  /// (`numParticipants` for collective-permute's pair ids) and that the
  /// element type is supported: InvalidArgument for a malformed op,
  /// Unimplemented for an unsupported reduction type.
  absl::Status check(int64_t groupSize, int64_t numParticipants) const;
  /// The result shape for a group of `groupSize`; check() must hold.
  Shape resultShape(int64_t groupSize) const;
  /// Dimension `d` of resultShape(groupSize), without building the shape.
  int64_t resultDimension(size_t d, int64_t groupSize) const;
  /// The sizes in bytes (no allocation).
  int64_t operandBytes() const;
  int64_t resultBytes(int64_t groupSize) const;

  /// What a participant passed, for mismatch messages: `9 f32 elements with
  /// sum` for all-reduce, `f32[4,6] along dimension 1` for all-gather, ...
  std::string describe() const;

  friend bool operator==(const CollectiveOp &, const CollectiveOp &) = default;
};

/// Builds the op of a ProgramSpec collective: the operand's dtype and shape
/// and the fields of `spec.kind`.
CollectiveOp collectiveOpFromSpec(const CollectiveSpec &spec);

/// Checks collective-permute's pairs for `numParticipants`: ids in range, no
/// source twice and no target twice (HLO's rule). Allocates nothing unless
/// it fails (up to IdSet::kInlineIds participants).
absl::Status validateSourceTargetPairs(const SourceTargetPairs &pairs,
                                       int64_t numParticipants);

/// `{0,1,2}` for short lists; long ones show their first and last entries
/// (`{0,1,2,...,254,255} (256 ids)`), so errors stay readable at 256 cores.
std::string formatIdList(const std::vector<int64_t> &ids);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_COLLECTIVEOP_H
