//===- CollectiveAlgorithm.cpp - Which schedule a collective uses ---------===//

#include "runtime/collectives/CollectiveAlgorithm.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace torus::rt {

std::string_view collectiveAlgorithmName(CollectiveAlgorithm algorithm) {
  switch (algorithm) {
  case CollectiveAlgorithm::Auto:
    return "auto";
  case CollectiveAlgorithm::Direct:
    return "direct";
  case CollectiveAlgorithm::Ring:
    return "ring";
  case CollectiveAlgorithm::Torus:
    return "torus";
  }
  return "?";
}

absl::Status MeshPlacement::validate() const {
  for (int axis = 0; axis < 4; ++axis)
    if (meshShape[axis] < 1)
      return absl::InvalidArgumentError(fmt::format(
          "mesh placement: mesh shape [{}, {}, {}, {}] has an empty axis",
          meshShape[0], meshShape[1], meshShape[2], meshShape[3]));
  std::set<std::array<int32_t, 4>> seen;
  for (size_t id = 0; id < coordinates.size(); ++id) {
    const auto &c = coordinates[id];
    for (int axis = 0; axis < 4; ++axis)
      if (c[axis] < 0 || c[axis] >= meshShape[axis])
        return absl::InvalidArgumentError(fmt::format(
            "mesh placement: participant {} at ({}, {}, {}, {}) is outside "
            "the mesh [{}, {}, {}, {}]",
            id, c[0], c[1], c[2], c[3], meshShape[0], meshShape[1],
            meshShape[2], meshShape[3]));
    if (!seen.insert(c).second)
      return absl::InvalidArgumentError(fmt::format(
          "mesh placement: participant {} shares core ({}, {}, {}, {}) with "
          "another participant",
          id, c[0], c[1], c[2], c[3]));
  }
  return absl::OkStatus();
}

int64_t GroupGrid::rankAtPosition(std::span<const int64_t> position) const {
  int64_t at = 0;
  for (size_t d = 0; d < extents.size(); ++d)
    at = at * extents[d] + position[d];
  return rankAt[at];
}

std::optional<GroupGrid> groupGrid(const MeshPlacement &placement,
                                   std::span<const int64_t> members) {
  constexpr int kAxisOrder[] = {3, 0, 1, 2}; // core, x, y, z
  const int64_t n = static_cast<int64_t>(members.size());
  GroupGrid grid;
  std::vector<std::vector<int32_t>> values; // sorted distinct, per kept axis
  int64_t product = 1;
  for (int axis : kAxisOrder) {
    std::set<int32_t> distinct;
    for (int64_t id : members) {
      if (id < 0 || id >= static_cast<int64_t>(placement.coordinates.size()))
        return std::nullopt;
      distinct.insert(placement.coordinates[id][axis]);
    }
    if (distinct.size() < 2)
      continue;
    grid.axes.push_back(axis);
    grid.extents.push_back(static_cast<int64_t>(distinct.size()));
    values.emplace_back(distinct.begin(), distinct.end());
    product *= static_cast<int64_t>(distinct.size());
    if (product > n)
      return std::nullopt;
  }
  // Members are distinct cores, so n == product means every combination of
  // the coordinates is present.
  if (product != n)
    return std::nullopt;
  grid.rankAt.assign(n, -1);
  grid.positions.resize(n);
  for (int64_t rank = 0; rank < n; ++rank) {
    const auto &c = placement.coordinates[members[rank]];
    std::vector<int64_t> &position = grid.positions[rank];
    for (size_t d = 0; d < grid.axes.size(); ++d) {
      const auto &v = values[d];
      position.push_back(std::lower_bound(v.begin(), v.end(),
                                          c[grid.axes[d]]) -
                         v.begin());
    }
    int64_t at = 0;
    for (size_t d = 0; d < grid.extents.size(); ++d)
      at = at * grid.extents[d] + position[d];
    if (grid.rankAt[at] >= 0)
      return std::nullopt; // two members on one core: not a grid
    grid.rankAt[at] = rank;
  }
  return grid;
}

CollectiveAlgorithm chooseCollectiveAlgorithm(CollectiveAlgorithm requested,
                                              const MeshPlacement *placement,
                                              std::span<const int64_t> members,
                                              std::optional<GroupGrid> *grid) {
  if (grid)
    grid->reset();
  if (members.size() <= 2 && requested == CollectiveAlgorithm::Auto)
    return CollectiveAlgorithm::Direct;
  if (requested == CollectiveAlgorithm::Direct ||
      (requested == CollectiveAlgorithm::Auto && !placement))
    return CollectiveAlgorithm::Direct;
  if (requested == CollectiveAlgorithm::Ring)
    return CollectiveAlgorithm::Ring;
  // Auto with a placement, or Torus.
  if (placement) {
    std::optional<GroupGrid> g = groupGrid(*placement, members);
    if (g && g->extents.size() >= 2) {
      if (grid)
        *grid = std::move(g);
      return CollectiveAlgorithm::Torus;
    }
  }
  return CollectiveAlgorithm::Ring;
}

} // namespace torus::rt
