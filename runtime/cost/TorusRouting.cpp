//===- TorusRouting.cpp - Dimension-ordered routes on the ICI mesh --------===//

#include "runtime/cost/TorusRouting.h"

#include <algorithm>

namespace torus::rt {

TorusRouting::TorusRouting(std::array<int32_t, 3> chips,
                           std::array<bool, 3> wraparound)
    : chips_(chips) {
  for (int dim = 0; dim < 3; ++dim)
    wraps_[dim] = wraparound[dim] && chips[dim] > 2;
}

int64_t TorusRouting::step(int dim, int32_t from, int32_t to) const {
  int64_t delta = int64_t{to} - from;
  if (!wraps_[dim] || delta == 0)
    return delta;
  const int64_t size = chips_[dim];
  int64_t forward = ((delta % size) + size) % size;
  int64_t backward = size - forward;
  return forward <= backward ? forward : -backward;
}

int64_t TorusRouting::hops(const ChipPoint &a, const ChipPoint &b) const {
  int64_t total = 0;
  for (int dim = 0; dim < 3; ++dim) {
    int64_t s = step(dim, a[dim], b[dim]);
    total += s >= 0 ? s : -s;
  }
  return total;
}

void LinkLoads::add(const ChipPoint &a, const ChipPoint &b, int64_t count) {
  routing_.forEachLink(a, b, [&](int64_t link) { load_[link] += count; });
}

int64_t LinkLoads::maxOnRoute(const ChipPoint &a, const ChipPoint &b) const {
  int64_t most = 0;
  routing_.forEachLink(
      a, b, [&](int64_t link) { most = std::max(most, load_[link]); });
  return most;
}

int64_t LinkLoads::max() const {
  return load_.empty() ? 0 : *std::max_element(load_.begin(), load_.end());
}

} // namespace torus::rt
