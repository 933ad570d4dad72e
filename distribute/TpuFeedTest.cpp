//===- TpuFeedTest.cpp - The host-side infeed partitioner (tpu_feed.py) ---===//
//
// Spec §8.7 "Uneven splits": tiles and their contents checked against a
// naive element-by-element reference; the validation texts verbatim.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;
using tpu_feed::partitionOrReplicateOnHost;

/// A (rows x cols) int32 matrix whose element (i, j) is 100 i + j.
HostTensor matrix(int64_t rows, int64_t cols) {
  std::vector<int32_t> v;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      v.push_back(static_cast<int32_t>(100 * i + j));
  return HostTensor::fromVector<int32_t>({rows, cols}, v);
}

std::vector<int32_t> values(const HostTensor &t) {
  auto span = t.data<int32_t>();
  return std::vector<int32_t>(span.begin(), span.end());
}

TEST(TpuFeedTest, SplitSizesAreXlasGreedySplit) {
  EXPECT_THAT(tpu_feed::splitSizes(14, 4), ElementsAre(4, 4, 4, 2));
  EXPECT_THAT(tpu_feed::splitSizes(5, 2), ElementsAre(3, 2));
  EXPECT_THAT(tpu_feed::splitSizes(8, 4), ElementsAre(2, 2, 2, 2));
  // A left-over of 0 is kept, then padded with empty parts.
  EXPECT_THAT(tpu_feed::splitSizes(6, 4), ElementsAre(2, 2, 2, 0));
  EXPECT_THAT(tpu_feed::splitSizes(5, 4), ElementsAre(2, 2, 1, 0));
  EXPECT_THAT(tpu_feed::splitSizes(7, 5), ElementsAre(2, 2, 2, 1, 0));
}

TEST(TpuFeedTest, UnevenTilesInRowMajorOrder) {
  // (5, 14) by (2, 4): dim 0 [3, 2], dim 1 [4, 4, 4, 2] (the code's result,
  // not tpu_feed.py's comment).
  HostTensor x = matrix(5, 14);
  TORUS_ASSERT_OK_AND_ASSIGN(auto tiles,
                             partitionOrReplicateOnHost(x, {{2, 4}}, 8));
  ASSERT_EQ(tiles.size(), 8u);
  const std::vector<int64_t> rowStart{0, 3}, rowSize{3, 2};
  const std::vector<int64_t> colStart{0, 4, 8, 12}, colSize{4, 4, 4, 2};
  for (int k = 0; k < 8; ++k) {
    const int a = k / 4, b = k % 4;
    SCOPED_TRACE("tile " + std::to_string(k));
    EXPECT_EQ(tiles[k].shape(), (Shape{rowSize[a], colSize[b]}));
    std::vector<int32_t> want;
    for (int64_t i = 0; i < rowSize[a]; ++i)
      for (int64_t j = 0; j < colSize[b]; ++j)
        want.push_back(
            static_cast<int32_t>(100 * (rowStart[a] + i) + colStart[b] + j));
    EXPECT_EQ(values(tiles[k]), want);
  }
}

TEST(TpuFeedTest, EvenSplitEmptyPartsAndReplication) {
  HostTensor x = matrix(4, 6);
  TORUS_ASSERT_OK_AND_ASSIGN(auto halves,
                             partitionOrReplicateOnHost(x, {{1, 2}}, 2));
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_EQ(values(halves[1]),
            (std::vector<int32_t>{3, 4, 5, 103, 104, 105, 203, 204, 205, 303,
                                  304, 305}));
  // 6 columns 4 ways: [2, 2, 2, 0], the last tile empty.
  TORUS_ASSERT_OK_AND_ASSIGN(auto four,
                             partitionOrReplicateOnHost(x, {{1, 4}}, 4));
  ASSERT_EQ(four.size(), 4u);
  EXPECT_EQ(four[3].shape(), (Shape{4, 0}));
  EXPECT_EQ(values(four[2]), (std::vector<int32_t>{4, 5, 104, 105, 204, 205,
                                                    304, 305}));
  // No dims: the tensor for every core; a product of 1: the tensor once.
  TORUS_ASSERT_OK_AND_ASSIGN(auto copies,
                             partitionOrReplicateOnHost(x, std::nullopt, 3));
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(values(copies[2]), values(x));
  TORUS_ASSERT_OK_AND_ASSIGN(auto whole,
                             partitionOrReplicateOnHost(x, {{1, 1}}, 4));
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(values(whole[0]), values(x));
}

TEST(TpuFeedTest, ChecksInTensorFlowsOrder) {
  HostTensor x = matrix(5, 14);
  EXPECT_STATUS(partitionOrReplicateOnHost(x, {{0, 8}}, 8),
                absl::StatusCode::kInvalidArgument,
                "All input partition dims must be >= 1.");
  EXPECT_STATUS(partitionOrReplicateOnHost(x, {{1, 2}}, 8),
                absl::StatusCode::kInvalidArgument,
                "The product of each input partition dim should equal to "
                "num_cores_per_replica. (dim = [1 2], num_cores_per_replica = "
                "8)");
  EXPECT_STATUS(partitionOrReplicateOnHost(x, {{8}}, 8),
                absl::StatusCode::kInvalidArgument,
                "Input partition dims must have the same number of dimensions "
                "as the `Tensor` to be partitioned. (tensor shape = [5, 14], "
                "input partition dims = [8]).");
}

TEST(TpuFeedTest, TpuStrategyV1PartitionsForItsLogicalCores) {
  TORUS_ASSERT_OK_AND_ASSIGN(auto resolver, TPUClusterResolver::create(""));
  TORUS_ASSERT_OK_AND_ASSIGN(Topology topology,
                             initializeTpuSystem(resolver.get()));
  TORUS_ASSERT_OK_AND_ASSIGN(
      DeviceAssignment assignment,
      DeviceAssignment::build(topology, std::vector<int64_t>{1, 1, 1, 2},
                              std::nullopt, 4));
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategyV1 strategy,
                             TPUStrategyV1::create(resolver, 1, assignment));
  ASSERT_EQ(strategy.numCoresPerReplica(), 2);
  TORUS_ASSERT_OK_AND_ASSIGN(auto tiles,
                             strategy.partitionInfeed(matrix(3, 2), {{2, 1}}));
  ASSERT_EQ(tiles.size(), 2u);
  EXPECT_EQ(values(tiles[0]), (std::vector<int32_t>{0, 1, 100, 101}));
  EXPECT_EQ(values(tiles[1]), (std::vector<int32_t>{200, 201}));
  EXPECT_STATUS(strategy.partitionInfeed(matrix(3, 2), {{2, 2}}),
                absl::StatusCode::kInvalidArgument,
                "The product of each input partition dim should equal to "
                "num_cores_per_replica. (dim = [2 2], num_cores_per_replica = "
                "2)");
}

} // namespace
} // namespace torus::distribute
