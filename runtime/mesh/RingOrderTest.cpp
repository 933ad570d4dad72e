//===- RingOrderTest.cpp - TensorFlow's ring orders -----------------------===//
//
// Expected orders are _ring_3d / _open_ring_2d of TensorFlow's
// device_assignment.py, evaluated in Python.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/RingOrder.h"

#include <string>

#include "gtest/gtest.h"
#include "runtime/mesh/MeshWarnings.h"

namespace torus::rt {
namespace {

using Ring = std::vector<RingPosition>;

TEST(RingOrderTest, OpenRing2dSkipsTheFirstChip) {
  EXPECT_EQ(openRing2d(2, 2, 0), (Ring{{1, 0, 0}, {1, 1, 0}, {0, 1, 0}}));
  // The 4x4 example of TensorFlow's docstring (positions 1..15).
  Ring ring = openRing2d(4, 4, 3);
  Ring expected = {{1, 0, 3}, {2, 0, 3}, {3, 0, 3}, {3, 1, 3}, {2, 1, 3},
                   {1, 1, 3}, {1, 2, 3}, {2, 2, 3}, {3, 2, 3}, {3, 3, 3},
                   {2, 3, 3}, {1, 3, 3}, {0, 3, 3}, {0, 2, 3}, {0, 1, 3}};
  EXPECT_EQ(ring, expected);
}

TEST(RingOrderTest, Ring3dShapes) {
  EXPECT_EQ(ring3d(2, 2, 1), (Ring{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}));
  EXPECT_EQ(ring3d(1, 1, 3), (Ring{{0, 0, 0}, {0, 0, 1}, {0, 0, 2}}));
  EXPECT_EQ(ring3d(1, 3, 1), (Ring{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}}));
  EXPECT_EQ(ring3d(3, 1, 1), (Ring{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}));
  EXPECT_EQ(ring3d(2, 2, 2), (Ring{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                   {0, 1, 1}, {1, 1, 1}, {1, 0, 1}, {0, 0, 1}}));
  EXPECT_EQ(ring3d(4, 1, 2), (Ring{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0},
                                   {3, 0, 1}, {2, 0, 1}, {1, 0, 1}, {0, 0, 1}}));
  EXPECT_EQ(ring3d(1, 2, 4), (Ring{{0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {0, 1, 2},
                                   {0, 1, 3}, {0, 0, 3}, {0, 0, 2}, {0, 0, 1}}));
}

TEST(RingOrderTest, Ring3dVisitsEveryChipOnceAndStepsToNeighbours) {
  for (auto [x, y, z] : {std::array<int32_t, 3>{4, 4, 4}, {2, 4, 8},
                         {8, 8, 16}, {2, 2, 4}}) {
    SCOPED_TRACE(std::to_string(x) + "x" + std::to_string(y) + "x" +
                 std::to_string(z));
    Ring ring = ring3d(x, y, z);
    ASSERT_EQ(ring.size(), size_t(x) * y * z);
    std::vector<bool> seen(ring.size());
    for (size_t i = 0; i < ring.size(); ++i) {
      const RingPosition &p = ring[i];
      size_t cell = (size_t(p[2]) * y + p[1]) * x + p[0];
      EXPECT_FALSE(seen[cell]);
      seen[cell] = true;
      // Consecutive chips (and the last and first) are mesh neighbours.
      const RingPosition &q = ring[(i + 1) % ring.size()];
      int distance = std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) +
                     std::abs(p[2] - q[2]);
      EXPECT_EQ(distance, 1) << "step " << i;
    }
  }
}

TEST(RingOrderTest, OddSizesFallBackToRasterWithAWarning) {
  std::vector<std::string> warnings;
  MeshWarningHandler previous = setMeshWarningHandler(
      [&](std::string_view m) { warnings.emplace_back(m); });
  Ring ring = ring3d(3, 2, 1);
  setMeshWarningHandler(previous);
  EXPECT_EQ(ring, (Ring{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0},
                        {2, 1, 0}}));
  EXPECT_EQ(warnings, std::vector<std::string>{"Odd dimension"});
}

} // namespace
} // namespace torus::rt
