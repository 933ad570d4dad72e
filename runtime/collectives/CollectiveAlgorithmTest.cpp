//===- CollectiveAlgorithmTest.cpp - Tests for choosing a schedule --------===//

#include "runtime/collectives/CollectiveAlgorithm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

/// A v3-8-like mesh [2, 2, 1, 2]: participant i on core (x, y, 0, c) with
/// c fastest, then x, then y.
MeshPlacement v3Like() {
  MeshPlacement p;
  p.meshShape = {2, 2, 1, 2};
  for (int32_t y = 0; y < 2; ++y)
    for (int32_t x = 0; x < 2; ++x)
      for (int32_t c = 0; c < 2; ++c)
        p.coordinates.push_back({x, y, 0, c});
  return p;
}

TEST(CollectiveAlgorithmTest, GridOfTheWholeSlice) {
  MeshPlacement p = v3Like();
  std::vector<int64_t> all = {0, 1, 2, 3, 4, 5, 6, 7};
  auto grid = groupGrid(p, all);
  ASSERT_TRUE(grid);
  EXPECT_THAT(grid->axes, ElementsAre(3, 0, 1)); // core, x, y
  EXPECT_THAT(grid->extents, ElementsAre(2, 2, 2));
  EXPECT_THAT(grid->positions[5], ElementsAre(1, 0, 1)); // (0,1,0,1)
  std::vector<int64_t> at = {1, 0, 1};
  EXPECT_EQ(grid->rankAtPosition(at), 5);
}

TEST(CollectiveAlgorithmTest, SubgroupsAndNonGrids) {
  MeshPlacement p = v3Like();
  // The two cores of each chip: a line along the core axis.
  std::vector<int64_t> chip = {2, 3};
  auto grid = groupGrid(p, chip);
  ASSERT_TRUE(grid);
  EXPECT_THAT(grid->axes, ElementsAre(3));
  // Core 0 of every chip: a 2x2 grid over x and y.
  std::vector<int64_t> cores0 = {6, 0, 4, 2};
  grid = groupGrid(p, cores0);
  ASSERT_TRUE(grid);
  EXPECT_THAT(grid->axes, ElementsAre(0, 1));
  EXPECT_EQ(grid->rankAtPosition(std::vector<int64_t>{0, 0}), 1); // id 0
  // Three of four chips: not a grid.
  std::vector<int64_t> three = {0, 2, 4};
  EXPECT_FALSE(groupGrid(p, three));
}

TEST(CollectiveAlgorithmTest, Choice) {
  MeshPlacement p = v3Like();
  std::vector<int64_t> all = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<int64_t> three = {0, 2, 4};
  std::vector<int64_t> pair = {0, 1};
  using A = CollectiveAlgorithm;
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Auto, nullptr, all), A::Direct);
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Auto, &p, all), A::Torus);
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Auto, &p, three), A::Ring);
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Auto, &p, pair), A::Direct);
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Torus, &p, three), A::Ring);
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Torus, nullptr, all), A::Ring);
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Ring, &p, all), A::Ring);
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Direct, &p, all), A::Direct);
  std::optional<GroupGrid> grid;
  EXPECT_EQ(chooseCollectiveAlgorithm(A::Auto, &p, all, &grid), A::Torus);
  EXPECT_TRUE(grid);
  EXPECT_EQ(collectiveAlgorithmName(A::Torus), "torus");
}

TEST(CollectiveAlgorithmTest, PlacementValidation) {
  MeshPlacement p = v3Like();
  EXPECT_TRUE(p.validate().ok());
  p.coordinates[3] = p.coordinates[2];
  EXPECT_THAT(std::string(p.validate().message()),
              HasSubstr("participant 3 shares core (1, 0, 0, 0)"));
  p = v3Like();
  p.coordinates[1] = {2, 0, 0, 0};
  EXPECT_THAT(std::string(p.validate().message()),
              HasSubstr("participant 1 at (2, 0, 0, 0) is outside the mesh"));
}

} // namespace
} // namespace torus::rt
