//===- GlobalArraysTest.cpp - Splitting and joining global arrays ---------===//

#include "tools/common/GlobalArrays.h"

#include <gtest/gtest.h>

#include <numeric>

namespace torus::tools {
namespace {

HostTensor iota(const Shape &shape, float start) {
  HostTensor t(DType::F32, shape);
  float *data = static_cast<float *>(t.rawData());
  std::iota(data, data + t.numElements(), start);
  return t;
}

std::vector<float> values(const HostTensor &t) {
  const float *data = static_cast<const float *>(t.rawData());
  return std::vector<float>(data, data + t.numElements());
}

// 2 replicas x 2 partitions: replica r's [4,2] input split by rows goes to
// devices 2r and 2r+1; a replicated one whole to both.
TEST(GlobalArraysTest, SplitsEachReplicasInputsOverItsPartitions) {
  GlobalLayout layout;
  layout.numReplicas = 2;
  layout.numPartitions = 2;
  layout.inputShardings = {"{devices=[2,1]0,1}", ""};
  std::vector<std::vector<HostTensor>> inputs = {
      {iota({4, 2}, 0), iota({3}, 100)}, {iota({4, 2}, 10), iota({3}, 200)}};
  auto devices = splitGlobalInputs(layout, inputs);
  ASSERT_TRUE(devices.ok()) << devices.status();
  ASSERT_EQ(devices->size(), 4u);
  EXPECT_EQ(values((*devices)[0][0]), (std::vector<float>{0, 1, 2, 3}));
  EXPECT_EQ(values((*devices)[1][0]), (std::vector<float>{4, 5, 6, 7}));
  EXPECT_EQ(values((*devices)[2][0]), (std::vector<float>{10, 11, 12, 13}));
  EXPECT_EQ(values((*devices)[3][0]), (std::vector<float>{14, 15, 16, 17}));
  for (int d = 0; d < 4; ++d)
    EXPECT_EQ(values((*devices)[d][1]),
              values(inputs[d / 2][1])) << "device " << d;
}

// Device tiles of a column-split result join into each replica's array;
// the joined array is the inverse of the split.
TEST(GlobalArraysTest, JoinsEachReplicasTilesByTheResultsSharding) {
  GlobalLayout layout;
  layout.numReplicas = 2;
  layout.numPartitions = 2;
  layout.inputShardings = {"{devices=[1,2]1,0}"};
  layout.outputShardings = layout.inputShardings;
  layout.globalOutputs = {TensorSpec{DType::F32, {2, 4}}};
  std::vector<std::vector<HostTensor>> inputs = {{iota({2, 4}, 0)},
                                                 {iota({2, 4}, 50)}};
  auto devices = splitGlobalInputs(layout, inputs);
  ASSERT_TRUE(devices.ok()) << devices.status();
  // Device 0 holds tile 1 (columns 2..3): the tile assignment is 1,0.
  EXPECT_EQ(values((*devices)[0][0]), (std::vector<float>{2, 3, 6, 7}));
  auto joined = joinGlobalOutputs(layout, *devices);
  ASSERT_TRUE(joined.ok()) << joined.status();
  ASSERT_EQ(joined->size(), 2u);
  EXPECT_EQ(values((*joined)[0][0]), values(inputs[0][0]));
  EXPECT_EQ(values((*joined)[1][0]), values(inputs[1][0]));
}

TEST(GlobalArraysTest, ErrorsNameTheArgumentAndSharding) {
  GlobalLayout layout;
  layout.numPartitions = 2;
  layout.inputShardings = {"{devices=[2,1]0,1,2}"};
  auto devices = splitGlobalInputs(layout, {{iota({4, 2}, 0)}});
  ASSERT_FALSE(devices.ok());
  EXPECT_NE(devices.status().message().find(
                "input 0 (sharding {devices=[2,1]0,1,2})"),
            std::string::npos)
      << devices.status();
  auto wrongCount = splitGlobalInputs(layout, {{}, {}});
  EXPECT_FALSE(wrongCount.ok());
}

} // namespace
} // namespace torus::tools
