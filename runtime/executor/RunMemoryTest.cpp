//===- RunMemoryTest.cpp - Runs that do not fit the host are refused ------===//
//
// The host budget is injected through ExecutorOptions::hostMemoryBytes, so
// the refusals are tested with small sizes: nothing here allocates more than
// a few KiB. Expected sizes are computed by hand from the specs.
//
//===----------------------------------------------------------------------===//

#include "runtime/executor/RunMemory.h"

#include "runtime/executor/Executor.h"
#include "runtime/executor/LoadedProgram.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <limits>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

/// Every core's thread calls the entry: counted atomically.
std::atomic<int> entryCalls{0};
/// out = x (f32[256]).
void copyEntry(void **buffers) {
  ++entryCalls;
  std::memcpy(buffers[1], buffers[0], 256 * sizeof(float));
}

Program copyProgram(int64_t replicas) {
  Program p;
  p.spec.name = "copy";
  p.spec.numReplicas = replicas;
  p.spec.inputs = {TensorSpec{DType::F32, {256}}};   // 1 KiB
  p.spec.outputs = {TensorSpec{DType::F32, {256}}};  // 1 KiB
  p.entry = &copyEntry;
  return p;
}

std::vector<std::vector<HostTensor>> copyInputs(int64_t replicas) {
  std::vector<std::vector<HostTensor>> inputs(replicas);
  for (auto &args : inputs) {
    args.emplace_back(DType::F32, Shape{256});
    std::memset(args.back().rawData(), 0, args.back().sizeInBytes());
  }
  return inputs;
}

std::unique_ptr<Executor> executorWithHost(int64_t cores, size_t hostBytes) {
  ExecutorOptions options;
  options.numCores = cores;
  options.hostMemoryBytes = hostBytes;
  auto executor = Executor::create(options);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return std::move(*executor);
}

TEST(RunMemoryTest, PlansEveryBufferOfEveryDevice) {
  ProgramSpec spec = copyProgram(4).spec;
  spec.inputs.push_back(TensorSpec{DType::F32, {3}}); // 12 B, charged 64
  spec.workspaceBytes = 100;                           // charged 128
  RunMemory run = planRunMemory(spec, 4, /*steps=*/5, {0, 1});
  // Inputs: 1024, then the per-step queue of 5 x 12 = 60 B (charged 64)
  // and the step's buffer (charged 64).
  EXPECT_EQ(run.inputBytes, 1024u + 64 + 64);
  EXPECT_EQ(run.outputBytes, 1024u);
  EXPECT_EQ(run.workspaceBytes, 128u);
  EXPECT_EQ(run.deviceBytesPerCore(), 1024u + 128 + 1024 + 128);
  EXPECT_EQ(run.hostInputBytes, 1024u + 60);
  EXPECT_EQ(run.hostOutputBytes, 1024u);
  EXPECT_EQ(run.hostBytes(false), 4u * (2304 + 1024));
  EXPECT_EQ(run.hostBytes(true), 4u * (2304 + 1024 + 1084));
  // Allocation order: input 0, queue 1, input 1, output, workspace.
  EXPECT_EQ(run.deviceBuffers,
            (std::vector<size_t>{1024, 64, 64, 1024, 128}));
  EXPECT_EQ(run.deviceBytesWithin(1100), 1024u + 64);
}

TEST(RunMemoryTest, HugeShapesSaturateInsteadOfWrapping) {
  ProgramSpec spec;
  spec.name = "huge";
  // 2^40 x 2^40 x 4 bytes wraps around 2^64 to 0 in plain arithmetic.
  spec.inputs = {TensorSpec{DType::F32, {int64_t{1} << 40, int64_t{1} << 40}}};
  RunMemory run = planRunMemory(spec, 8, 1, {});
  EXPECT_EQ(run.deviceBytesPerCore(), std::numeric_limits<size_t>::max());
  absl::Status s = checkCoreCapacity(spec, run, size_t{16} << 30);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_THAT(msg(s), HasSubstr("more than a core's capacity of 16.00 GiB"));
}

TEST(RunMemoryTest, RunRefusesWhatAllCoresTogetherCannotHoldOnTheHost) {
  // Each core needs 2 KiB of device memory and 1 KiB for the host's copy
  // of its output: 4 replicas need 12 KiB; the host has 10 KiB.
  auto executor = executorWithHost(4, 10 << 10);
  entryCalls = 0;
  auto result = executor->run(copyProgram(4), copyInputs(4));
  absl::Status s = result.status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_EQ(msg(s),
            "program 'copy' needs 12.00 KiB (12288 bytes) of host memory "
            "across its 4 emulated cores (2.00 KiB of device memory and "
            "1.00 KiB of host outputs per core), but the host has 10.00 KiB "
            "available (ExecutorOptions::hostMemoryBytes); run fewer "
            "replicas, smaller shapes, or on a bigger host");
  EXPECT_EQ(entryCalls, 0);
  for (int64_t c = 0; c < 4; ++c)
    EXPECT_EQ(executor->coreMemory(c).peakBytesInUse(), 0u) << "core " << c;
  // Three replicas need 9 KiB: they run.
  auto three = executor->run(copyProgram(3), copyInputs(3));
  EXPECT_TRUE(three.ok()) << three.status();
  EXPECT_EQ(entryCalls, 3);
}

