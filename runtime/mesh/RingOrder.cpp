//===- RingOrder.cpp - TensorFlow's ring orders over chip grids -----------===//
#include "runtime/mesh/RingOrder.h"

#include <algorithm>

#include "runtime/mesh/MeshWarnings.h"

namespace torus::rt {

std::vector<RingPosition> openRing2d(int32_t x, int32_t y, int32_t z) {
  std::vector<RingPosition> ring;
  for (int32_t i = 0; i < y / 2; ++i) {
    for (int32_t j = 1; j < x; ++j)
      ring.push_back({j, 2 * i, z});
    for (int32_t j = x - 1; j > 0; --j)
      ring.push_back({j, 2 * i + 1, z});
  }
  for (int32_t i = y - 1; i > 0; --i)
    ring.push_back({0, i, z});
  return ring;
}

std::vector<RingPosition> ring3d(int32_t x, int32_t y, int32_t z) {
  std::vector<RingPosition> ring;
  // Two sizes of 1: a straight line along the third.
  if (x == 1 && y == 1) {
    for (int32_t i = 0; i < z; ++i)
      ring.push_back({0, 0, i});
    return ring;
  }
  if (x == 1 && z == 1) {
    for (int32_t i = 0; i < y; ++i)
      ring.push_back({0, i, 0});
    return ring;
  }
  if (y == 1 && z == 1) {
    for (int32_t i = 0; i < x; ++i)
      ring.push_back({i, 0, 0});
    return ring;
  }
  // Odd sizes: raster order, as TensorFlow does ("never happens in
  // practice").
  if ((x > 1 && x % 2 != 0) || (y > 1 && y % 2 != 0) ||
      (z > 1 && z % 2 != 0)) {
    emitMeshWarning("Odd dimension");
    for (int32_t k = 0; k < z; ++k)
      for (int32_t j = 0; j < y; ++j)
        for (int32_t i = 0; i < x; ++i)
          ring.push_back({i, j, k});
    return ring;
  }
  ring.push_back({0, 0, 0});
  // One size of 1: a flat ring in the other two.
  if (z == 1) {
    std::vector<RingPosition> flat = openRing2d(x, y, 0);
    ring.insert(ring.end(), flat.begin(), flat.end());
    return ring;
  }
  if (y == 1) {
    // TensorFlow: ((x, y, z) for (x, z, y) in _open_ring_2d(x, z, 0)).
    for (const RingPosition &p : openRing2d(x, z, 0))
      ring.push_back({p[0], p[2], p[1]});
    return ring;
  }
  if (x == 1) {
    // TensorFlow: ((x, y, z) for (y, z, x) in _open_ring_2d(y, z, 0)).
    for (const RingPosition &p : openRing2d(y, z, 0))
      ring.push_back({p[2], p[0], p[1]});
    return ring;
  }
  // Every size > 1 and even: stacked planes joined at one corner.
  for (int32_t k = 0; k < z; ++k) {
    std::vector<RingPosition> plane = openRing2d(x, y, k);
    if (k % 2 != 0)
      std::reverse(plane.begin(), plane.end());
    ring.insert(ring.end(), plane.begin(), plane.end());
  }
  for (int32_t k = z - 1; k > 0; --k)
    ring.push_back({0, 0, k});
  return ring;
}

} // namespace torus::rt
