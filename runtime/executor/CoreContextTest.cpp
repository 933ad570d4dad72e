//===- CoreContextTest.cpp - Tests for the per-core runtime context -------===//

#include "runtime/executor/CoreContext.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <thread>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

struct Call {
  CollectiveKey key;
  int64_t replicaId;
  ReplicaGroups groups;
  ReduceKind kind;
  DType dtype;
  int64_t count;
  const void *in;
  void *out;
  absl::Duration timeout;
};

/// Records every collective and answers with `result`.
class FakeCommunicator : public Communicator {
public:
  int64_t numReplicas() const override { return 2; }
  absl::Status allReduce(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, ReduceKind kind,
                         DType dtype, int64_t count, const void *in, void *out,
                         absl::Duration timeout) override {
    calls.push_back(
        {key, replicaId, groups, kind, dtype, count, in, out, timeout});
    return result;
  }
  absl::Status allGather(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, DType dtype,
                         const Shape &shape, int64_t dimension, const void *in,
                         void *out, absl::Duration timeout) override {
    kinds.push_back(fmt::format("all-gather {} dim {}",
                                shapeToString(shape), dimension));
    calls.push_back({key, replicaId, groups, ReduceKind::Sum, dtype,
                     numElements(shape), in, out, timeout});
    return result;
  }
  absl::Status reduceScatter(const CollectiveKey &key, int64_t replicaId,
                             const ReplicaGroups &groups, ReduceKind kind,
                             DType dtype, const Shape &shape,
                             int64_t dimension, const void *in, void *out,
                             absl::Duration timeout) override {
    kinds.push_back(fmt::format("reduce-scatter {} dim {}",
                                shapeToString(shape), dimension));
    calls.push_back({key, replicaId, groups, kind, dtype, numElements(shape),
                     in, out, timeout});
    return result;
  }
  absl::Status allToAll(const CollectiveKey &key, int64_t replicaId,
                        const ReplicaGroups &groups, DType dtype,
                        const Shape &shape, int64_t splitDimension,
                        int64_t concatDimension, int64_t splitCount,
                        const void *in, void *out,
                        absl::Duration timeout) override {
    kinds.push_back(fmt::format("all-to-all {} {} {} {}",
                                shapeToString(shape), splitDimension,
                                concatDimension, splitCount));
    calls.push_back({key, replicaId, groups, ReduceKind::Sum, dtype,
                     numElements(shape), in, out, timeout});
    return result;
  }
  absl::Status collectivePermute(const CollectiveKey &key, int64_t replicaId,
                                 const SourceTargetPairs &pairs, DType dtype,
                                 const Shape &shape, const void *in, void *out,
                                 absl::Duration timeout) override {
    kinds.push_back(fmt::format("permute {} with {} pairs",
                                shapeToString(shape), pairs.size()));
    calls.push_back({key, replicaId, {}, ReduceKind::Sum, dtype,
                     numElements(shape), in, out, timeout});
    return result;
  }
  absl::Status broadcast(const CollectiveKey &, int64_t, const ReplicaGroups &,
                         int64_t, DType, const Shape &, const void *, void *,
                         absl::Duration) override {
    return absl::InternalError("the executor never broadcasts");
  }
  void abort(const absl::Status &) override { aborted = true; }
  bool isAborted() const override { return aborted; }

  std::vector<Call> calls;
  std::vector<std::string> kinds; // non-all-reduce calls, described
  absl::Status result;
  bool aborted = false;
};

ProgramSpec twoCollectives() {
  ProgramSpec spec;
  spec.name = "step";
  spec.numReplicas = 2;
  CollectiveSpec a;
  a.reduce = ReduceKind::Max;
  a.operand = TensorSpec{DType::F64, {3, 5}};
  a.replicaGroups = {{1, 0}};
  a.location = "step.mlir:4:8";
  CollectiveSpec b;
  b.operand = TensorSpec{DType::I32, {}};
  spec.collectives = {a, b};
  return spec;
}

TEST(CoreContextTest, CurrentIsScopedPerThread) {
  ProgramSpec spec;
  FakeCommunicator comm;
  RunState run(0, spec, comm, absl::Seconds(1));
  CoreMemory memory(5);
  CoreContext outer(5, 1, run, memory);
  CoreContext inner(6, 0, run, memory);
  EXPECT_EQ(CoreContext::current(), nullptr);
  {
    CoreContext::Scope a(outer);
    EXPECT_EQ(CoreContext::current(), &outer);
    {
      CoreContext::Scope b(inner);
      EXPECT_EQ(CoreContext::current(), &inner);
    }
    EXPECT_EQ(CoreContext::current(), &outer);
    std::thread([] { EXPECT_EQ(CoreContext::current(), nullptr); }).join();
  }
  EXPECT_EQ(CoreContext::current(), nullptr);
  EXPECT_EQ(outer.coreId(), 5);
  EXPECT_EQ(outer.replicaId(), 1);
  EXPECT_EQ(&outer.memory(), &memory);
}

