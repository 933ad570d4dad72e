//===- CollectiveOpsTest.cpp - Collectives across emulated replicas -------===//
//
// Each replica r feeds x_r[i, j] = 100 r + 10 i + j, so every element says
// where it came from, and the results are checked against HLO's definitions
// computed here.
//
//===----------------------------------------------------------------------===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

constexpr int kReplicas = 4;

double source(int r, int64_t i, int64_t j) { return 100.0 * r + 10.0 * i + j; }

std::vector<std::vector<HostTensor>> perReplicaInputs(const Shape &shape,
                                                      DType dtype) {
  std::vector<std::vector<HostTensor>> inputs;
  for (int r = 0; r < kReplicas; ++r) {
    std::vector<double> v;
    forEachIndex(shape, [&](auto i) { v.push_back(source(r, i[0], i[1])); });
    inputs.push_back({fromDoubles(dtype, shape, v)});
  }
  return inputs;
}

TEST(CollectiveOpsTest, AllGatherAllReplicasAndGroups) {
  auto out = runReplicas(
      kReplicas,
      [](Tensor x) {
        return std::make_tuple(allGather(x, 0, kReplicas),
                               allGather(x, 1, {{0, 2}, {3, 1}}));
      },
      perReplicaInputs({2, 3}, DType::F32));
  ASSERT_EQ(out.size(), static_cast<size_t>(kReplicas));
  for (int r = 0; r < kReplicas; ++r) {
    std::vector<double> all, grouped;
    for (int q = 0; q < kReplicas; ++q)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
          all.push_back(source(q, i, j));
    std::vector<int> group = (r == 0 || r == 2) ? std::vector<int>{0, 2}
                                                : std::vector<int>{3, 1};
    for (int i = 0; i < 2; ++i)
      for (int q : group) // concatenated in group order along dim 1
        for (int j = 0; j < 3; ++j)
          grouped.push_back(source(q, i, j));
    EXPECT_EQ(out[r][0].shape(), (Shape{8, 3}));
    expectClose(out[r][0], all, 0, 0, "replica " + std::to_string(r));
    EXPECT_EQ(out[r][1].shape(), (Shape{2, 6}));
    expectClose(out[r][1], grouped, 0, 0, "replica " + std::to_string(r));
  }
}

TEST(CollectiveOpsTest, ReduceScatterKeepsTheMembersBlock) {
  auto out = runReplicas(
      kReplicas,
      [](Tensor x) {
        return std::make_tuple(reduceScatter(x, 0, kReplicas),
                               reduceScatter(x, 1, {{1, 0}, {2, 3}},
                                             ReduceOp::Max));
      },
      perReplicaInputs({4, 6}, DType::F64));
  ASSERT_EQ(out.size(), static_cast<size_t>(kReplicas));
  for (int r = 0; r < kReplicas; ++r) {
    std::vector<double> sums, maxes;
    for (int j = 0; j < 6; ++j) { // block r of 4 rows: row r
      double s = 0;
      for (int q = 0; q < kReplicas; ++q)
        s += source(q, r, j);
      sums.push_back(s);
    }
    std::vector<int> group = (r == 0 || r == 1) ? std::vector<int>{1, 0}
                                                : std::vector<int>{2, 3};
    int position = group[0] == r ? 0 : 1;
    for (int i = 0; i < 4; ++i)
      for (int j = position * 3; j < position * 3 + 3; ++j) {
        double m = -kInf;
        for (int q : group)
          m = std::max(m, source(q, i, j));
        maxes.push_back(m);
      }
    EXPECT_EQ(out[r][0].shape(), (Shape{1, 6}));
    expectClose(out[r][0], sums, 0, 0, "replica " + std::to_string(r));
    EXPECT_EQ(out[r][1].shape(), (Shape{4, 3}));
    expectClose(out[r][1], maxes, 0, 0, "replica " + std::to_string(r));
  }
}

TEST(CollectiveOpsTest, AllToAllExchangesBlocks) {
  // Split dim 1 (8 columns) into 4 blocks of 2; receive along dim 0.
  auto out = runReplicas(
      kReplicas, [](Tensor x) { return allToAll(x, 1, 0, kReplicas); },
      perReplicaInputs({3, 8}, DType::I32));
  ASSERT_EQ(out.size(), static_cast<size_t>(kReplicas));
  for (int r = 0; r < kReplicas; ++r) {
    std::vector<double> want;
    for (int q = 0; q < kReplicas; ++q) // block r of every sender q
      for (int i = 0; i < 3; ++i)
        for (int j = 2 * r; j < 2 * r + 2; ++j)
          want.push_back(source(q, i, j));
    EXPECT_EQ(out[r][0].shape(), (Shape{12, 2}));
    expectClose(out[r][0], want, 0, 0, "replica " + std::to_string(r));
  }
}

TEST(CollectiveOpsTest, CollectivePermuteAndIds) {
  auto out = runReplicas(
      kReplicas,
      [](Tensor x) {
        return std::make_tuple(collectivePermute(x, {{0, 1}, {1, 2}, {2, 0}}),
                               replicaId(), partitionId());
      },
      perReplicaInputs({2, 2}, DType::BF16));
  ASSERT_EQ(out.size(), static_cast<size_t>(kReplicas));
  int from[] = {2, 0, 1, -1}; // replica 3 is no target: zeros
  for (int r = 0; r < kReplicas; ++r) {
    std::vector<double> want;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        want.push_back(from[r] < 0 ? 0 : source(from[r], i, j));
    expectClose(out[r][0], roundTo(DType::BF16, want), 0, 0,
                "replica " + std::to_string(r));
    expectClose(out[r][1], {double(r)}, 0);
    expectClose(out[r][2], {0}, 0); // one partition per replica
  }
}

TEST(CollectiveOpsTest, GroupSizeIsCheckedAgainstTheReplicaCount) {
  // Traced for 4 replicas, compiled for 2: the compiler names the problem.
  auto traced = trace("f", {spec(DType::F32, {2})},
                      [](Tensor x) { return allGather(x, 0, 4); });
  ASSERT_TRUE(traced.ok()) << traced.status();
  auto exe = compile(*traced, {.numReplicas = 2});
  ASSERT_FALSE(exe.ok());
  EXPECT_THAT(std::string(exe.status().message()),
              ::testing::HasSubstr("all_gather: dimension 0 is 2 in the "
                                   "operand but 8 in the result"));
  EXPECT_THAT(std::string(exe.status().message()),
              ::testing::HasSubstr("CollectiveOpsTest.cpp"));
}

} // namespace
