//===- ReplicaGroups.h - HLO replica groups ---------------------*- C++ -*-===//
//
// HLO `replica_groups`: a partition of the replica ids 0..N-1 into the groups
// a collective operates within. An empty list means one group holding every
// replica, in id order. The order inside a group is the participant order:
// reductions combine operands in that order.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_REPLICAGROUPS_H
#define TORUS_RUNTIME_COLLECTIVES_REPLICAGROUPS_H

#include "torus/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace torus::rt {

using ReplicaGroups = std::vector<std::vector<int64_t>>;

/// `{{0,1},{2,3}}` (HLO's spelling); `{}` for the empty list.
std::string replicaGroupsToString(const ReplicaGroups &groups);

/// Checks that `groups` is empty or partitions 0..numReplicas-1: every id in
/// range, in exactly one group, no group empty. InvalidArgument otherwise.
/// Allocates nothing unless it fails (up to IdSet::kInlineIds replicas).
absl::Status validateReplicaGroups(const ReplicaGroups &groups,
                                   int64_t numReplicas);

/// Where one replica sits in `groups`, without a copy of its group.
struct ReplicaGroupPosition {
  /// Index of the group in the list (0 for an empty list).
  int64_t groupIndex = 0;
  /// Position of the replica in its group.
  int64_t rank = 0;
};

/// Validates `groups` and locates `replicaId`: what a collective call needs
/// on every call, allocating nothing unless it fails (its group is
/// `groups[groupIndex]`, or every replica in id order for an empty list).
absl::StatusOr<ReplicaGroupPosition> locateReplica(const ReplicaGroups &groups,
                                                   int64_t numReplicas,
                                                   int64_t replicaId);

/// The group of one replica.
struct ReplicaGroupMembership {
  /// Index of the group in the list (0 for an empty list).
  int64_t groupIndex = 0;
  /// The group's replica ids, in participant order.
  std::vector<int64_t> members;
  /// Position of the replica in `members`.
  int64_t rank = 0;
};

/// Validates `groups` and finds the group holding `replicaId` (a copy of
/// it: see locateReplica for the allocation-free form).
absl::StatusOr<ReplicaGroupMembership>
findReplicaGroup(const ReplicaGroups &groups, int64_t numReplicas,
                 int64_t replicaId);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_REPLICAGROUPS_H
