//===- TPUClusterResolverTest.cpp - TPUClusterResolver (spec §11) ---------===//
//
// The list form of TPUClusterResolver(tpu=[...]) and how num_accelerators
// groups a master's TPU devices by host.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using Names = std::vector<std::string>;

TEST(TPUClusterResolverTest, AListOfExactlyOneTpu) {
  EXPECT_STATUS(TPUClusterResolver::create(Names{}),
                absl::StatusCode::kInvalidArgument,
                "At least one TPU must be specified.");
  EXPECT_STATUS(TPUClusterResolver::create(Names{"grpc://10.1.2.3:8470",
                                                 "grpc://10.1.2.4:8470"}),
                absl::StatusCode::kUnimplemented,
                "Using multiple TPUs in a single session is not yet implemented");
  // testNoCallComputeMetadata, with the name in a list.
  TORUS_ASSERT_OK_AND_ASSIGN(auto remote,
                             TPUClusterResolver::create(Names{"grpc://10.1.2.3:8470"}));
  EXPECT_EQ(*remote->master(), "grpc://10.1.2.3:8470");
  TORUS_ASSERT_OK_AND_ASSIGN(ClusterSpec spec, remote->clusterSpec());
  EXPECT_EQ(spec, (ClusterSpec{{"worker", {"10.1.2.3:8470"}}}));
  TORUS_ASSERT_OK_AND_ASSIGN(auto local, TPUClusterResolver::create(Names{"local"}));
  EXPECT_EQ(*local->master(), "");
  EXPECT_TRUE(local->clusterSpec()->empty());
}

TEST(TPUClusterResolverTest, NumAcceleratorsGroupsTheMastersDevicesByHost) {
  TPUClusterResolverOptions pod;
  pod.acceleratorType = "v4-32"; // 4 hosts of 4 cores
  TORUS_ASSERT_OK_AND_ASSIGN(auto remote,
                             TPUClusterResolver::create("grpc://10.1.2.3:8470", pod));
  EXPECT_EQ(*remote->numAccelerators(), (std::map<std::string, int>{{"TPU", 4}}));
  // A directly attached slice counts all of its local TPU devices.
  TORUS_ASSERT_OK_AND_ASSIGN(auto local, TPUClusterResolver::create("local", pod));
  EXPECT_EQ(*local->numAccelerators(), (std::map<std::string, int>{{"TPU", 16}}));
}

TEST(TPUClusterResolverTest, TpuCoresPerHost) {
  const std::string t0 = "/job:worker/replica:0/task:0/device:";
  const std::string t1 = "/job:worker/replica:0/task:1/device:";
  EXPECT_EQ(*tpuCoresPerHost({t0 + "CPU:0", t0 + "TPU:0", t0 + "TPU:1",
                              t0 + "TPU_SYSTEM:0", t1 + "TPU:0", t1 + "TPU:1"}),
            2);
  EXPECT_EQ(*tpuCoresPerHost({t0 + "CPU:0"}), 0);
  EXPECT_STATUS(tpuCoresPerHost({t0 + "TPU:0", t0 + "TPU:1", t1 + "TPU:0"}),
                absl::StatusCode::kFailedPrecondition,
                "TPU cores on each device is not the same. This should never "
                "happen. Devices: defaultdict(<class 'list'>, {'0': ['0', "
                "'1'], '1': ['0']})");
}

} // namespace
} // namespace torus::distribute
