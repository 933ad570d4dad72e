//===- ReplicaGroupsTest.cpp - Tests for HLO replica groups ---------------===//

#include "runtime/collectives/ReplicaGroups.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ReplicaGroupsTest, ToString) {
  EXPECT_EQ(replicaGroupsToString({}), "{}");
  EXPECT_EQ(replicaGroupsToString({{0, 1}, {2, 3}}), "{{0,1},{2,3}}");
}

TEST(ReplicaGroupsTest, ValidPartitions) {
  EXPECT_TRUE(validateReplicaGroups({}, 4).ok());
  EXPECT_TRUE(validateReplicaGroups({{0, 1}, {2, 3}}, 4).ok());
  EXPECT_TRUE(validateReplicaGroups({{3, 0}, {2, 1}}, 4).ok());
  EXPECT_TRUE(validateReplicaGroups({{0}, {1, 2, 3}}, 4).ok());
  EXPECT_TRUE(validateReplicaGroups({{0}}, 1).ok());
}

absl::Status invalid(const ReplicaGroups &groups, int64_t n) {
  absl::Status s = validateReplicaGroups(groups, n);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  return s;
}

TEST(ReplicaGroupsTest, InvalidPartitions) {
  EXPECT_THAT(std::string(invalid({{0, 1}, {1, 2, 3}}, 4).message()),
              HasSubstr("replica 1 appears in groups 0 and 1"));
  EXPECT_THAT(std::string(invalid({{0, 0}, {1, 2, 3}}, 4).message()),
              HasSubstr("replica 0 appears twice in group 0"));
  EXPECT_THAT(std::string(invalid({{0, 1}, {2, 4}}, 4).message()),
              HasSubstr("replica id 4 in group 1 is out of range [0, 4)"));
  EXPECT_THAT(std::string(invalid({{0, 1}, {-1}}, 4).message()),
              HasSubstr("replica id -1"));
  EXPECT_THAT(std::string(invalid({{0, 1}}, 4).message()),
              HasSubstr("replicas 2, 3 are in no group"));
  EXPECT_THAT(std::string(invalid({{0, 1, 2}}, 4).message()),
              HasSubstr("replica 3 is in no group"));
  EXPECT_THAT(std::string(invalid({{0, 1}, {}, {2, 3}}, 4).message()),
              HasSubstr("group 1 is empty"));
  EXPECT_THAT(std::string(invalid({{0, 1}, {1, 2, 3}}, 4).message()),
              HasSubstr("invalid replica groups {{0,1},{1,2,3}} for 4 "
                        "replicas"));
  EXPECT_EQ(validateReplicaGroups({}, 0).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ReplicaGroupsTest, ValidatesBeyondTheInlineBitset) {
  // 1124 replicas in two groups, odd and even ids.
  const int64_t n = 1124;
  ReplicaGroups groups(2);
  for (int64_t r = 0; r < n; ++r)
    groups[r % 2].push_back(r);
  EXPECT_TRUE(validateReplicaGroups(groups, n).ok());
  groups[0].push_back(1123);
  EXPECT_THAT(std::string(invalid(groups, n).message()),
              HasSubstr("replica 1123 appears in groups 0 and 1"));
  groups[0].pop_back();
  groups[1].pop_back();
  EXPECT_THAT(std::string(invalid(groups, n).message()),
              HasSubstr("replica 1123 is in no group"));
}

TEST(ReplicaGroupsTest, LocateWithoutCopying) {
  auto all = locateReplica({}, 3, 2);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->groupIndex, 0);
  EXPECT_EQ(all->rank, 2);
  auto sub = locateReplica({{0, 2}, {3, 1}}, 4, 1);
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->groupIndex, 1);
  EXPECT_EQ(sub->rank, 1);
  EXPECT_THAT(std::string(locateReplica({}, 3, -1).status().message()),
              HasSubstr("replica id -1 is out of range [0, 3)"));
  EXPECT_THAT(
      std::string(locateReplica({{0}, {0, 1}}, 2, 1).status().message()),
      HasSubstr("replica 0 appears in groups 0 and 1"));
}

TEST(ReplicaGroupsTest, FindGroup) {
  auto all = findReplicaGroup({}, 3, 2);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->groupIndex, 0);
  EXPECT_THAT(all->members, ElementsAre(0, 1, 2));
  EXPECT_EQ(all->rank, 2);

  auto sub = findReplicaGroup({{0, 2}, {3, 1}}, 4, 1);
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->groupIndex, 1);
  EXPECT_THAT(sub->members, ElementsAre(3, 1));
  EXPECT_EQ(sub->rank, 1);

  EXPECT_EQ(findReplicaGroup({}, 3, 3).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(findReplicaGroup({{0}, {0, 1}}, 2, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

} // namespace
} // namespace torus::rt
