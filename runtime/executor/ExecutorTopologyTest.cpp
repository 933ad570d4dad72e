//===- ExecutorTopologyTest.cpp - Executors that emulate a TPU slice ------===//

#include "runtime/executor/DeviceAssignmentCores.h"
#include "runtime/executor/Executor.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/mesh/DeviceAssignment.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

Topology preset(std::string_view name) {
  auto topology = Topology::fromPreset(name);
  EXPECT_TRUE(topology.ok()) << topology.status();
  return *topology;
}

TEST(ExecutorTopologyTest, CoresAndCapacityComeFromThePreset) {
  auto v3 = Executor::create(preset("v3-8"));
  ASSERT_TRUE(v3.ok()) << v3.status();
  EXPECT_EQ((*v3)->numCores(), 8);
  EXPECT_EQ((*v3)->coreMemoryCapacity(), size_t{16} << 30);
  EXPECT_EQ((*v3)->coreMemory(7).capacity(), size_t{16} << 30);
  ASSERT_NE((*v3)->topology(), nullptr);
  EXPECT_EQ((*v3)->topology()->name(), "v3-8");
  // TensorFlow's device order: ordinals over chips x-fastest, cores of a
  // chip consecutive.
  EXPECT_THAT(*(*v3)->coreCoordinates(3), ElementsAre(1, 0, 0, 1));
  EXPECT_THAT(*(*v3)->coreCoordinates(4), ElementsAre(0, 1, 0, 0));
  EXPECT_FALSE((*v3)->coreCoordinates(8));

  auto v4 = Executor::create(preset("v4-8"));
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ((*v4)->numCores(), 4);
  EXPECT_EQ((*v4)->coreMemoryCapacity(), size_t{32} << 30);

  ExecutorOptions options;
  options.coreMemoryCapacity = 1 << 20;
  auto small = Executor::create(preset("v4-8"), options);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ((*small)->coreMemory(0).capacity(), size_t{1} << 20);

  auto plain = Executor::create(4);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->topology(), nullptr);
  EXPECT_FALSE((*plain)->coreCoordinates(0));
}

