//===- CollectiveOpTest.cpp - Tests for collective shape rules ------------===//

#include "runtime/collectives/CollectiveOp.h"
#include "runtime/collectives/IdSet.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

CollectiveOp makeOp(CollectiveOpKind kind, Shape shape,
                    DType dtype = DType::F32) {
  CollectiveOp op;
  op.kind = kind;
  op.shape = std::move(shape);
  op.dtype = dtype;
  return op;
}

TEST(CollectiveOpTest, ResultShapes) {
  CollectiveOp op = makeOp(CollectiveOpKind::AllGather, {2, 3});
  op.dimension = 1;
  EXPECT_THAT(op.resultShape(4), ElementsAre(2, 12));
  EXPECT_EQ(op.resultBytes(4), 2 * 12 * 4);
  op = makeOp(CollectiveOpKind::ReduceScatter, {8, 3});
  EXPECT_THAT(op.resultShape(4), ElementsAre(2, 3));
  op = makeOp(CollectiveOpKind::AllToAll, {8, 3});
  op.splitDimension = 0;
  op.concatDimension = 1;
  op.splitCount = 4;
  EXPECT_THAT(op.resultShape(4), ElementsAre(2, 12));
  op.concatDimension = 0;
  EXPECT_THAT(op.resultShape(4), ElementsAre(8, 3));
  EXPECT_THAT(makeOp(CollectiveOpKind::CollectivePermute, {5}).resultShape(9),
              ElementsAre(5));
}

TEST(CollectiveOpTest, ResultDimensionsAndBytesMatchTheShape) {
  CollectiveOp gather = makeOp(CollectiveOpKind::AllGather, {2, 3, 5});
  gather.dimension = 1;
  CollectiveOp toAll = makeOp(CollectiveOpKind::AllToAll, {8, 3});
  toAll.splitDimension = 0;
  toAll.concatDimension = 1;
  toAll.splitCount = 4;
  for (const CollectiveOp &op :
       {gather, toAll, makeOp(CollectiveOpKind::ReduceScatter, {8, 3}),
        makeOp(CollectiveOpKind::AllReduce, {}),
        makeOp(CollectiveOpKind::Broadcast, {7, 0})}) {
    SCOPED_TRACE(op.describe());
    const Shape shape = op.resultShape(4);
    for (size_t d = 0; d < shape.size(); ++d)
      EXPECT_EQ(op.resultDimension(d, 4), shape[d]) << "dimension " << d;
    EXPECT_EQ(op.resultBytes(4), numElements(shape) * 4);
  }
}

TEST(CollectiveOpTest, ChecksFollowHlo) {
  CollectiveOp op = makeOp(CollectiveOpKind::AllGather, {2, 3});
  op.dimension = 2;
  EXPECT_THAT(msg(op.check(4, 4)),
              HasSubstr("all-gather: all_gather_dim 2 is out of range for an "
                        "operand of rank 2 (f32[2,3])"));
  op = makeOp(CollectiveOpKind::AllGather, {});
  EXPECT_EQ(op.check(2, 2).code(), absl::StatusCode::kInvalidArgument);

  op = makeOp(CollectiveOpKind::ReduceScatter, {6, 3});
  EXPECT_TRUE(op.check(3, 3).ok());
  EXPECT_THAT(msg(op.check(4, 4)),
              HasSubstr("reduce-scatter: dimension 0 of f32[6,3] (size 6) is "
                        "not divisible by the 4 participants"));
  op.dtype = DType::I1;
  EXPECT_EQ(op.check(3, 3).code(), absl::StatusCode::kUnimplemented);

  op = makeOp(CollectiveOpKind::AllToAll, {6, 4});
  op.splitCount = 3;
  op.concatDimension = 1;
  EXPECT_TRUE(op.check(3, 3).ok());
  EXPECT_THAT(msg(op.check(2, 2)),
              HasSubstr("split_count 3 differs from the 2 participants"));
  op.splitDimension = 1;
  EXPECT_THAT(msg(op.check(3, 3)), HasSubstr("is not divisible by split_count"));
  op.concatDimension = -1;
  EXPECT_THAT(msg(op.check(3, 3)), HasSubstr("concat_dimension -1 is out"));

  op = makeOp(CollectiveOpKind::Broadcast, {2});
  op.root = 2;
  EXPECT_THAT(msg(op.check(2, 2)),
              HasSubstr("root rank 2 is outside the replica group of 2"));
  // Data movement works for every type; reductions not for i1.
  EXPECT_TRUE(makeOp(CollectiveOpKind::AllGather, {2}, DType::I1)
                  .check(2, 2)
                  .ok());
  EXPECT_EQ(makeOp(CollectiveOpKind::AllReduce, {2}, DType::I1)
                .check(2, 2)
                .code(),
            absl::StatusCode::kUnimplemented);
}

