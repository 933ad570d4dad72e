//===- DatasetTest.cpp - tf.data in the small -----------------------------===//

#include "torus/distribute/Dataset.h"
#include "distribute/DatasetNode.h"
#include "distribute/DistributedInput.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace torus::distribute {
namespace {

using namespace testing;
using ::testing::ElementsAre;

/// Every element's first component as ints.
std::vector<std::vector<int64_t>> collect(const Dataset &d) {
  auto v = d.toVector();
  EXPECT_TRUE(v.ok()) << v.status();
  std::vector<std::vector<int64_t>> out;
  if (v.ok())
    for (const Element &e : *v)
      out.push_back(ints(e[0]));
  return out;
}

using V = std::vector<std::vector<int64_t>>;

TEST(DatasetTest, RangeRepeatTakeSkip) {
  EXPECT_EQ(collect(Dataset::range(4)), (V{{0}, {1}, {2}, {3}}));
  EXPECT_EQ(collect(Dataset::range(1, 8, 3)), (V{{1}, {4}, {7}}));
  EXPECT_EQ(collect(Dataset::range(5, 0, -2)), (V{{5}, {3}, {1}}));
  EXPECT_EQ(collect(Dataset::range(3).repeat(2)),
            (V{{0}, {1}, {2}, {0}, {1}, {2}}));
  EXPECT_EQ(collect(Dataset::range(3).repeat().take(5)),
            (V{{0}, {1}, {2}, {0}, {1}}));
  EXPECT_EQ(collect(Dataset::range(5).skip(3)), (V{{3}, {4}}));
  EXPECT_EQ(Dataset::range(10).cardinality(), 10);
  EXPECT_EQ(Dataset::range(10).repeat().cardinality(), kInfiniteCardinality);
  EXPECT_EQ(Dataset::range(10).repeat(3).batch(4).cardinality(), 8);
  EXPECT_EQ(Dataset::range(10).batch(4, true).cardinality(), 2);
  EXPECT_EQ(Dataset::range(0).repeat().cardinality(), 0);
  // An empty dataset repeated forever ends.
  EXPECT_EQ(collect(Dataset::range(0).repeat()), V{});
}

TEST(DatasetTest, BatchKeepsOrDropsTheRemainder) {
  EXPECT_EQ(collect(Dataset::range(5).batch(2)), (V{{0, 1}, {2, 3}, {4}}));
  EXPECT_EQ(collect(Dataset::range(5).batch(2, true)), (V{{0, 1}, {2, 3}}));
  EXPECT_EQ(Dataset::range(5).batch(2).elementSpec()[0].toString(),
            "TensorSpec(shape=(None,), dtype=tf.int64, name=None)");
  EXPECT_EQ(Dataset::range(5).batch(2, true).elementSpec()[0].toString(),
            "TensorSpec(shape=(2,), dtype=tf.int64, name=None)");
  EXPECT_STATUS(Dataset::range(5).batch(0).makeIterator(),
                absl::StatusCode::kInvalidArgument,
                "batch_size must be greater than zero.");
}

TEST(DatasetTest, FromTensorSlicesAndTensors) {
  TORUS_ASSERT_OK_AND_ASSIGN(
      Dataset d, Dataset::fromTensorSlices(
                     {f32({3, 2}, {1, 2, 3, 4, 5, 6}), i64({3}, {7, 8, 9})}));
  EXPECT_EQ(elementSpecToString(d.elementSpec()),
            "(TensorSpec(shape=(2,), dtype=tf.float32, name=None), "
            "TensorSpec(shape=(), dtype=tf.int64, name=None))");
  TORUS_ASSERT_OK_AND_ASSIGN(auto all, d.batch(2).toVector());
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(floats(all[0][0]), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(ints(all[1][1]), (std::vector<int64_t>{9}));
  EXPECT_STATUS(Dataset::fromTensorSlices({f32({3}, {1, 2, 3}), i64({2}, {1, 2})}),
                absl::StatusCode::kInvalidArgument,
                "Dimensions 3 and 2 are not compatible");
  Dataset t = Dataset::fromTensors({f32({1, 1}, {1})});
  EXPECT_EQ(t.cardinality(), 1);
  EXPECT_EQ(collect(t.repeat(2).map([](const Element &e) -> absl::StatusOr<Element> {
              return Element{i64({1}, {static_cast<int64_t>(e[0].data<float>()[0] * 3)})};
            })),
            (V{{3}, {3}}));
}

TEST(DatasetTest, ShardAndItsErrors) {
  EXPECT_EQ(collect(Dataset::range(10).shard(3, 1)), (V{{1}, {4}, {7}}));
  EXPECT_EQ(Dataset::range(10).shard(3, 0).cardinality(), 4);
  EXPECT_EQ(Dataset::range(10).shard(3, 2).cardinality(), 3);
  EXPECT_STATUS(Dataset::range(10).shard(0, 0).makeIterator(),
                absl::StatusCode::kInvalidArgument,
                "Number of shards must be greater than zero (currently "
                "num_shards = 0).");
  EXPECT_STATUS(Dataset::range(10).shard(2, 2).makeIterator(),
                absl::StatusCode::kInvalidArgument,
                "Index must be between 0 and 1 (currently index = 2).");
  EXPECT_EQ(Dataset::range(10).shard(kShardHint, kShardHint).makeIterator()
                .status()
                .code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(DatasetTest, ShuffleIsASeededPermutationReshuffledEachPass) {
  Dataset d = Dataset::range(20).shuffle(8, 42);
  V first = collect(d), second = collect(d);
  V sorted = first;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, collect(Dataset::range(20)));
  EXPECT_NE(first, collect(Dataset::range(20)));
  EXPECT_NE(first, second); // reshuffle_each_iteration
  Dataset fixed = Dataset::range(20).shuffle(8, 42, false);
  EXPECT_EQ(collect(fixed), collect(fixed));
  EXPECT_EQ(collect(Dataset::range(20).shuffle(8, 7, false)),
            collect(Dataset::range(20).shuffle(8, 7, false)));
}

TEST(DatasetTest, ModernRebatchSpansInputBatches) {
  // The split quoted in the reduce docstring (spec §3.4).
  EXPECT_EQ(collect(Dataset::range(14).batch(8).rebatch({4, 4})),
            (V{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13}}));
  EXPECT_EQ(collect(Dataset::range(6).batch(4).rebatch({3})),
            (V{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(collect(Dataset::range(4).batch(4).rebatch({1, 1, 1, 1, 0})),
            (V{{0}, {1}, {2}, {3}, {}}));
  EXPECT_EQ(collect(Dataset::range(14).batch(8).rebatch({4, 4}, true)),
            (V{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}}));
}

TEST(DatasetTest, LegacyRebatchSplitsEachBatchInCeilSlices) {
  auto legacy = [](int64_t elements, int64_t batch, int64_t n) {
    return collect(Dataset(detail::makeLegacyRebatch(
        Dataset::range(elements).batch(batch).node(), n)));
  };
  EXPECT_EQ(legacy(8, 8, 2), (V{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(legacy(6, 6, 2), (V{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(legacy(5, 5, 2), (V{{0, 1, 2}, {3, 4}}));
  EXPECT_EQ(legacy(1, 1, 2), (V{{0}, {}}));
  EXPECT_EQ(legacy(4, 4, 3), (V{{0, 1}, {2, 3}, {}}));
  // Slices never span input batches.
  EXPECT_EQ(legacy(6, 4, 2), (V{{0, 1}, {2, 3}, {4}, {5}}));
  Dataset scalars(detail::makeLegacyRebatch(Dataset::range(4).node(), 2));
  EXPECT_STATUS(scalars.makeIterator(), absl::StatusCode::kInvalidArgument,
                "Invalid `input_dataset`. Expected a dataset whose elements "
                "have rank >= 1 but found a dataset whose elements are "
                "scalars. Fix the issue by adding the `batch` transformation "
                "to the dataset.");
}

TEST(DatasetTest, GlobalBatchSizeInference) {
  EXPECT_EQ(detail::computeBatchSize(Dataset::range(10).batch(4, true)), 4);
  EXPECT_EQ(detail::computeBatchSize(Dataset::range(10).batch(4)), 4);
  EXPECT_EQ(detail::computeBatchSize(Dataset::range(10).batch(4).prefetch(2)), 4);
  EXPECT_EQ(detail::computeBatchSize(Dataset::range(10)), -1);
  EXPECT_EQ(detail::computeBatchSize(Dataset::range(10).batch(4).unbatch()), -1);
}

TEST(DatasetTest, BatchSizesForWorker) {
  EXPECT_THAT(batchSizesForWorker(8, 1, 2, 0), ElementsAre(4, 4));
  EXPECT_THAT(batchSizesForWorker(7, 2, 2, 0), ElementsAre(2, 2, 2, 1));
  EXPECT_THAT(batchSizesForWorker(7, 2, 2, 1), ElementsAre(2, 1, 2, 2));
  EXPECT_THAT(batchSizesForWorker(6, 1, 4, 0), ElementsAre(2, 2, 1, 1));
  EXPECT_THAT(batchSizesForWorker(4, 1, 3, 0), ElementsAre(2, 1, 1));
}

TEST(DatasetTest, OptionsMergeAndAutoShardRewrites) {
  Dataset d = Dataset::range(8).batch(4);
  EXPECT_FALSE(d.options().autoShardPolicy.has_value());
  Dataset off = d.withOptions({AutoShardPolicy::Off});
  EXPECT_EQ(off.prefetch(1).options().autoShardPolicy, AutoShardPolicy::Off);
  // DATA over 3 workers keeps every third element (spec §3.7's example uses
  // the legacy rebatch first; here only the shard).
  TORUS_ASSERT_OK_AND_ASSIGN(
      Dataset w1, autoShardDataset(Dataset::range(8), 3, 1, 3));
  EXPECT_EQ(collect(w1), (V{{1}, {4}, {7}}));
  // FILE cannot shard an in-memory source (except with one worker).
  Dataset file = Dataset::range(8).withOptions({AutoShardPolicy::File});
  EXPECT_EQ(autoShardDataset(file, 2, 0, 2).status().code(),
            absl::StatusCode::kNotFound);
  TORUS_ASSERT_OK_AND_ASSIGN(Dataset same,
                             autoShardDataset(file, 1, 0, 1));
  EXPECT_EQ(collect(same).size(), 8u);
  // HINT replaces shard(SHARD_HINT, SHARD_HINT).
  Dataset hint = Dataset::range(8)
                     .shard(kShardHint, kShardHint)
                     .withOptions({AutoShardPolicy::Hint});
  TORUS_ASSERT_OK_AND_ASSIGN(Dataset h, autoShardDataset(hint, 2, 1, 2));
  EXPECT_EQ(collect(h), (V{{1}, {3}, {5}, {7}}));
}

TEST(DatasetTest, AutoShardedShardRequiresEnoughElements) {
  // One element, two workers: worker 0 fails on its first element, worker 1
  // gets nothing (shard_dataset_op.cc's require_non_empty).
  TORUS_ASSERT_OK_AND_ASSIGN(
      Dataset w0, autoShardDataset(Dataset::range(1), 2, 0, 2));
  EXPECT_STATUS(w0.toVector(), absl::StatusCode::kInvalidArgument,
                "Could not apply FILE based sharding: the dataset only has 1 "
                "file(s), which is not enough for the required 2 "
                "shards/workers. If you are using datasets with distribution "
                "strategy, consider setting the auto sharding policy to "
                "either DATA or OFF using the "
                "`experimental_distribute.auto_shard_policy` option of "
                "`tf.data.Options()`.");
  TORUS_ASSERT_OK_AND_ASSIGN(
      Dataset w1, autoShardDataset(Dataset::range(1), 2, 1, 2));
  EXPECT_EQ(collect(w1), V{});
}

TEST(DatasetTest, MapInfersItsSpec) {
  Dataset d = Dataset::range(6).batch(4).map(
      [](const Element &e) -> absl::StatusOr<Element> {
        HostTensor doubled(DType::F32, e[0].shape());
        for (int64_t i = 0; i < e[0].numElements(); ++i)
          doubled.data<float>()[i] = 2.0f * e[0].data<int64_t>()[i];
        return Element{doubled};
      });
  EXPECT_EQ(d.elementSpec()[0].toString(),
            "TensorSpec(shape=(None,), dtype=tf.float32, name=None)");
  TORUS_ASSERT_OK_AND_ASSIGN(auto all, d.toVector());
  EXPECT_EQ(floats(all[1][0]), (std::vector<float>{8, 10}));
}

TEST(DatasetTest, UnbatchAndBatchOfDifferentShapes) {
  EXPECT_EQ(collect(Dataset::range(5).batch(2).unbatch()),
            (V{{0}, {1}, {2}, {3}, {4}}));
  EXPECT_STATUS(Dataset::range(5).batch(2).skip(1).batch(2).toVector(),
                absl::StatusCode::kInvalidArgument,
                "Cannot batch tensors with different shapes in component 0. "
                "First element had shape [2] and element 1 had shape [1].");
}

} // namespace
} // namespace torus::distribute
