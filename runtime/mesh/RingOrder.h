//===- RingOrder.h - TensorFlow's ring orders over chip grids ---*- C++ -*-===//
//
// The chip orders DeviceAssignment::build uses on its ring (3-D tiling) path:
// `_open_ring_2d` and `_ring_3d` of tensorflow/python/tpu/device_assignment.py
// (spec §10.3), reproduced exactly, including the raster fallback for odd
// sizes (which TensorFlow announces with the warning "Odd dimension").
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_RINGORDER_H
#define TORUS_RUNTIME_MESH_RINGORDER_H

#include <array>
#include <cstdint>
#include <vector>

namespace torus::rt {

using RingPosition = std::array<int32_t, 3>;

/// The open ring through an x*y grid at height `z`, without chip (0, 0): for
/// each pair of rows 2i, 2i+1 go out along row 2i and back along row 2i+1,
/// then return down column 0. For 2x2: (1,0), (1,1), (0,1).
std::vector<RingPosition> openRing2d(int32_t x, int32_t y, int32_t z);

/// The ring through an x*y*z grid starting at (0, 0, 0): a line when two
/// sizes are 1, raster order (x fastest) when a size > 1 is odd, a flat ring
/// when one size is 1, else the z-planes' open rings (odd planes reversed)
/// closed by the column (0, 0, z) for z = Z-1 .. 1.
std::vector<RingPosition> ring3d(int32_t x, int32_t y, int32_t z);

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_RINGORDER_H