TEST(ExecutorTopologyTest, TooLargeASliceIsRefused) {
  auto topology = Topology::fromMeshString("32x32x2x1");
  ASSERT_TRUE(topology.ok()) << topology.status();
  auto executor = Executor::create(*topology);
  EXPECT_EQ(executor.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(msg(executor.status()),
              HasSubstr("has 2048 TPU devices; an executor emulates at most "
                        "1024 cores"));
}

void bigOutputEntry(void **) { ADD_FAILURE() << "must not run"; }

TEST(ExecutorTopologyTest, ExceedingTheHbmOfACoreNamesIt) {
  // A v3 core has 16 GiB of HBM: a 17 GiB output does not fit. Accounting
  // refuses it before any host memory is touched.
  auto executor = Executor::create(preset("v3-8"));
  ASSERT_TRUE(executor.ok());
  Program p;
  p.spec.name = "too_big";
  p.spec.numReplicas = 8;
  p.spec.inputs = {TensorSpec{DType::F32, {1000}}};
  p.spec.outputs = {TensorSpec{DType::F32, {17, 1024, 1024, 256}}};
  p.entry = &bigOutputEntry;
  std::vector<std::vector<HostTensor>> inputs(8);
  for (auto &args : inputs)
    args.emplace_back(DType::F32, Shape{1000});
  absl::Status s = (*executor)->run(p, inputs).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  ASSERT_THAT(msg(s), StartsWith("core "));
  const std::string c = msg(s).substr(5, 1); // whichever core failed first
  EXPECT_EQ(msg(s),
            fmt::format("core {0} (replica {0}): core {0}: out of device "
                        "memory allocating 17.00 GiB (18253611008 bytes) for "
                        "'replica {0} output 0': capacity 16.00 GiB, in use "
                        "3.94 KiB in 1 buffer; largest live buffers: 'replica "
                        "{0} input 0' 3.94 KiB",
                        c));
}

// out = [replica, partition], then all-reduced (sum) over every device.
void idsEntry(void **buffers) {
  int32_t ids[2] = {__torus_replica_id(), __torus_partition_id()};
  __torus_collective(0, ids, buffers[0]);
  int32_t *out = static_cast<int32_t *>(buffers[1]);
  out[0] = __torus_replica_id();
  out[1] = __torus_partition_id();
}

TEST(ExecutorTopologyTest, RunsAsADeviceAssignmentPlacesIt) {
  // The spec's example: mesh [2,2,1,2], computation_shape [1,1,1,2], four
  // replicas on chips (0,0), (1,0), (1,1), (0,1), two cores each.
  auto topology = std::make_shared<Topology>(preset("v3-8"));
  auto assignment = DeviceAssignment::build(
      topology, std::vector<int64_t>{1, 1, 1, 2}, std::nullopt, 4);
  ASSERT_TRUE(assignment.ok()) << assignment.status();
  auto options = runOptionsForDeviceAssignment(*assignment);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->numPartitions, 2);
  EXPECT_THAT(options->replicaToCore, ElementsAre(0, 1, 2, 3, 6, 7, 4, 5));

  auto executor = Executor::create(*topology);
  ASSERT_TRUE(executor.ok());
  Program p;
  p.spec.name = "ids";
  p.spec.numReplicas = 4;
  p.spec.outputs = {TensorSpec{DType::I32, {2}}, TensorSpec{DType::I32, {2}}};
  CollectiveSpec c;
  c.operand = TensorSpec{DType::I32, {2}};
  p.spec.collectives = {c};
  p.entry = &idsEntry;
  auto result =
      (*executor)->run(p, std::vector<std::vector<HostTensor>>(8), *options);
  ASSERT_TRUE(result.ok()) << result.status();
  for (int64_t d = 0; d < 8; ++d) {
    EXPECT_THAT((*result)[d][0].data<int32_t>(), ElementsAre(12, 4));
    EXPECT_THAT((*result)[d][1].data<int32_t>(),
                ElementsAre(d / 2, d % 2));
  }
}

TEST(ExecutorTopologyTest, ReportsTheSimulatedStepNextToTheMeasuredOne) {
  auto executor = Executor::create(preset("v4-8"));
  ASSERT_TRUE(executor.ok());
  Program p;
  p.spec.name = "ids";
  p.spec.numReplicas = 4;
  p.spec.outputs = {TensorSpec{DType::I32, {2}}, TensorSpec{DType::I32, {2}}};
  CollectiveSpec c;
  c.operand = TensorSpec{DType::I32, {2}};
  p.spec.collectives = {c};
  p.entry = &idsEntry;
  ProgramCounts counts;
  counts.bf16Flops = 1e9;
  RunStats stats;
  RunOptions options;
  options.stats = &stats;
  options.costCounts = &counts;
  options.stepsPerRun = 3;
  ASSERT_TRUE(
      (*executor)->run(p, std::vector<std::vector<HostTensor>>(4), options)
          .ok());
  ASSERT_TRUE(stats.simulated) << stats.simulationStatus;
  EXPECT_EQ(stats.simulated->numDevices, 4);
  EXPECT_EQ(stats.simulated->collectives.size(), 1u);
  EXPECT_GT(stats.simulated->totalSeconds, 1e9 / 275e12);
  std::string report =
      formatStepCost(*stats.simulated, stats.hostTimePerStep());
  EXPECT_THAT(report, HasSubstr("simulated step on v4-8 (4 v4 devices)"));
  EXPECT_THAT(report, HasSubstr("per step on this host"));

  // Without a topology there is nothing to simulate.
  auto plain = Executor::create(4);
  ASSERT_TRUE((*plain)->run(p, std::vector<std::vector<HostTensor>>(4), options)
                  .ok());
  EXPECT_FALSE(stats.simulated);
  EXPECT_THAT(msg(stats.simulationStatus), HasSubstr("not created from a "
                                                     "topology"));
}

} // namespace
} // namespace torus::rt
