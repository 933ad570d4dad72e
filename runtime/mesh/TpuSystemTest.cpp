//===- TpuSystemTest.cpp - initialize_tpu_system / shutdown_tpu_system ----===//
#include "runtime/mesh/TpuSystem.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/mesh/MeshTestUtil.h"
#include "runtime/mesh/MeshWarnings.h"
#include "runtime/mesh/TpuGeneration.h"

namespace torus::rt {
namespace {

using testing::expectErrorContaining;
using testing::valueOrFail;

// Captures mesh warnings for the lifetime of the object.
class WarningCapture {
public:
  WarningCapture()
      : previous_(setMeshWarningHandler(
            [this](std::string_view m) { warnings.emplace_back(m); })) {}
  ~WarningCapture() { setMeshWarningHandler(previous_); }
  std::vector<std::string> warnings;

private:
  MeshWarningHandler previous_;
};

TPUClusterResolver localResolver(std::string acceleratorType) {
  TPUClusterResolverOptions options;
  options.environment.emplace();
  options.acceleratorType = std::move(acceleratorType);
  return valueOrFail(TPUClusterResolver::create("local", options));
}

// tpu_strategy_test.py::test_multiple_initialize_system.
TEST(TpuSystemTest, InitializeTwiceWarns) {
  WarningCapture capture;
  TPUClusterResolver resolver = localResolver("v3-8");
  Topology topology = valueOrFail(initializeTpuSystem(&resolver));
  EXPECT_EQ(topology, valueOrFail(Topology::fromPreset("v3-8")));
  EXPECT_TRUE(isTpuSystemInitialized("local"));
  EXPECT_TRUE(capture.warnings.empty());
  valueOrFail(initializeTpuSystem(&resolver));
  ASSERT_EQ(capture.warnings.size(), 1u);
  EXPECT_NE(capture.warnings[0].find("has already been initialized"),
            std::string::npos);
  EXPECT_EQ(capture.warnings[0],
            "TPU system local has already been initialized. Reinitializing the "
            "TPU can cause previously created variables on TPU to be lost.");
  EXPECT_TRUE(shutdownTpuSystem(&resolver).ok());
  EXPECT_FALSE(isTpuSystemInitialized("local"));
  EXPECT_TRUE(shutdownTpuSystem(&resolver).ok());
  ASSERT_EQ(capture.warnings.size(), 2u);
  EXPECT_EQ(capture.warnings[1], "You are shutting down a TPU system local "
                                 "that has not been initialized.");
}

TEST(TpuSystemTest, InitializeStoresTheSerializedTopologyOnTheResolver) {
  WarningCapture capture;
  TPUClusterResolver resolver = localResolver("v4-32");
  Topology topology = valueOrFail(initializeTpuSystem(&resolver));
  EXPECT_EQ(topology.numTasks(), 4);
  ASSERT_TRUE(resolver.tpuTopology().has_value());
  EXPECT_EQ(*resolver.tpuTopology(), topology);
  // Topology(serialized=...) of what the resolver stored equals the result.
  EXPECT_EQ(valueOrFail(Topology::fromSerialized(topology.serialized())),
            topology);
  ASSERT_NE(topology.generation(), nullptr);
  EXPECT_EQ(topology.generation()->name, "v4");
  EXPECT_TRUE(shutdownTpuSystem(&resolver).ok());
}

TEST(TpuSystemTest, DefaultResolverIsLocal) {
  WarningCapture capture;
  absl::StatusOr<Topology> topology = initializeTpuSystem();
  // The default resolver reads the process environment; without
  // TORUS_TPU_ACCELERATOR_TYPE it is a v3-8.
  ASSERT_TRUE(topology.ok()) << topology.status();
  EXPECT_TRUE(isTpuSystemInitialized("local"));
  EXPECT_TRUE(shutdownTpuSystem().ok());
}

TEST(TpuSystemTest, RemoteSliceMustMatchTheEndpoints) {
  WarningCapture capture;
  TPUClusterResolverOptions options;
  options.environment.emplace();
  options.acceleratorType = "v3-32";
  TPUClusterResolver two = valueOrFail(TPUClusterResolver::create(
      "grpc://10.0.0.1:8470,grpc://10.0.0.2:8470", options));
  expectErrorContaining(
      initializeTpuSystem(&two).status(), absl::StatusCode::kNotFound,
      "TPUs not found in the cluster. Failed in initialization: the emulated "
      "v3-32 slice has 4 hosts but the cluster lists 2 'worker' tasks");
  EXPECT_FALSE(isTpuSystemInitialized("grpc://10.0.0.1:8470,grpc://10.0.0.2:8470"));

  TPUClusterResolver four = valueOrFail(TPUClusterResolver::create(
      "grpc://10.0.0.1,grpc://10.0.0.2,grpc://10.0.0.3,grpc://10.0.0.4",
      options));
  Topology topology = valueOrFail(initializeTpuSystem(&four));
  EXPECT_EQ(topology.numTasks(), 4);
  EXPECT_TRUE(shutdownTpuSystem(&four).ok());
}

TEST(TpuSystemTest, ConnectInitializes) {
  WarningCapture capture;
  TPUClusterResolver resolver = valueOrFail(TPUClusterResolver::connect("local"));
  EXPECT_TRUE(resolver.tpuTopology().has_value());
  EXPECT_TRUE(isTpuSystemInitialized("local"));
  EXPECT_TRUE(shutdownTpuSystem(&resolver).ok());
}

} // namespace
} // namespace torus::rt
