//===- ReplicaGroups.cpp - HLO replica groups -----------------------------===//

#include "runtime/collectives/ReplicaGroups.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
  // owner[r] = index of the group holding replica r, or -1.
  std::vector<int64_t> owner(numReplicas, -1);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty())
      return fail(fmt::format("group {} is empty", g));
    for (int64_t r : groups[g]) {
      if (r < 0 || r >= numReplicas)
        return fail(fmt::format("replica id {} in group {} is out of range "
                                "[0, {})",
                                r, g, numReplicas));
      if (owner[r] == static_cast<int64_t>(g))
        return fail(fmt::format("replica {} appears twice in group {}", r, g));
      if (owner[r] >= 0)
        return fail(fmt::format("replica {} appears in groups {} and {}", r,
                                owner[r], g));
      owner[r] = static_cast<int64_t>(g);
    }
  }
  std::vector<int64_t> missing;
  for (int64_t r = 0; r < numReplicas; ++r)
    if (owner[r] < 0)
      missing.push_back(r);
  if (!missing.empty())
    return fail(fmt::format(
        "replica{} {} {} in no group", missing.size() == 1 ? "" : "s",
        fmt::join(missing, ", "), missing.size() == 1 ? "is" : "are"));
  return absl::OkStatus();
}

absl::StatusOr<ReplicaGroupMembership>
findReplicaGroup(const ReplicaGroups &groups, int64_t numReplicas,
                 int64_t replicaId) {
  TORUS_RETURN_IF_ERROR(validateReplicaGroups(groups, numReplicas));
  if (replicaId < 0 || replicaId >= numReplicas)
    return absl::InvalidArgumentError(fmt::format(
        "replica id {} is out of range [0, {})", replicaId, numReplicas));
  ReplicaGroupMembership result;
  if (groups.empty()) {
    result.members.resize(numReplicas);
    for (int64_t r = 0; r < numReplicas; ++r)
      result.members[r] = r;
    result.rank = replicaId;
    return result;
  }
  for (size_t g = 0; g < groups.size(); ++g)
    for (size_t i = 0; i < groups[g].size(); ++i)
      if (groups[g][i] == replicaId) {
        result.groupIndex = static_cast<int64_t>(g);
        result.members = groups[g];
        result.rank = static_cast<int64_t>(i);
        return result;
      }
  // Unreachable after validation.
  return absl::InternalError(fmt::format(
      "replica {} not found in {}", replicaId, replicaGroupsToString(groups)));
}

} // namespace torus::rt
