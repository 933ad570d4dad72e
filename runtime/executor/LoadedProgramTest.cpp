//===- LoadedProgramTest.cpp - Programs resident on their cores -----------===//
//
// A program loaded once and stepped many times: carried outputs feed the
// next step, the workspace is the core's and comes from its memory (and is
// checked against its capacity), a collective works across steps, errors are
// sticky, run() on the same executor in between does not disturb it, and
// the collectives go through ExecutorOptions::wrapCommunicator's
// communicator when there is one (multi-worker jobs: see
// runtime/multiworker/CrossWorkerCommunicatorTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "runtime/executor/LoadedProgram.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/testing/UnimplementedCommunicator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

constexpr int64_t kN = 8;
constexpr int64_t kWorkspace = 256;

// inputs: w f32[8] (carried from output 0), x f32[8]
// outputs: w' = w + all_reduce_sum(x) (through the workspace), count f32[]
void accumulateEntry(void **buffers) {
  const float *w = static_cast<const float *>(buffers[0]);
  const float *x = static_cast<const float *>(buffers[1]);
  float *wOut = static_cast<float *>(buffers[2]);
  float *count = static_cast<float *>(buffers[3]);
  auto *tmp = static_cast<float *>(__torus_workspace(kWorkspace));
  __torus_collective(0, x, tmp);
  for (int64_t i = 0; i < kN; ++i)
    wOut[i] = w[i] + tmp[i];
  *count = static_cast<float>(reinterpret_cast<uintptr_t>(tmp) % 64);
}

Program accumulate(int64_t replicas) {
  Program p;
  p.spec.name = "accumulate";
  p.spec.numReplicas = replicas;
  TensorSpec vec{DType::F32, {kN}};
  p.spec.inputs = {vec, vec};
  p.spec.outputs = {vec, TensorSpec{DType::F32, {}}};
  CollectiveSpec c;
  c.operand = vec;
  c.result = vec;
  p.spec.collectives = {c};
  p.spec.workspaceBytes = kWorkspace;
  p.entry = &accumulateEntry;
  return p;
}

HostTensor vector(float value) {
  return HostTensor::fromVector<float>({kN}, std::vector<float>(kN, value));
}

TEST(LoadedProgramTest, StepsCarryAndReduce) {
  auto executor = Executor::create(2);
  ASSERT_TRUE(executor.ok()) << executor.status();
  RunOptions options;
  options.carried = {{0, 0}};
  auto loaded = LoadedProgram::load(**executor, accumulate(2), {}, options);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  for (int64_t d = 0; d < 2; ++d)
    ASSERT_TRUE((*loaded)->setInput(d, 1, vector(1.0f + d)).ok());
  ASSERT_TRUE((*loaded)->step(3).ok());
  ASSERT_TRUE((*loaded)->step().ok());
  // Workspaces were charged to the cores while the program is loaded.
  EXPECT_GE((*executor)->coreMemory(0).bytesInUse(),
            static_cast<size_t>(kWorkspace));
  // An ordinary run on the same executor in between.
  auto run = (*executor)->run(accumulate(2), {{vector(0), vector(1)},
                                              {vector(0), vector(1)}});
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->at(0).at(0).data<float>()[0], 2.0f);
  ASSERT_TRUE((*loaded)->step().ok());
  HostTensor w = vector(-1), aligned(TensorSpec{DType::F32, {}});
  for (int64_t d = 0; d < 2; ++d) {
    ASSERT_TRUE((*loaded)->copyOutput(d, 0, w).ok());
    EXPECT_EQ(w.data<float>()[kN - 1], 5 * 3.0f) << "device " << d;
    ASSERT_TRUE((*loaded)->copyOutput(d, 1, aligned).ok());
    EXPECT_EQ(aligned.data<float>()[0], 0.0f); // 64-byte aligned workspace
  }
  EXPECT_GE((*loaded)->bytesPerCore(), static_cast<size_t>(kWorkspace));
}

TEST(LoadedProgramTest, WorkspaceOverCapacityIsAClearError) {
  ExecutorOptions options;
  options.numCores = 1;
  options.coreMemoryCapacity = 300; // the buffers fit, the workspace not
  auto executor = Executor::create(options);
  ASSERT_TRUE(executor.ok());
  auto loaded = LoadedProgram::load(**executor, accumulate(1));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(msg(loaded.status()), HasSubstr("workspace"));
}