TEST(CollectiveOpTest, SourceTargetPairs) {
  EXPECT_TRUE(validateSourceTargetPairs({{0, 1}, {1, 0}, {2, 2}}, 3).ok());
  EXPECT_THAT(msg(validateSourceTargetPairs({{0, 1}, {0, 2}}, 3)),
              HasSubstr("replica 0 is the source of two pairs ({0,1} and "
                        "{0,2})"));
  EXPECT_THAT(msg(validateSourceTargetPairs({{0, 2}, {1, 2}}, 3)),
              HasSubstr("replica 2 is the target of two pairs ({0,2} and "
                        "{1,2})"));
  EXPECT_THAT(msg(validateSourceTargetPairs({{0, 3}}, 3)),
              HasSubstr("pair {0,3} names replica 3, outside [0, 3)"));
  // The earlier pair is named even when others come between.
  EXPECT_THAT(msg(validateSourceTargetPairs({{5, 1}, {2, 3}, {4, 1}}, 6)),
              HasSubstr("replica 1 is the target of two pairs ({5,1} and "
                        "{4,1})"));
  // Beyond the ids an IdSet holds inline.
  const int64_t many = IdSet::kInlineIds + 100;
  SourceTargetPairs shift;
  for (int64_t i = 0; i < many; ++i)
    shift.push_back({i, (i + 1) % many});
  EXPECT_TRUE(validateSourceTargetPairs(shift, many).ok());
  shift.push_back({many - 1, 0});
  EXPECT_THAT(msg(validateSourceTargetPairs(shift, many)),
              HasSubstr("replica 1123 is the source of two pairs ({1123,0} "
                        "and {1123,0})"));
}

TEST(CollectiveOpTest, FromSpecAndDescriptions) {
  CollectiveSpec spec;
  spec.kind = CollectiveKind::AllToAll;
  spec.operand = TensorSpec{DType::BF16, {4, 6}};
  spec.splitDimension = 1;
  spec.concatDimension = 0;
  spec.splitCount = 2;
  CollectiveOp op = collectiveOpFromSpec(spec);
  EXPECT_EQ(op.kind, CollectiveOpKind::AllToAll);
  EXPECT_EQ(op.dtype, DType::BF16);
  EXPECT_EQ(op.describe(),
            "bf16[4,6] split along 1 into 2, concatenated along 0");
  spec.kind = CollectiveKind::CollectivePermute;
  spec.sourceTargetPairs = {{0, 1}, {1, 0}};
  EXPECT_EQ(collectiveOpFromSpec(spec).describe(),
            "bf16[4,6] with pairs {{0,1},{1,0}}");
  CollectiveOp ar = makeOp(CollectiveOpKind::AllReduce, {9});
  EXPECT_EQ(ar.describe(), "9 f32 elements with sum");
}

TEST(CollectiveOpTest, FormatIdListElidesLongLists) {
  EXPECT_EQ(formatIdList({0, 1, 2}), "{0,1,2}");
  std::vector<int64_t> ids(256);
  for (int64_t i = 0; i < 256; ++i)
    ids[i] = i;
  EXPECT_EQ(formatIdList(ids),
            "{0,1,2,3,4,5,6,7,8,9,10,11,12,13,...,254,255} (256 ids)");
}

} // namespace
} // namespace torus::rt
