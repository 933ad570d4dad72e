//===- ShardingTest.cpp - TPUStrategy's logical-device annotations --------===//
//
// The three annotations with TensorFlow's checks, order and error texts
// verbatim (tf_distribute_spec.md §8.7), what they record in the traced
// IR, LogicalDeviceScope, and splitting host tensors into tiles.
//
//===----------------------------------------------------------------------===//

#include "torus/Sharding.h"
#include "torus/Trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus {
namespace {

using ::testing::HasSubstr;

std::string messageOf(const absl::Status &s) { return std::string(s.message()); }

//===--- TensorFlow's checks, verbatim -----------------------------------===//

TEST(ShardingTest, SplitRankErrorIsTensorFlowsText) {
  EXPECT_EQ(messageOf(checkSplitToLogicalDevices({8, 32}, {1, 2, 4}, 8)),
            "Length of `partition_dimensions` must equal to the rank of "
            "`tensor.shape` (2). Received len(partition_dimensions)=3.");
}

TEST(ShardingTest, SplitDivisibilityErrorIsTensorFlowsText) {
  EXPECT_EQ(messageOf(checkSplitToLogicalDevices({8, 30, 32, 3}, {1, 4, 2, 1},
                                                 8)),
            "Tensor shape at `partition_dimensions[1]` must be divisible by "
            "corresponding value specified by `partition_dimensions` (4). "
            "Received: 30.");
}

TEST(ShardingTest, SplitProductErrorKeepsTensorFlowsMissingSpace) {
  // No space after the comma, and the list in Python's repr.
  EXPECT_EQ(messageOf(checkSplitToLogicalDevices({8, 32, 32, 3},
                                                 {1, 2, 2, 1}, 8)),
            "The product of `partition_dimensions` should be the same as the "
            "number of logical devices (=8). Received "
            "`partition_dimensions`=[1, 2, 2, 1],and their product is 4.");
}

TEST(ShardingTest, SplitChecksRunInTensorFlowsOrder) {
  // Wrong rank, indivisible and wrong product at once: rank first.
  EXPECT_THAT(messageOf(checkSplitToLogicalDevices({7}, {2, 2}, 8)),
              HasSubstr("Length of `partition_dimensions`"));
  // Indivisible and wrong product: divisibility first, first failing dim.
  EXPECT_THAT(messageOf(checkSplitToLogicalDevices({6, 7, 5}, {1, 2, 2}, 8)),
              HasSubstr("`partition_dimensions[1]`"));
  // A split of 0 fails as Python's `%` does.
  EXPECT_EQ(messageOf(checkSplitToLogicalDevices({6, 8}, {0, 8}, 8)),
            "integer modulo by zero");
  EXPECT_TRUE(checkSplitToLogicalDevices({8, 32, 32, 3}, {1, 2, 4, 1}, 8).ok());
}

TEST(ShardingTest, AssignErrorsAreTensorFlowsTexts) {
  EXPECT_EQ(messageOf(checkAssignToLogicalDevice(2, 2)),
            "`logical_core_id` to assign must be lower then total number of "
            "logical devices per replica. Received logical device id 2 but "
            "there are only total of 2 logical devices in replica.");
  EXPECT_EQ(messageOf(checkAssignToLogicalDevice(-1, 4)),
            "`logical_core_id` to assign must be lower then total number of "
            "logical devices per replica. Received logical device id -1 but "
            "there are only total of 4 logical devices in replica.");
  // SPMD mode is checked first.
  EXPECT_EQ(messageOf(checkAssignToLogicalDevice(7, 2, true)),
            "Cannot assign a tensor to a logical device in SPMD mode. To "
            "disable SPMD, Please construct the TPUStrategy with "
            "`experimental_spmd_xla_partitioning=False`");
  EXPECT_TRUE(checkAssignToLogicalDevice(1, 2).ok());
}

//===--- Inside a trace -------------------------------------------------===//

TEST(ShardingTest, ScopesNestAndRestore) {
  EXPECT_EQ(logicalDevicesPerReplica(), 1);
  {
    LogicalDeviceScope outer(8);
    EXPECT_EQ(logicalDevicesPerReplica(), 8);
    {
      LogicalDeviceScope inner(2);
      EXPECT_EQ(logicalDevicesPerReplica(), 2);
    }
    EXPECT_EQ(logicalDevicesPerReplica(), 8);
  }
  EXPECT_EQ(logicalDevicesPerReplica(), 1);
}

TEST(ShardingTest, TracedSplitErrorsAreTheTraceError) {
  LogicalDeviceScope scope(8);
  auto fn = trace("step", {{DType::F32, {8, 32, 32, 3}}}, [](Tensor image) {
    return splitToLogicalDevices(image, {1, 2, 2, 1});
  });
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(messageOf(fn.status()),
              HasSubstr("split_to_logical_devices: The product of "
                        "`partition_dimensions` should be the same as the "
                        "number of logical devices (=8). Received "
                        "`partition_dimensions`=[1, 2, 2, 1],and their "
                        "product is 4."));
  EXPECT_THAT(messageOf(fn.status()), HasSubstr("ShardingTest.cpp"));
}

TEST(ShardingTest, TracedAssignErrorsAreTheTraceError) {
  {
    LogicalDeviceScope scope(2);
    auto fn = trace("step", {{DType::F32, {4}}}, [](Tensor x) {
      return assignToLogicalDevice(exp(x), 3);
    });
    ASSERT_FALSE(fn.ok());
    EXPECT_THAT(messageOf(fn.status()),
                HasSubstr("Received logical device id 3 but there are only "
                          "total of 2 logical devices in replica."));
  }
  {
    LogicalDeviceScope scope(2, /*xlaSpmdPartitioning=*/true);
    auto fn = trace("step", {{DType::F32, {4}}}, [](Tensor x) {
      return assignToLogicalDevice(x, 0);
    });
    ASSERT_FALSE(fn.ok());
    EXPECT_THAT(messageOf(fn.status()),
                HasSubstr("Cannot assign a tensor to a logical device in "
                          "SPMD mode."));
  }
}

TEST(ShardingTest, AnnotationsBecomeShardingsInTheIR) {
  LogicalDeviceScope scope(8);
  auto fn = trace("step", {{DType::F32, {8, 32, 32, 3}}, {DType::F32, {4}}},
                  [](Tensor image, Tensor v) {
                    // On an argument: its torus.sharding.
                    image = splitToLogicalDevices(image, {1, 2, 4, 1});
                    // Elsewhere: a sharding_constraint.
                    Tensor a = assignToLogicalDevice(exp(v), 3);
                    Tensor r = replicateToLogicalDevices(a * 2);
                    Tensor t = withSharding(
                        r, "{devices=[2,4]<=[8] last_tile_dim_replicate}");
                    return std::vector<Tensor>{image, t};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  std::string ir = fn->toString();
  EXPECT_THAT(ir, HasSubstr("torus.num_partitions = 8"));
  EXPECT_THAT(ir, HasSubstr("tensor<8x32x32x3xf32> {torus.sharding = "
                            "#torus.sharding<\"{devices=[1,2,4,1]<=[8]}\">}"));
  EXPECT_THAT(ir, HasSubstr("sharding = {maximal device=3}"));
  EXPECT_THAT(ir, HasSubstr("sharding = {replicated}"));
  EXPECT_THAT(ir, HasSubstr(
                      "sharding = {devices=[2,4]<=[8] last_tile_dim_replicate}"));
}

TEST(ShardingTest, ValuesAreUnchanged) {
  LogicalDeviceScope scope(2);
  auto fn = trace("step", {{DType::F32, {4, 2}}}, [](Tensor x) {
    Tensor y = splitToLogicalDevices(x * 3, {2, 1});
    EXPECT_EQ(y.shape(), (Shape{4, 2}));
    EXPECT_EQ(y.dtype(), DType::F32);
    return y;
  });
  ASSERT_TRUE(fn.ok()) << fn.status();
}

//===--- Host tensors ---------------------------------------------------===//

HostTensor iotaTensor(const Shape &shape) {
  std::vector<float> v(numElements(shape));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(i);
  return HostTensor::fromVector(shape, v);
}

TEST(ShardingTest, SplitTilesFollowTensorFlowsDeviceOrder) {
  // [1,2,4,1] on 8 devices: device k holds width half k / 4 and height
  // quarter k % 4, each of shape [B, W/2, H/4, C].
  Shape shape{1, 4, 8, 1};
  HostTensor full = iotaTensor(shape);
  for (int64_t k = 0; k < 8; ++k) {
    auto tile = shardForPartition(full, "{devices=[1,2,4,1]<=[8]}", k, 8);
    ASSERT_TRUE(tile.ok()) << tile.status();
    EXPECT_EQ(tile->shape(), (Shape{1, 2, 2, 1}));
    auto v = tile->toVector<float>();
    float first = static_cast<float>((k / 4) * 2 * 8 + (k % 4) * 2);
    EXPECT_EQ(v[0], first) << "device " << k;
    EXPECT_EQ(v[3], first + 8 + 1) << "device " << k;
  }
}

TEST(ShardingTest, UnevenTilesArePaddedAndUnshardedBack) {
  // TensorFlow's infeed example shape (5, 14) split (2, 4): tiles of 3x4,
  // the last ones padded with zeros.
  Shape shape{5, 14};
  HostTensor full = iotaTensor(shape);
  std::vector<HostTensor> tiles;
  for (int64_t p = 0; p < 8; ++p) {
    auto tile = shardForPartition(full, "{devices=[2,4]<=[8]}", p, 8);
    ASSERT_TRUE(tile.ok()) << tile.status();
    EXPECT_EQ(tile->shape(), (Shape{3, 4}));
    tiles.push_back(*tile);
  }
  auto last = tiles[7].toVector<float>();
  EXPECT_EQ(last[0], 3 * 14 + 12);
  EXPECT_EQ(last[2], 0); // Column 14 does not exist: padding.
  EXPECT_EQ(last[8], 0); // Row 5 does not exist.
  auto back = unshard(tiles, "{devices=[2,4]<=[8]}", shape);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->toVector<float>(), full.toVector<float>());
}

TEST(ShardingTest, ReplicatedAndMaximalHostTensors) {
  HostTensor full = iotaTensor({4});
  auto rep = shardForPartition(full, "{replicated}", 1, 2);
  ASSERT_TRUE(rep.ok());
  EXPECT_EQ(rep->toVector<float>(), full.toVector<float>());
  auto rtile = shardForPartition(
      full, "{devices=[2,2]0,1,2,3 last_tile_dim_replicate}", 3, 4);
  ASSERT_TRUE(rtile.ok()) << rtile.status();
  EXPECT_EQ(rtile->toVector<float>(), (std::vector<float>{2, 3}));
  auto owner = unshard({HostTensor::fromVector<float>({4}, {0, 0, 0, 0}), full},
                       "{maximal device=1}", {4});
  ASSERT_TRUE(owner.ok());
  EXPECT_EQ(owner->toVector<float>(), full.toVector<float>());
  EXPECT_FALSE(shardForPartition(full, "{devices=[2]0,1", 0, 2).ok());
  EXPECT_FALSE(shardForPartition(full, "{devices=[2,1]0,1}", 0, 2).ok());
}

} // namespace
} // namespace torus