TEST(LoadedProgramTest, RejectsWhatRunRejects) {
  auto executor = Executor::create(1);
  ASSERT_TRUE(executor.ok());
  auto loaded = LoadedProgram::load(**executor, accumulate(2));
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(msg(loaded.status()), HasSubstr("only 1 core"));
  auto one = LoadedProgram::load(**executor, accumulate(1));
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_FALSE((*one)->step(0).ok());
  HostTensor wrong(TensorSpec{DType::F32, {3}});
  EXPECT_THAT(msg((*one)->setInput(0, 0, wrong)), HasSubstr("expected"));
  EXPECT_FALSE((*one)->copyOutput(0, 5, wrong).ok());
}

/// Forwards to the in-process communicator, counting all-reduces: what a
/// multi-worker job's CrossWorkerCommunicator stands in for.
class CountingCommunicator final : public testing::UnimplementedCommunicator {
public:
  CountingCommunicator(InProcessCommunicator &local, std::atomic<int> &calls)
      : local_(local), calls_(calls) {}
  int64_t numReplicas() const override { return local_.numReplicas(); }
  absl::Status allReduce(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, ReduceKind kind,
                         DType dtype, int64_t count, const void *in, void *out,
                         absl::Duration timeout) override {
    calls_.fetch_add(1);
    return local_.allReduce(key, replicaId, groups, kind, dtype, count, in, out,
                            timeout);
  }
  void abort(const absl::Status &reason) override { local_.abort(reason); }
  bool isAborted() const override { return local_.isAborted(); }

private:
  InProcessCommunicator &local_;
  std::atomic<int> &calls_;
};

TEST(LoadedProgramTest, StepsGoThroughTheWrappedCommunicator) {
  std::atomic<int> calls{0};
  ExecutorOptions options;
  options.numCores = 2;
  options.wrapCommunicator = [&](InProcessCommunicator &local)
      -> absl::StatusOr<std::unique_ptr<Communicator>> {
    return std::make_unique<CountingCommunicator>(local, calls);
  };
  auto executor = Executor::create(options);
  ASSERT_TRUE(executor.ok()) << executor.status();
  auto loaded = LoadedProgram::load(**executor, accumulate(2));
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  for (int64_t d = 0; d < 2; ++d)
    ASSERT_TRUE((*loaded)->setInput(d, 1, vector(1.0f + d)).ok());
  ASSERT_TRUE((*loaded)->step(3).ok());
  // One all-reduce per step on each of the two cores, all through it.
  EXPECT_EQ(calls.load(), 3 * 2);
  HostTensor w = vector(-1);
  ASSERT_TRUE((*loaded)->copyOutput(1, 0, w).ok());
  EXPECT_EQ(w.data<float>()[0], 3.0f); // not carried: one step's 1 + 2
}

TEST(LoadedProgramTest, AWrapperThatFailsFailsTheLoad) {
  ExecutorOptions options;
  options.numCores = 2;
  options.wrapCommunicator = [](InProcessCommunicator &)
      -> absl::StatusOr<std::unique_ptr<Communicator>> {
    return absl::UnavailableError("no peers");
  };
  auto executor = Executor::create(options);
  ASSERT_TRUE(executor.ok());
  EXPECT_EQ(LoadedProgram::load(**executor, accumulate(2)).status().code(),
            absl::StatusCode::kUnavailable);
  // A wrapper that returns nothing is a clear error, not a crash.
  options.wrapCommunicator = [](InProcessCommunicator &)
      -> absl::StatusOr<std::unique_ptr<Communicator>> { return nullptr; };
  auto returnsNothing = Executor::create(options);
  ASSERT_TRUE(returnsNothing.ok());
  EXPECT_THAT(
      msg(LoadedProgram::load(**returnsNothing, accumulate(2)).status()),
      HasSubstr("wrapCommunicator returned no communicator"));
  auto run = (*returnsNothing)
                 ->run(accumulate(2),
                       {{vector(0), vector(1)}, {vector(0), vector(1)}});
  EXPECT_THAT(msg(run.status()),
              HasSubstr("wrapCommunicator returned no communicator"));
}

void failingEntry(void **) { __torus_collective(7, nullptr, nullptr); }

TEST(LoadedProgramTest, AFailedStepIsSticky) {
  auto executor = Executor::create(1);
  ASSERT_TRUE(executor.ok());
  Program p = accumulate(1);
  p.entry = &failingEntry;
  auto loaded = LoadedProgram::load(**executor, p);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  absl::Status first = (*loaded)->step();
  EXPECT_THAT(msg(first), HasSubstr("out of range"));
  EXPECT_EQ((*loaded)->step(), first);
}

TEST(LoadedProgramTest, WorkspaceOutsideARunIsTheThreadsOwn) {
  void *a = __torus_workspace(100);
  void *b = __torus_workspace(50);
  EXPECT_EQ(a, b);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
}

} // namespace
} // namespace torus::rt
