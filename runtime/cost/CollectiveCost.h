//===- CollectiveCost.h - Time of one collective on a TPU slice -*- C++ -*-===//
//
// Prices one execution of a collective on the real slice from the message
// sizes, the link bandwidth and latency and the routes its messages take on
// the torus. The algorithm is the one the runtime would choose
// (CollectiveAlgorithm.h), and its schedule is priced step by step:
//
//   step time = max over the step's messages of
//                 (load of the busiest link on its route) * chunk / bandwidth
//               + hops * hop latency
//
// where the load counts the messages of that step (of every group) sharing a
// directed link. For a ring whose neighbours are one hop apart this is the
// textbook closed form; docs/cost-model.md lists every formula:
//
//   all-reduce, ring        2(n-1) steps of B/n:  2(n-1)/n * B/bw + 2(n-1)*a
//   all-gather, ring        (n-1) steps of B/n:   (n-1)/n * B/bw + (n-1)*a
//                           (B = the gathered result)
//   reduce-scatter, ring    as all-gather with B = the operand
//   torus (dim-ordered)     one ring per grid dimension, dimension after
//                           dimension, each on the data left by the one
//                           before (all-reduce: reduce-scatter down, then
//                           all-gather back up)
//   all-to-all              one step: every member sends B/n to every other;
//                           busiest link load * (B/n)/bw + max hops * a
//   collective-permute      one step: each pair sends B along its route
//
// Direct (shared memory only) is priced as Ring: a real slice has no shared
// memory, so the runtime's in-process shortcut does not exist there.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COST_COLLECTIVECOST_H
#define TORUS_RUNTIME_COST_COLLECTIVECOST_H

#include "runtime/collectives/CollectiveAlgorithm.h"
#include "runtime/collectives/CollectiveOp.h"
#include "runtime/collectives/ReplicaGroups.h"
#include "runtime/cost/IciParameters.h"
#include "torus/Status.h"

#include <cstdint>
#include <string>

namespace torus::rt {

struct CollectiveCost {
  CollectiveOpKind kind = CollectiveOpKind::AllReduce;
  /// The schedule priced (Ring or Torus; Direct only for permute and
  /// all-to-all, which have one step).
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
  /// Members of the largest group, and how many groups run concurrently.
  int64_t groupSize = 1;
  int64_t numGroups = 1;
  /// The message size B of the formula, in bytes (see the file comment).
  double bytes = 0;
  /// Communication steps of the schedule (of the slowest group).
  int64_t steps = 0;
  /// Most hops any message of the collective takes.
  int64_t maxHops = 0;
  /// Most messages of one step sharing one directed link.
  int64_t maxLinkLoad = 0;
  /// The two terms and their sum, in seconds.
  double bandwidthSeconds = 0;
  double latencySeconds = 0;
  double seconds = 0;
  /// How it was priced, e.g. "ring over 16: 2(n-1)=30 steps of 1.00 MiB".
  std::string detail;
};

/// Prices `op` over `groups` of participant ids (collective-permute ignores
/// them) placed as `placement` says, with `requested` resolved as the
/// runtime would (Auto: torus on grids, else ring). FailedPrecondition if
/// the placement does not cover the participants.
absl::StatusOr<CollectiveCost>
costCollective(const CollectiveOp &op, const ReplicaGroups &groups,
               const MeshPlacement &placement, const IciParameters &ici,
               CollectiveAlgorithm requested = CollectiveAlgorithm::Auto);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COST_COLLECTIVECOST_H
