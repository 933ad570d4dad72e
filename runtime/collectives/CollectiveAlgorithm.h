//===- CollectiveAlgorithm.h - Which schedule a collective uses -*- C++ -*-===//
//
// The algorithms a collective can run with, and how one is chosen for a
// replica group from where its members sit in the mesh. The same choice is
// made by the in-process communicator (which follows the schedule when
// moving bytes between emulated cores) and by the cost model (which prices
// the schedule on the real slice), so the two agree.
//
//   Direct  every member reads what it needs straight from the others (one
//           step; the fastest in shared memory, and the default without a
//           topology).
//   Ring    the members form a ring in group order; data moves only between
//           ring neighbours, one chunk per step (n-1 steps per phase).
//   Torus   dimension-ordered: when the group is a full grid over the mesh
//           (every combination of its members' distinct core, x, y and z
//           coordinates present), one ring per grid line, dimension after
//           dimension (on-chip cores first, then x, y, z).
//
// Auto picks Direct without a placement, else Torus when the group is a grid
// with at least two dimensions of extent > 1, else Ring (Direct for groups
// of one or two, where every schedule is the same single exchange).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_COLLECTIVEALGORITHM_H
#define TORUS_RUNTIME_COLLECTIVES_COLLECTIVEALGORITHM_H

#include "torus/Status.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace torus::rt {

enum class CollectiveAlgorithm : int32_t { Auto, Direct, Ring, Torus };
std::string_view collectiveAlgorithmName(CollectiveAlgorithm algorithm);

/// Where every participant of a communicator runs: the mesh shape
/// `[x, y, z, cores_per_chip]`, which chip dimensions wrap around, and the
/// `(x, y, z, core)` coordinates of each participant id's core.
struct MeshPlacement {
  std::array<int32_t, 4> meshShape = {1, 1, 1, 1};
  std::array<bool, 3> wraparound = {false, false, false};
  std::vector<std::array<int32_t, 4>> coordinates;

  /// InvalidArgument unless every coordinate is inside the mesh and no two
  /// participants share a core.
  absl::Status validate() const;
};

/// A replica group laid out as a grid over the mesh.
struct GroupGrid {
  /// The mesh axis of each grid dimension (3 = core, 0 = x, 1 = y, 2 = z), in
  /// the order the torus algorithm runs them; only extents > 1 are kept.
  std::vector<int> axes;
  /// Members along each grid dimension.
  std::vector<int64_t> extents;
  /// positions[rank][d]: where member `rank` sits along grid dimension d
  /// (its coordinate's index among the group's sorted coordinates on that
  /// axis).
  std::vector<std::vector<int64_t>> positions;
  /// The rank at a grid position (row-major over `extents`).
  std::vector<int64_t> rankAt;

  int64_t rankAtPosition(std::span<const int64_t> position) const;
};

/// The group `members` (participant ids) as a grid, or nullopt when it is
/// not one (some combination of its coordinates is missing).
std::optional<GroupGrid> groupGrid(const MeshPlacement &placement,
                                   std::span<const int64_t> members);

/// The algorithm `requested` resolves to for `members` (see the file
/// comment). Torus without a grid falls back to Ring; Ring and Torus without
/// a placement are honoured (Ring needs none; Torus falls back to Ring).
CollectiveAlgorithm chooseCollectiveAlgorithm(
    CollectiveAlgorithm requested, const MeshPlacement *placement,
    std::span<const int64_t> members, std::optional<GroupGrid> *grid = nullptr);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_COLLECTIVEALGORITHM_H
