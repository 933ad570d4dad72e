//===- TorusRouting.h - Dimension-ordered routes on the ICI mesh -*- C++ -*-===//
//
// How a message travels between two chips of a slice: dimension-ordered
// routing (all of x, then y, then z), each dimension the shortest way round
// when it has wraparound links (ties go the + way), else straight. Links are
// directed: the + and - links between two neighbours carry traffic
// independently. A LinkLoads counts the messages of one communication step
// crossing each directed link, so the cost model can charge contention.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COST_TORUSROUTING_H
#define TORUS_RUNTIME_COST_TORUSROUTING_H

#include <array>
#include <cstdint>
#include <vector>

namespace torus::rt {

using ChipPoint = std::array<int32_t, 3>;

class TorusRouting {
public:
  /// Chips along x, y, z and which dimensions wrap around. A dimension of
  /// size <= 2 has no separate wraparound link, so it routes as a line.
  TorusRouting(std::array<int32_t, 3> chips, std::array<bool, 3> wraparound);

  /// Hops from `a` to `b` along `dim` (signed: + or - direction) as routed.
  int64_t step(int dim, int32_t from, int32_t to) const;
  /// Total hops from `a` to `b`.
  int64_t hops(const ChipPoint &a, const ChipPoint &b) const;
  /// Calls fn(linkId) for each directed link the route from `a` to `b`
  /// crosses, in order.
  template <typename Fn>
  void forEachLink(const ChipPoint &a, const ChipPoint &b, Fn &&fn) const {
    ChipPoint at = a;
    for (int dim = 0; dim < 3; ++dim) {
      int64_t s = step(dim, at[dim], b[dim]);
      int dir = s >= 0 ? 1 : -1;
      for (int64_t k = 0; k < (s >= 0 ? s : -s); ++k) {
        fn(linkId(at, dim, dir));
        at[dim] = static_cast<int32_t>((at[dim] + dir + chips_[dim]) %
                                       chips_[dim]);
      }
    }
  }
  /// Directed links in the mesh (the id space of linkId).
  int64_t numLinks() const { return numChips() * 6; }
  int64_t numChips() const {
    return int64_t{chips_[0]} * chips_[1] * chips_[2];
  }
  int64_t linkId(const ChipPoint &chip, int dim, int direction) const {
    int64_t index = (int64_t{chip[2]} * chips_[1] + chip[1]) * chips_[0] +
                    chip[0];
    return index * 6 + dim * 2 + (direction > 0 ? 0 : 1);
  }
  const std::array<int32_t, 3> &chips() const { return chips_; }
  bool wraps(int dim) const { return wraps_[dim]; }

private:
  std::array<int32_t, 3> chips_;
  std::array<bool, 3> wraps_;
};

/// Messages crossing each directed link during one step.
class LinkLoads {
public:
  explicit LinkLoads(const TorusRouting &routing)
      : routing_(routing), load_(routing.numLinks(), 0) {}
  /// Charges one message from `a` to `b` (weight `count`).
  void add(const ChipPoint &a, const ChipPoint &b, int64_t count = 1);
  /// The most loaded link on the route from `a` to `b` (0 on one chip).
  int64_t maxOnRoute(const ChipPoint &a, const ChipPoint &b) const;
  int64_t max() const;

private:
  const TorusRouting &routing_;
  std::vector<int64_t> load_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_COST_TORUSROUTING_H
