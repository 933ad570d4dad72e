//===- BlockCopyTest.cpp - Tests for rectangular block copies -------------===//

#include "runtime/collectives/BlockCopy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace torus::rt {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

TEST(BlockCopyTest, InnerBlockOfAMatrix) {
  // src 3x4 = 0..11; copy rows 1..2, columns 1..2 into dst 2x5 at (0, 3).
  std::vector<int32_t> src(12), dst(10, -1);
  for (int i = 0; i < 12; ++i)
    src[i] = i;
  Shape srcShape = {3, 4}, dstShape = {2, 5}, block = {2, 2};
  std::vector<int64_t> srcOffset = {1, 1}, dstOffset = {0, 3};
  copyBlock(src.data(), srcShape, srcOffset, dst.data(), dstShape, dstOffset,
            block, 4);
  EXPECT_THAT(dst, ElementsAre(-1, -1, -1, 5, 6, -1, -1, -1, 9, 10));
}

TEST(BlockCopyTest, WholeTrailingDimsMerge) {
  // A [2,3,4] block at [1,0,0] of a [3,3,4] tensor is one contiguous run.
  Shape shape = {3, 3, 4}, block = {2, 3, 4};
  std::vector<int64_t> offset = {1, 0, 0};
  std::vector<std::pair<size_t, size_t>> runs;
  forEachRun(shape, offset, block, 2,
             [&](size_t at, size_t bytes) { runs.emplace_back(at, bytes); });
  EXPECT_THAT(runs, ElementsAre(std::pair<size_t, size_t>{24, 48}));
  // A partial middle dimension: one run per outer index.
  block = {2, 2, 4};
  offset = {0, 1, 0};
  runs.clear();
  forEachRun(shape, offset, block, 1,
             [&](size_t at, size_t bytes) { runs.emplace_back(at, bytes); });
  EXPECT_THAT(runs, ElementsAre(std::pair<size_t, size_t>{4, 8},
                                std::pair<size_t, size_t>{16, 8}));
}

TEST(BlockCopyTest, ScalarsAndEmptyBlocks) {
  int64_t a = 7, b = 0;
  copyBlock(&a, {}, {}, &b, {}, {}, {}, 8);
  EXPECT_EQ(b, 7);
  std::vector<int32_t> src(6, 1), dst(6, 0);
  Shape shape = {2, 3}, block = {0, 3};
  std::vector<int64_t> zero = {0, 0};
  copyBlock(src.data(), shape, zero, dst.data(), shape, zero, block, 4);
  EXPECT_THAT(dst, ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST(BlockCopyTest, MatchesElementwiseCopyIn4D) {
  Shape srcShape = {3, 4, 5, 6}, dstShape = {4, 5, 5, 7};
  Shape block = {2, 3, 5, 4};
  std::vector<int64_t> srcOffset = {1, 1, 0, 2}, dstOffset = {2, 0, 0, 3};
  std::vector<int32_t> src(3 * 4 * 5 * 6), dst(4 * 5 * 5 * 7, -1);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = static_cast<int32_t>(i);
  std::vector<int32_t> expected = dst;
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t c = 0; c < 5; ++c)
        for (int64_t d = 0; d < 4; ++d) {
          int64_t s = (((a + 1) * 4 + (b + 1)) * 5 + c) * 6 + (d + 2);
          int64_t t = (((a + 2) * 5 + b) * 5 + c) * 7 + (d + 3);
          expected[t] = src[s];
        }
  copyBlock(src.data(), srcShape, srcOffset, dst.data(), dstShape, dstOffset,
            block, 4);
  EXPECT_THAT(dst, ElementsAreArray(expected));
}

} // namespace
} // namespace torus::rt
