//===- CoreContextTest.cpp - Tests for the per-core runtime context -------===//

#include "runtime/executor/CoreContext.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
  void abort(const absl::Status &) override { aborted = true; }
  bool isAborted() const override { return aborted; }

  std::vector<Call> calls;
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

} // namespace
} // namespace torus::rt
