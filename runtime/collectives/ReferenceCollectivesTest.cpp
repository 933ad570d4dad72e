//===- ReferenceCollectivesTest.cpp - The oracle against hand examples ----===//
//
// The reference implementation is the oracle for every other collective
// test, so it is itself checked here against results worked out by hand
// from HLO's definitions.
//
//===----------------------------------------------------------------------===//

#include "runtime/collectives/ReferenceCollectives.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

namespace torus::rt {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

template <typename T> Bytes bytesOf(const std::vector<T> &values) {
  Bytes b(values.size() * sizeof(T));
  std::memcpy(b.data(), values.data(), b.size());
  return b;
}
template <typename T> std::vector<T> valuesOf(const Bytes &b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

CollectiveOp makeOp(CollectiveOpKind kind, DType dtype, Shape shape) {
  CollectiveOp op;
  op.kind = kind;
  op.dtype = dtype;
  op.shape = std::move(shape);
  return op;
}

TEST(ReferenceCollectivesTest, AllReduceFoldsLeftToRight) {
  CollectiveOp op = makeOp(CollectiveOpKind::AllReduce, DType::F32, {2});
  auto out = referenceCollective(
      op, {}, {bytesOf<float>({1e20f, 1}), bytesOf<float>({1, 2}),
               bytesOf<float>({-1e20f, 3})});
  for (const Bytes &b : out)
    EXPECT_THAT(valuesOf<float>(b), ElementsAre(0.0f, 6.0f));
  op.reduce = ReduceKind::Max;
  op.dtype = DType::I32;
  out = referenceCollective(op, {{0, 2}, {1}},
                            {bytesOf<int32_t>({1, 9}), bytesOf<int32_t>({5, 5}),
                             bytesOf<int32_t>({7, 2})});
  EXPECT_THAT(valuesOf<int32_t>(out[0]), ElementsAre(7, 9));
  EXPECT_THAT(valuesOf<int32_t>(out[1]), ElementsAre(5, 5));
  EXPECT_THAT(valuesOf<int32_t>(out[2]), ElementsAre(7, 9));
}

TEST(ReferenceCollectivesTest, AllGather) {
  // [2,2] along dimension 1 over two members: rows side by side.
  CollectiveOp op = makeOp(CollectiveOpKind::AllGather, DType::I32, {2, 2});
  op.dimension = 1;
  auto out = referenceCollective(
      op, {}, {bytesOf<int32_t>({1, 2, 3, 4}), bytesOf<int32_t>({5, 6, 7, 8})});
  for (const Bytes &b : out)
    EXPECT_THAT(valuesOf<int32_t>(b), ElementsAre(1, 2, 5, 6, 3, 4, 7, 8));
  op.dimension = 0;
  out = referenceCollective(
      op, {{1, 0}},
      {bytesOf<int32_t>({1, 2, 3, 4}), bytesOf<int32_t>({5, 6, 7, 8})});
  // Group order {1, 0}: member 1's operand first.
  EXPECT_THAT(valuesOf<int32_t>(out[0]), ElementsAre(5, 6, 7, 8, 1, 2, 3, 4));
}

TEST(ReferenceCollectivesTest, ReduceScatter) {
  CollectiveOp op = makeOp(CollectiveOpKind::ReduceScatter, DType::I64, {2, 4});
  op.dimension = 1;
  auto out = referenceCollective(
      op, {},
      {bytesOf<int64_t>({1, 2, 3, 4, 5, 6, 7, 8}),
       bytesOf<int64_t>({10, 20, 30, 40, 50, 60, 70, 80})});
  EXPECT_THAT(valuesOf<int64_t>(out[0]), ElementsAre(11, 22, 55, 66));
  EXPECT_THAT(valuesOf<int64_t>(out[1]), ElementsAre(33, 44, 77, 88));
}

TEST(ReferenceCollectivesTest, AllToAll) {
  // Split rows, concatenate columns.
  CollectiveOp op = makeOp(CollectiveOpKind::AllToAll, DType::I32, {2, 2});
  op.splitDimension = 0;
  op.concatDimension = 1;
  op.splitCount = 2;
  auto out = referenceCollective(
      op, {}, {bytesOf<int32_t>({1, 2, 3, 4}), bytesOf<int32_t>({5, 6, 7, 8})});
  EXPECT_THAT(valuesOf<int32_t>(out[0]), ElementsAre(1, 2, 5, 6));
  EXPECT_THAT(valuesOf<int32_t>(out[1]), ElementsAre(3, 4, 7, 8));
  // Split and concatenate along the same dimension: a transpose of blocks.
  op = makeOp(CollectiveOpKind::AllToAll, DType::I32, {4});
  op.splitCount = 2;
  out = referenceCollective(op, {},
                            {bytesOf<int32_t>({0, 1, 2, 3}),
                             bytesOf<int32_t>({4, 5, 6, 7})});
  EXPECT_THAT(valuesOf<int32_t>(out[0]), ElementsAre(0, 1, 4, 5));
  EXPECT_THAT(valuesOf<int32_t>(out[1]), ElementsAre(2, 3, 6, 7));
  // Split columns, concatenate rows, three members.
  op = makeOp(CollectiveOpKind::AllToAll, DType::I32, {1, 3});
  op.splitDimension = 1;
  op.concatDimension = 0;
  op.splitCount = 3;
  out = referenceCollective(op, {},
                            {bytesOf<int32_t>({1, 2, 3}),
                             bytesOf<int32_t>({4, 5, 6}),
                             bytesOf<int32_t>({7, 8, 9})});
  EXPECT_THAT(valuesOf<int32_t>(out[0]), ElementsAre(1, 4, 7));
  EXPECT_THAT(valuesOf<int32_t>(out[1]), ElementsAre(2, 5, 8));
  EXPECT_THAT(valuesOf<int32_t>(out[2]), ElementsAre(3, 6, 9));
}

TEST(ReferenceCollectivesTest, CollectivePermuteZeroesNonTargets) {
  CollectiveOp op =
      makeOp(CollectiveOpKind::CollectivePermute, DType::F64, {2});
  op.pairs = {{0, 1}, {1, 2}};
  auto out = referenceCollective(op, {{0}, {1}, {2}}, // groups are ignored
                                 {bytesOf<double>({1, 2}),
                                  bytesOf<double>({3, 4}),
                                  bytesOf<double>({5, 6})});
  EXPECT_THAT(valuesOf<double>(out[0]), ElementsAre(0, 0));
  EXPECT_THAT(valuesOf<double>(out[1]), ElementsAre(1, 2));
  EXPECT_THAT(valuesOf<double>(out[2]), ElementsAre(3, 4));
}

TEST(ReferenceCollectivesTest, BroadcastFromRankInEachGroup) {
  CollectiveOp op = makeOp(CollectiveOpKind::Broadcast, DType::I32, {1});
  op.root = 1;
  auto out = referenceCollective(
      op, {{3, 0}, {1, 2}},
      {bytesOf<int32_t>({10}), bytesOf<int32_t>({11}), bytesOf<int32_t>({12}),
       bytesOf<int32_t>({13})});
  EXPECT_THAT(valuesOf<int32_t>(out[3]), ElementsAre(10));
  EXPECT_THAT(valuesOf<int32_t>(out[0]), ElementsAre(10));
  EXPECT_THAT(valuesOf<int32_t>(out[1]), ElementsAre(12));
  EXPECT_THAT(valuesOf<int32_t>(out[2]), ElementsAre(12));
}

} // namespace
} // namespace torus::rt
