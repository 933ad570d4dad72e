//===- TorusRoutingTest.cpp - Tests for dimension-ordered routes ----------===//

#include "runtime/cost/TorusRouting.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::ElementsAre;

TEST(TorusRoutingTest, ShortestWayRoundOnlyWithWraparound) {
  TorusRouting torus({8, 4, 2}, {true, true, true});
  EXPECT_EQ(torus.step(0, 0, 7), -1); // round the back
  EXPECT_EQ(torus.step(0, 1, 5), 4);  // a tie goes +
  EXPECT_EQ(torus.step(0, 5, 1), 4);
  EXPECT_EQ(torus.step(1, 3, 0), 1);
  // z has two chips: one link pair, no separate wraparound link.
  EXPECT_FALSE(torus.wraps(2));
  EXPECT_EQ(torus.step(2, 1, 0), -1);
  EXPECT_EQ(torus.hops({0, 0, 0}, {7, 3, 1}), 3);

  TorusRouting mesh({8, 4, 1}, {false, false, false});
  EXPECT_EQ(mesh.step(0, 0, 7), 7);
  EXPECT_EQ(mesh.step(0, 7, 0), -7);
  EXPECT_EQ(mesh.hops({0, 0, 0}, {7, 3, 0}), 10);
}

TEST(TorusRoutingTest, RoutesGoXThenYThenZ) {
  TorusRouting mesh({3, 3, 1}, {false, false, false});
  std::vector<int64_t> links;
  mesh.forEachLink({0, 0, 0}, {2, 1, 0},
                   [&](int64_t link) { links.push_back(link); });
  EXPECT_THAT(links, ElementsAre(mesh.linkId({0, 0, 0}, 0, 1),
                                 mesh.linkId({1, 0, 0}, 0, 1),
                                 mesh.linkId({2, 0, 0}, 1, 1)));
  EXPECT_NE(mesh.linkId({1, 0, 0}, 0, 1), mesh.linkId({1, 0, 0}, 0, -1));
}

TEST(TorusRoutingTest, LinkLoadsCountSharedDirectedLinks) {
  TorusRouting ring({4, 1, 1}, {true, false, false});
  LinkLoads loads(ring);
  loads.add({0, 0, 0}, {2, 0, 0}); // 0 -> 1 -> 2
  loads.add({1, 0, 0}, {3, 0, 0}); // 1 -> 2 -> 3: shares link 1 -> 2
  loads.add({2, 0, 0}, {1, 0, 0}); // the - direction: no sharing
  EXPECT_EQ(loads.max(), 2);
  EXPECT_EQ(loads.maxOnRoute({0, 0, 0}, {2, 0, 0}), 2);
  EXPECT_EQ(loads.maxOnRoute({2, 0, 0}, {1, 0, 0}), 1);
  EXPECT_EQ(loads.maxOnRoute({3, 0, 0}, {3, 0, 0}), 0);
}

} // namespace
} // namespace torus::rt
