//===- ReplicaGroups.cpp - HLO replica groups -----------------------------===//

#include "runtime/collectives/ReplicaGroups.h"

#include "runtime/collectives/IdSet.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace torus::rt {

std::string replicaGroupsToString(const ReplicaGroups &groups) {
  std::string out = "{";
  for (size_t i = 0; i < groups.size(); ++i)
    out += fmt::format("{}{{{}}}", i ? "," : "", fmt::join(groups[i], ","));
  return out + "}";
}

absl::Status validateReplicaGroups(const ReplicaGroups &groups,
                                   int64_t numReplicas) {
  if (numReplicas < 1)
    return absl::InvalidArgumentError(
        fmt::format("invalid replica count {}", numReplicas));
  if (groups.empty())
    return absl::OkStatus();
  auto fail = [&](std::string why) {
    return absl::InvalidArgumentError(
        fmt::format("invalid replica groups {} for {} replicas: {}",
                    replicaGroupsToString(groups), numReplicas, why));
  };
  IdSet seen(numReplicas);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty())
      return fail(fmt::format("group {} is empty", g));
    for (int64_t r : groups[g]) {
      if (r < 0 || r >= numReplicas)
        return fail(fmt::format("replica id {} in group {} is out of range "
                                "[0, {})",
                                r, g, numReplicas));
      if (seen.contains(r)) {
        // The first group holding r (every earlier id was valid).
        size_t first = 0;
        while (std::find(groups[first].begin(), groups[first].end(), r) ==
               groups[first].end())
          ++first;
        if (first == g)
          return fail(
              fmt::format("replica {} appears twice in group {}", r, g));
        return fail(
            fmt::format("replica {} appears in groups {} and {}", r, first, g));
      }
      seen.insert(r);
    }
  }
  for (int64_t r = 0; r < numReplicas; ++r) {
    if (seen.contains(r))
      continue;
    std::vector<int64_t> missing;
    for (int64_t m = r; m < numReplicas; ++m)
      if (!seen.contains(m))
        missing.push_back(m);
    return fail(fmt::format(
        "replica{} {} {} in no group", missing.size() == 1 ? "" : "s",
        fmt::join(missing, ", "), missing.size() == 1 ? "is" : "are"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ReplicaGroupPosition> locateReplica(const ReplicaGroups &groups,
                                                   int64_t numReplicas,
                                                   int64_t replicaId) {
  TORUS_RETURN_IF_ERROR(validateReplicaGroups(groups, numReplicas));
  if (replicaId < 0 || replicaId >= numReplicas)
    return absl::InvalidArgumentError(fmt::format(
        "replica id {} is out of range [0, {})", replicaId, numReplicas));
  if (groups.empty())
    return ReplicaGroupPosition{0, replicaId};
  for (size_t g = 0; g < groups.size(); ++g)
    for (size_t i = 0; i < groups[g].size(); ++i)
      if (groups[g][i] == replicaId)
        return ReplicaGroupPosition{static_cast<int64_t>(g),
                                    static_cast<int64_t>(i)};
  // Unreachable after validation.
  return absl::InternalError(fmt::format(
      "replica {} not found in {}", replicaId, replicaGroupsToString(groups)));
}

absl::StatusOr<ReplicaGroupMembership>
findReplicaGroup(const ReplicaGroups &groups, int64_t numReplicas,
                 int64_t replicaId) {
  TORUS_ASSIGN_OR_RETURN(ReplicaGroupPosition position,
                         locateReplica(groups, numReplicas, replicaId));
  ReplicaGroupMembership result;
  result.groupIndex = position.groupIndex;
  result.rank = position.rank;
  if (groups.empty()) {
    result.members.resize(numReplicas);
    for (int64_t r = 0; r < numReplicas; ++r)
      result.members[r] = r;
  } else {
    result.members = groups[position.groupIndex];
  }
  return result;
}

} // namespace torus::rt
