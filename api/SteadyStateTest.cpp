//===- SteadyStateTest.cpp - No heap allocation per training step ---------===//
//
// This binary interposes malloc and its family (rt::testing::
// AllocationCounter), counting every call while a counter runs, including
// those of the worker threads and of the generated code (the JIT resolves
// `malloc` to this binary's). A compiled MLP training step is loaded on an
// executor (rt::LoadedProgram) with its parameters carried from step to
// step; after warm-up steps, further steps must not allocate at all: on one
// core, and data-parallel on 2 and 8 cores, whose gradients are all-reduced
// through the in-process communicator every step. The same step compiled
// without the buffer plan allocates its temporaries on every call, which
// shows the hook sees the generated code. Executor::run (not resident)
// allocates per call for its transfers and results, but nothing per step of
// its on-device loop.
//
//===----------------------------------------------------------------------===//

#include "api/ExecutableImpl.h"
#include "api/MlpTrainingStep.h"
#include "runtime/executor/LoadedProgram.h"
#include "runtime/testing/AllocationCounter.h"
#include "torus/Torus.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

using namespace torus;

namespace {

/// The MLP step of api/MlpTrainingStep.h, 784-128-128-10.
TracedFunction mlpStep(int64_t batch, bool allReduceGrads) {
  auto fn = torus::testing::mlpTrainingStep(
      {batch, /*in=*/784, /*hidden=*/128, /*classes=*/10, 0.01f,
       allReduceGrads});
  EXPECT_TRUE(fn.ok()) << fn.status();
  return std::move(*fn);
}

/// The MLP step compiled for `replicas`, or null (a test failure).
std::optional<Executable> compileStep(bool planBuffers, int64_t replicas) {
  CompileOptions options;
  options.numReplicas = replicas;
  options.planBuffers = planBuffers;
  auto exe = compile(mlpStep(16, replicas > 1), options);
  EXPECT_TRUE(exe.ok()) << exe.status();
  if (!exe.ok())
    return std::nullopt;
  return std::move(*exe);
}

/// The parameters (outputs 0..5) become the next step's inputs 0..5.
rt::RunOptions carryingParameters() {
  rt::RunOptions runOptions;
  for (int i = 0; i < 6; ++i)
    runOptions.carried.push_back({i, i});
  return runOptions;
}

/// Allocations during `steps` steady-state steps of the MLP step on
/// `replicas` cores (after two warm-up steps).
int64_t allocationsPerSteps(bool planBuffers, int64_t replicas, int steps,
                            int64_t *workspaceBytes = nullptr,
                            size_t *numCollectives = nullptr) {
  auto exe = compileStep(planBuffers, replicas);
  if (!exe)
    return -1;
  const rt::Program &program = exe->impl().program;
  if (workspaceBytes)
    *workspaceBytes = program.spec.workspaceBytes;
  if (numCollectives)
    *numCollectives = program.spec.collectives.size();
  auto executor = rt::Executor::create(replicas);
  EXPECT_TRUE(executor.ok());
  auto loaded =
      rt::LoadedProgram::load(**executor, program, {}, carryingParameters());
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok())
    return -1;
  EXPECT_TRUE((*loaded)->step(2).ok());
  std::vector<absl::Status> statuses(steps);
  rt::testing::AllocationCounter counter;
  for (int s = 0; s < steps; ++s)
    statuses[s] = (*loaded)->step();
  const int64_t allocations = counter.stop();
  for (const absl::Status &status : statuses)
    EXPECT_TRUE(status.ok()) << status;
  return allocations;
}

// Only sanitizer builds (TSan, ASan: the sanitizer owns malloc, so nothing
// can be interposed) lack the hook; hookInstalled() is decided at compile
// time, so the ordinary build CI runs always counts and never skips.
#define SKIP_WITHOUT_HOOK()                                                    \
  if (!rt::testing::AllocationCounter::hookInstalled())                        \
  GTEST_SKIP() << "malloc is the sanitizer's: nothing to count"

TEST(SteadyStateTest, TheHookSeesAllocations) {
  SKIP_WITHOUT_HOOK();
  rt::testing::AllocationCounter counter;
  void *volatile p = std::malloc(10);
  int *volatile q = new int(3);
  const int64_t seen = counter.stop();
  std::free(p);
  delete q;
  EXPECT_EQ(seen, 2);
}

TEST(SteadyStateTest, PlannedTrainingStepAllocatesNothing) {
  SKIP_WITHOUT_HOOK();
  int64_t workspace = 0;
  EXPECT_EQ(allocationsPerSteps(/*planBuffers=*/true, 1, 20, &workspace), 0);
  EXPECT_GT(workspace, 0);
}

TEST(SteadyStateTest, UnplannedTrainingStepAllocatesPerCall) {
  SKIP_WITHOUT_HOOK();
  // The naive lowering's temporaries come from malloc on every call: the
  // hook sees the generated code.
  EXPECT_GE(allocationsPerSteps(/*planBuffers=*/false, 1, 5), 5);
}

TEST(SteadyStateTest, DataParallelStepAllocatesNothing) {
  SKIP_WITHOUT_HOOK();
  // Every step all-reduces the gradients through the in-process
  // communicator, whose rendezvous are reused from step to step.
  for (int64_t replicas : {2, 8}) {
    SCOPED_TRACE(::testing::Message() << replicas << " replicas");
    size_t collectives = 0;
    EXPECT_EQ(allocationsPerSteps(true, replicas, 20, nullptr, &collectives),
              0);
    EXPECT_GT(collectives, 0u);
  }
}

/// Allocations of one Executor::run of `steps` steps of the MLP step on 8
/// cores, after a warm-up run.
int64_t allocationsPerRun(const rt::Program &program, rt::Executor &executor,
                          int64_t steps) {
  rt::RunOptions runOptions = carryingParameters();
  runOptions.stepsPerRun = steps;
  std::vector<std::vector<HostTensor>> inputs(8);
  for (auto &device : inputs)
    for (const TensorSpec &spec : program.spec.inputs) {
      device.emplace_back(spec);
      std::memset(device.back().rawData(), 0, device.back().sizeInBytes());
    }
  EXPECT_TRUE(executor.run(program, inputs, runOptions).ok());
  rt::testing::AllocationCounter counter;
  auto outputs = executor.run(program, inputs, runOptions);
  const int64_t allocations = counter.stop();
  EXPECT_TRUE(outputs.ok()) << outputs.status();
  return allocations;
}

TEST(SteadyStateTest, RunAllocatesPerCallNotPerStep) {
  SKIP_WITHOUT_HOOK();
  // Executor::run validates, allocates every device buffer in its core's
  // memory and returns new host tensors on every call (docs/codegen.md);
  // the steps of its on-device loop allocate nothing.
  auto exe = compileStep(true, 8);
  ASSERT_TRUE(exe);
  const rt::Program &program = exe->impl().program;
  auto executor = rt::Executor::create(8);
  ASSERT_TRUE(executor.ok());
  const int64_t one = allocationsPerRun(program, **executor, 1);
  const int64_t twenty = allocationsPerRun(program, **executor, 20);
  std::printf("  Executor::run on 8 cores: %lld allocations per call, for 1 "
              "step or 20\n",
              static_cast<long long>(one));
  EXPECT_GT(one, 0);
  EXPECT_EQ(twenty, one);
}

} // namespace