TEST(CoreContextTest, CollectivesUseTheSpecAndCountInvocations) {
  ProgramSpec spec = twoCollectives();
  FakeCommunicator comm;
  RunState run(/*runId=*/42, spec, comm, absl::Milliseconds(1500));
  CoreMemory memory(3);
  CoreContext context(3, 1, run, memory);
  double in[15], out[15];
  ASSERT_TRUE(context.executeCollective(0, in, out).ok());
  ASSERT_TRUE(context.executeCollective(1, in, out).ok());
  ASSERT_TRUE(context.executeCollective(0, in, out).ok());
  ASSERT_EQ(comm.calls.size(), 3u);
  const Call &first = comm.calls[0];
  EXPECT_EQ(first.key, (CollectiveKey{42, 0, 0}));
  EXPECT_EQ(first.replicaId, 1);
  EXPECT_EQ(first.groups, (ReplicaGroups{{1, 0}}));
  EXPECT_EQ(first.kind, ReduceKind::Max);
  EXPECT_EQ(first.dtype, DType::F64);
  EXPECT_EQ(first.count, 15);
  EXPECT_EQ(first.in, in);
  EXPECT_EQ(first.out, out);
  EXPECT_EQ(first.timeout, absl::Milliseconds(1500));
  EXPECT_EQ(comm.calls[1].key, (CollectiveKey{42, 1, 0}));
  EXPECT_EQ(comm.calls[1].count, 1); // a scalar
  EXPECT_EQ(comm.calls[1].dtype, DType::I32);
  EXPECT_EQ(comm.calls[2].key, (CollectiveKey{42, 0, 1}));
}

TEST(CoreContextTest, ErrorsNameTheCollectiveAndItsLocation) {
  ProgramSpec spec = twoCollectives();
  FakeCommunicator comm;
  comm.result = absl::DeadlineExceededError("peer 0 missing");
  RunState run(0, spec, comm, absl::Seconds(1));
  CoreMemory memory(0);
  CoreContext context(0, 0, run, memory);
  int32_t x = 0;
  absl::Status s = context.executeCollective(0, &x, &x);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(s.message(), "all_reduce #0 at step.mlir:4:8: peer 0 missing");
  s = context.executeCollective(1, &x, &x);
  EXPECT_EQ(s.message(), "all_reduce #1: peer 0 missing");

  s = context.executeCollective(2, &x, &x);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "collective index 2 is out of range: program 'step' "
                         "has 2 collectives");
  EXPECT_EQ(context.executeCollective(-1, &x, &x).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CoreContextTest, FailAbortsTheRunAndLaterCollectivesReturnAtOnce) {
  ProgramSpec spec = twoCollectives();
  FakeCommunicator comm;
  RunState run(0, spec, comm, absl::Seconds(1));
  CoreMemory memory(1);
  CoreContext context(1, 1, run, memory);
  context.fail(absl::InternalError("first"));
  context.fail(absl::InternalError("second"));
  EXPECT_EQ(context.error().message(), "first");
  EXPECT_TRUE(run.isAborted());
  EXPECT_TRUE(comm.aborted);
  EXPECT_EQ(run.status().message(), "core 1 (replica 1): first");

  int32_t x = 0;
  absl::Status s = context.executeCollective(0, &x, &x);
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted);
  EXPECT_THAT(std::string(s.message()), HasSubstr("all_reduce #0"));
  EXPECT_TRUE(comm.calls.empty());
}

TEST(CoreContextTest, EveryKindDispatchesWithItsParameters) {
  ProgramSpec spec;
  spec.name = "kinds";
  spec.numReplicas = 2;
  CollectiveSpec gather;
  gather.kind = CollectiveKind::AllGather;
  gather.operand = TensorSpec{DType::F32, {2, 3}};
  gather.dimension = 1;
  CollectiveSpec scatter;
  scatter.kind = CollectiveKind::ReduceScatter;
  scatter.reduce = ReduceKind::Min;
  scatter.operand = TensorSpec{DType::I32, {4}};
  CollectiveSpec a2a;
  a2a.kind = CollectiveKind::AllToAll;
  a2a.operand = TensorSpec{DType::F64, {4, 2}};
  a2a.splitDimension = 0;
  a2a.concatDimension = 1;
  a2a.splitCount = 2;
  CollectiveSpec permute;
  permute.kind = CollectiveKind::CollectivePermute;
  permute.operand = TensorSpec{DType::I64, {3}};
  permute.sourceTargetPairs = {{0, 1}, {1, 0}};
  spec.collectives = {gather, scatter, a2a, permute};
  FakeCommunicator comm;
  // Replica 1, partition 1 of 2 partitions: participant id 3.
  RunState run(7, spec, comm, absl::Seconds(2), /*numPartitions=*/2);
  CoreMemory memory(9);
  CoreContext context(9, 1, 1, run, memory);
  EXPECT_EQ(context.deviceId(), 3);
  EXPECT_EQ(context.partitionId(), 1);
  char buffer[64];
  for (int64_t i = 0; i < 4; ++i)
    ASSERT_TRUE(context.executeCollective(i, buffer, buffer).ok());
  EXPECT_THAT(comm.kinds,
              ::testing::ElementsAre("all-gather [2,3] dim 1",
                                     "reduce-scatter [4] dim 0",
                                     "all-to-all [4,2] 0 1 2",
                                     "permute [3] with 2 pairs"));
  ASSERT_EQ(comm.calls.size(), 4u);
  EXPECT_EQ(comm.calls[0].replicaId, 3);
  EXPECT_EQ(comm.calls[1].kind, ReduceKind::Min);
  EXPECT_EQ(comm.calls[2].dtype, DType::F64);
  EXPECT_EQ(comm.calls[3].key, (CollectiveKey{7, 3, 0}));
  // Failures name the core, replica and partition.
  context.fail(absl::InternalError("boom"));
  EXPECT_EQ(run.status().message(), "core 9 (replica 1, partition 1): boom");
}

} // namespace
} // namespace torus::rt