/// out = x (f32[65536]).
void copyWideEntry(void **buffers) {
  std::memcpy(buffers[1], buffers[0], 65536 * sizeof(float));
}

TEST(RunMemoryTest, KeptBlocksGoBackToTheHostWhenARunWouldNotFitBeside) {
  // f32[65536] in and out, 256 KiB each: freed after a run, the core keeps
  // both device blocks for the next run of the same sizes.
  Program p;
  p.spec.name = "wide";
  p.spec.inputs = {TensorSpec{DType::F32, {65536}}};
  p.spec.outputs = {TensorSpec{DType::F32, {65536}}};
  p.entry = &copyWideEntry;
  std::vector<std::vector<HostTensor>> inputs(1);
  inputs[0].emplace_back(DType::F32, Shape{65536});
  std::memset(inputs[0][0].rawData(), 0, inputs[0][0].sizeInBytes());
  // 768 KiB per run: 512 KiB on the core, 256 KiB of host output.
  auto executor = executorWithHost(1, 800 << 10);
  ASSERT_TRUE(executor->run(p, inputs).ok());
  EXPECT_EQ(executor->coreMemory(0).cachedBytes(), size_t{512} << 10);
  ASSERT_TRUE(executor->run(p, inputs).ok());
  EXPECT_EQ(executor->coreMemory(0).cachedBytes(), size_t{512} << 10);
  // A run that does not fit is refused, and the kept blocks are given back
  // before the refusal (they are not what made it fail).
  Program twice = p;
  twice.spec.outputs.push_back(TensorSpec{DType::F32, {65536}});
  absl::Status s = executor->checkMemory(twice.spec);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_EQ(executor->coreMemory(0).cachedBytes(), 0u);
}

TEST(RunMemoryTest, CheckBeforeTheInputsExistCountsThem) {
  // With the host inputs yet to be made, 4 replicas need 16 KiB: 12 KiB
  // of host is enough for the run but not for making its inputs first.
  auto executor = executorWithHost(4, 12 << 10);
  Program p = copyProgram(4);
  EXPECT_TRUE(executor->checkMemory(p.spec, {}, /*hostInputsExist=*/true).ok());
  absl::Status s = executor->checkMemory(p.spec, {}, /*hostInputsExist=*/false);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_THAT(msg(s), HasSubstr("needs 16.00 KiB (16384 bytes) of host "
                                "memory across its 4 emulated cores"));
  EXPECT_THAT(msg(s), HasSubstr("1.00 KiB of host inputs"));
}

TEST(RunMemoryTest, CheckMemoryRefusesWhatDoesNotFitACore) {
  ExecutorOptions options;
  options.numCores = 2;
  options.coreMemoryCapacity = 1536;
  auto executor = Executor::create(options);
  ASSERT_TRUE(executor.ok());
  absl::Status s = (*executor)->checkMemory(copyProgram(2).spec);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_EQ(msg(s), "program 'copy' needs 2.00 KiB (2048 bytes) of device "
                    "memory on each core (inputs 1.00 KiB, outputs 1.00 KiB, "
                    "workspace 0 B), more than a core's capacity of 1.50 KiB");
}

TEST(RunMemoryTest, PerStepQueuesCountForTheHost) {
  // 100 steps of a per-step 1 KiB input: 100 KiB queued on each core.
  auto executor = executorWithHost(2, 150 << 10);
  RunOptions options;
  options.stepsPerRun = 100;
  options.perStepInputs = {0};
  absl::Status s = executor->checkMemory(copyProgram(2).spec, options);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  // Per core: the queue (100 KiB), the input and the output buffers and
  // the host's copy of the output (1 KiB each): 2 x 103 KiB.
  EXPECT_THAT(msg(s), HasSubstr("(210944 bytes)"));
}

TEST(RunMemoryTest, LoadedProgramRefusesWhatTheHostCannotHold) {
  auto executor = executorWithHost(4, 10 << 10);
  auto loaded = LoadedProgram::load(*executor, copyProgram(4));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(msg(loaded.status()),
              HasSubstr("of host memory across its 4 emulated cores"));
}

TEST(RunMemoryTest, TheHostHasSomeMemoryAvailable) {
  HostMemory host = availableHostMemory();
  EXPECT_GT(host.availableBytes, 0u);
  EXPECT_NE(host.limit, "unknown"); // /proc/meminfo is readable on Linux
}

} // namespace
} // namespace torus::rt
