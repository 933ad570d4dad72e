//===- ReportsTest.cpp - Executable::memoryReport and collectiveReport ----===//
//
// The figures are computed by hand from the shapes: f32 is 4 bytes, a ring
// all-reduce over g cores sends 2 (g-1)/g of the operand, a ring all-gather
// (g-1) operands.
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

using namespace torus;
using ::testing::HasSubstr;

namespace {

/// x f32[8,4] (128 B), w f32[4,3] (48 B); results: the all-reduced x w
/// (f32[8,3], 96 B) and x gathered in pairs (f32[16,4], 256 B).
int allReduceLine = 0, allGatherLine = 0;
absl::StatusOr<TracedFunction> traceStep() {
  return trace("step", {{DType::F32, {8, 4}}, {DType::F32, {4, 3}}},
               [](Tensor x, Tensor w) {
                 allReduceLine = __LINE__ + 1;
                 Tensor s = allReduce(matmul(x, w));
                 allGatherLine = __LINE__ + 1;
                 Tensor g = allGather(x, 0, {{0, 1}, {2, 3}});
                 return std::make_tuple(s, g);
               });
}

TEST(ReportsTest, CollectiveReportListsEachCallWithItsBytesAndGroups) {
  auto fn = traceStep();
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = 4});
  ASSERT_TRUE(exe.ok()) << exe.status();
  const CollectiveReport &report = exe->collectiveReport();
  ASSERT_EQ(report.calls.size(), 2u);

  const CollectiveCall &reduce = report.calls[0];
  EXPECT_EQ(reduce.kind, "all_reduce");
  EXPECT_EQ(reduce.reduction, "sum");
  EXPECT_EQ(reduce.operand, (TensorSpec{DType::F32, {8, 3}}));
  EXPECT_EQ(reduce.result, (TensorSpec{DType::F32, {8, 3}}));
  EXPECT_EQ(reduce.operandBytes, 96);
  EXPECT_TRUE(reduce.replicaGroups.empty());
  EXPECT_EQ(reduce.groupSize, 4);
  EXPECT_EQ(reduce.ringBytesPerCore, 144); // 2 * 3 * 96 / 4
  EXPECT_THAT(reduce.location,
              HasSubstr("ReportsTest.cpp:" + std::to_string(allReduceLine)));

  const CollectiveCall &gather = report.calls[1];
  EXPECT_EQ(gather.kind, "all_gather");
  EXPECT_EQ(gather.reduction, "");
  EXPECT_EQ(gather.operand, (TensorSpec{DType::F32, {8, 4}}));
  EXPECT_EQ(gather.result, (TensorSpec{DType::F32, {16, 4}}));
  EXPECT_EQ(gather.operandBytes, 128);
  EXPECT_EQ(gather.replicaGroups,
            (std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(gather.groupSize, 2);
  EXPECT_EQ(gather.ringBytesPerCore, 128); // (2 - 1) * 128
  EXPECT_THAT(gather.location,
              HasSubstr("ReportsTest.cpp:" + std::to_string(allGatherLine)));

  EXPECT_EQ(report.operandBytes(), 96 + 128);
  EXPECT_EQ(report.ringBytesPerCore(), 144 + 128);
}

TEST(ReportsTest, PartitionedAllReduceIsCrossReplicaPerPartition) {
  // Partitioned 2 ways, 2 replicas: an all-reduce without groups is
  // cross-replica, as in HLO: one group per partition, the devices of that
  // partition on each replica (device = replica * 2 + partition).
  auto fn = trace("sum", {{DType::F32, {8}}},
                  [](Tensor x) { return allReduce(x); });
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = 2, .numPartitions = 2});
  ASSERT_TRUE(exe.ok()) << exe.status();
  const CollectiveReport &report = exe->collectiveReport();
  ASSERT_EQ(report.calls.size(), 1u);
  const CollectiveCall &reduce = report.calls[0];
  EXPECT_EQ(reduce.kind, "all_reduce");
  EXPECT_EQ(reduce.replicaGroups,
            (std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(reduce.groupSize, 2);
  EXPECT_EQ(reduce.ringBytesPerCore, 32); // 2 * (2 - 1) * 32 / 2
}

// One fused kernel reads the inputs and writes the output: no temporaries,
// so a core's peak is its inputs and outputs.
TEST(ReportsTest, MemoryReportOfAProgramWithoutTemporaries) {
  auto fn = trace("scale", {{DType::F32, {8, 4}}, {DType::F32, {8, 4}}},
                  [](Tensor x, Tensor y) { return exp(x) * y + 1.0; });
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = 2});
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto memory = exe->memoryReport();
  ASSERT_TRUE(memory.ok()) << memory.status();
  EXPECT_EQ(memory->inputBytes, 2 * 128);
  EXPECT_EQ(memory->outputBytes, 128);
  EXPECT_EQ(memory->workspaceBytes, 0);
  EXPECT_EQ(memory->temporaryPeakBytes, 0);
  EXPECT_EQ(memory->peakBytes, 384);
  EXPECT_EQ(memory->numCores, 2);
  EXPECT_EQ(memory->totalBytes(), 768);
  EXPECT_TRUE(memory->exact);
}

// The collective step: inputs 128 + 48, outputs 96 + 256 bytes per core;
// the peak adds what the program keeps besides them, and the cores are
// the replicas.
TEST(ReportsTest, MemoryReportCountsInputsOutputsAndTemporaries) {
  auto fn = traceStep();
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = 4});
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto memory = exe->memoryReport();
  ASSERT_TRUE(memory.ok()) << memory.status();
  EXPECT_EQ(memory->inputBytes, 176);
  EXPECT_EQ(memory->outputBytes, 352);
  EXPECT_EQ(memory->peakBytes, 176 + 352 + memory->workspaceBytes +
                                   memory->temporaryPeakBytes);
  EXPECT_EQ(memory->numCores, 4);
  EXPECT_EQ(memory->totalBytes(), 4 * memory->peakBytes);
}

// A loaded program keeps its collectives (they are in its metadata) but
// has no memory report, and says so.
TEST(ReportsTest, LoadedProgramHasCollectivesButNoMemoryReport) {
  auto fn = traceStep();
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = 4});
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto dir = std::filesystem::path(::testing::TempDir()) / "reports-test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "step.torus.json").string();
  ASSERT_TRUE(exe->save(path).ok());
  auto loaded = Executable::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->collectiveReport().calls.size(), 2u);
  EXPECT_EQ(loaded->collectiveReport().calls[1].replicaGroups,
            (std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(loaded->collectiveReport().ringBytesPerCore(), 144 + 128);
  auto memory = loaded->memoryReport();
  ASSERT_FALSE(memory.ok());
  EXPECT_EQ(memory.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(memory.status().message()),
              HasSubstr("step.torus.json: a loaded program has no memory "
                        "report"));
}

} // namespace
