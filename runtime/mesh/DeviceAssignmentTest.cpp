//===- DeviceAssignmentTest.cpp - TensorFlow's DeviceAssignment -----------===//
//
// Expected assignments were computed by running TensorFlow's
// device_assignment() (tensorflow/python/tpu/device_assignment.py, transcribed
// with numpy) on the same topologies; error texts are TensorFlow's verbatim
// (spec §10).
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/DeviceAssignment.h"

#include <set>

#include "gtest/gtest.h"
#include "runtime/mesh/MeshTestUtil.h"
#include "runtime/mesh/MeshWarnings.h"

namespace torus::rt {
namespace {

using testing::expectError;
using testing::expectErrorContaining;
using testing::valueOrFail;
using Assignment = std::vector<std::vector<Coordinates>>;
using Shape = std::vector<int64_t>;

std::shared_ptr<const Topology> mesh2212() {
  return std::make_shared<const Topology>(
      valueOrFail(Topology::fromMeshString("2x2x1x2")));
}

std::shared_ptr<const Topology> preset(std::string_view name) {
  return std::make_shared<const Topology>(valueOrFail(Topology::fromPreset(name)));
}

// The spec's worked example: 4 replicas of two cores (one chip each) on
// [2,2,1,2] take the ring path and sit on chips (0,0), (1,0), (1,1), (0,1).
TEST(DeviceAssignmentTest, RingPathPlacesReplicasAroundTheChips) {
  DeviceAssignment da = valueOrFail(
      DeviceAssignment::build(mesh2212(), Shape{1, 1, 1, 2}, std::nullopt, 4));
  EXPECT_EQ(da.numReplicas(), 4);
  EXPECT_EQ(da.numCoresPerReplica(), 2);
  EXPECT_EQ(da.coreAssignment(),
            (Assignment{{{0, 0, 0, 0}, {0, 0, 0, 1}},
                        {{1, 0, 0, 0}, {1, 0, 0, 1}},
                        {{1, 1, 0, 0}, {1, 1, 0, 1}},
                        {{0, 1, 0, 0}, {0, 1, 0, 1}}}));
  // The same request in MESH mode walks the chips in raster order instead.
  DeviceAssignment mesh = valueOrFail(DeviceAssignment::build(
      mesh2212(), Shape{1, 1, 1, 2}, std::nullopt, 4, DeviceOrderMode::Mesh));
  EXPECT_EQ(mesh.coreAssignment(),
            (Assignment{{{0, 0, 0, 0}, {0, 0, 0, 1}},
                        {{1, 0, 0, 0}, {1, 0, 0, 1}},
                        {{0, 1, 0, 0}, {0, 1, 0, 1}},
                        {{1, 1, 0, 0}, {1, 1, 0, 1}}}));
  // RING forced where the conditions hold gives the ring.
  DeviceAssignment ring = valueOrFail(DeviceAssignment::build(
      mesh2212(), Shape{1, 1, 1, 2}, std::nullopt, 4, DeviceOrderMode::Ring));
  EXPECT_EQ(ring.coreAssignment(), da.coreAssignment());
}

// The spec's second worked example: default shape, 8 replicas, mesh path
// with replica_shape [2,2,1,2]: replica r at (r//2 % 2, r//4, 0, r % 2).
TEST(DeviceAssignmentTest, MeshPathVisitsTheCoreAxisFirst) {
  DeviceAssignment da = valueOrFail(
      DeviceAssignment::build(mesh2212(), std::nullopt, std::nullopt, 8));
  ASSERT_EQ(da.numReplicas(), 8);
  EXPECT_EQ(da.numCoresPerReplica(), 1);
  for (int r = 0; r < 8; ++r)
    EXPECT_EQ(da.coreAssignment()[r][0],
              (Coordinates{r / 2 % 2, r / 4, 0, r % 2}))
        << "replica " << r;
}

TEST(DeviceAssignmentTest, MatchesTensorFlowOnMoreLayouts) {
  struct Case {
    std::string name;
    std::shared_ptr<const Topology> topology;
    DeviceAssignment::OptionalShape shape, stride;
    int64_t replicas;
    Assignment expected;
  };
  std::vector<Case> cases = {
      {"3 replicas (mesh path, partial)", mesh2212(), std::nullopt,
       std::nullopt, 3, {{{0, 0, 0, 0}}, {{0, 0, 0, 1}}, {{1, 0, 0, 0}}}},
      {"stride 2 along x", mesh2212(), std::nullopt, Shape{2, 1, 1, 1}, 4,
       {{{0, 0, 0, 0}}, {{0, 0, 0, 1}}, {{1, 0, 0, 0}}, {{1, 0, 0, 1}}}},
      {"2 replicas of 2 chips (ring)", mesh2212(), Shape{2, 1, 1, 2},
       std::nullopt, 2,
       {{{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}, {1, 0, 0, 1}},
        {{0, 1, 0, 0}, {0, 1, 0, 1}, {1, 1, 0, 0}, {1, 1, 0, 1}}}},
      {"v3-32 model parallel 2x2 chips", preset("v3-32"), Shape{2, 2, 1, 2},
       std::nullopt, 4,
       {{{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}, {1, 0, 0, 1},
         {1, 1, 0, 0}, {1, 1, 0, 1}, {0, 1, 0, 0}, {0, 1, 0, 1}},
        {{2, 0, 0, 0}, {2, 0, 0, 1}, {3, 0, 0, 0}, {3, 0, 0, 1},
         {3, 1, 0, 0}, {3, 1, 0, 1}, {2, 1, 0, 0}, {2, 1, 0, 1}},
        {{2, 2, 0, 0}, {2, 2, 0, 1}, {3, 2, 0, 0}, {3, 2, 0, 1},
         {3, 3, 0, 0}, {3, 3, 0, 1}, {2, 3, 0, 0}, {2, 3, 0, 1}},
        {{0, 2, 0, 0}, {0, 2, 0, 1}, {1, 2, 0, 0}, {1, 2, 0, 1},
         {1, 3, 0, 0}, {1, 3, 0, 1}, {0, 3, 0, 0}, {0, 3, 0, 1}}}},
      {"v3-32 shape and stride (mesh path)", preset("v3-32"), Shape{1, 2, 1, 1},
       Shape{1, 2, 1, 1}, 6,
       {{{0, 0, 0, 0}, {0, 2, 0, 0}},
        {{0, 0, 0, 1}, {0, 2, 0, 1}},
        {{1, 0, 0, 0}, {1, 2, 0, 0}},
        {{1, 0, 0, 1}, {1, 2, 0, 1}},
        {{0, 1, 0, 0}, {0, 3, 0, 0}},
        {{0, 1, 0, 1}, {0, 3, 0, 1}}}},
      {"v4-32 ring over 2x2x4", preset("v4-32"), std::nullopt, std::nullopt,
       16,
       {{{0, 0, 0, 0}}, {{1, 0, 0, 0}}, {{1, 1, 0, 0}}, {{0, 1, 0, 0}},
        {{0, 1, 1, 0}}, {{1, 1, 1, 0}}, {{1, 0, 1, 0}}, {{1, 0, 2, 0}},
        {{1, 1, 2, 0}}, {{0, 1, 2, 0}}, {{0, 1, 3, 0}}, {{1, 1, 3, 0}},
        {{1, 0, 3, 0}}, {{0, 0, 3, 0}}, {{0, 0, 2, 0}}, {{0, 0, 1, 0}}}},
      {"v4-32 4 replicas (mesh path)", preset("v4-32"), std::nullopt,
       std::nullopt, 4,
       {{{0, 0, 0, 0}}, {{1, 0, 0, 0}}, {{0, 1, 0, 0}}, {{1, 1, 0, 0}}}},
      {"odd 3x2 mesh (raster ring)",
       std::make_shared<const Topology>(
           valueOrFail(Topology::fromMeshString("3x2x1x1"))),
       std::nullopt, std::nullopt, 6,
       {{{0, 0, 0, 0}}, {{1, 0, 0, 0}}, {{2, 0, 0, 0}}, {{0, 1, 0, 0}},
        {{1, 1, 0, 0}}, {{2, 1, 0, 0}}}},
  };
  // The odd mesh warns "Odd dimension" (RingOrderTest checks it).
  MeshWarningHandler previous = setMeshWarningHandler([](std::string_view) {});
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    DeviceAssignment da = valueOrFail(
        DeviceAssignment::build(c.topology, c.shape, c.stride, c.replicas));
    EXPECT_EQ(da.coreAssignment(), c.expected);
  }
  setMeshWarningHandler(previous);
}

TEST(DeviceAssignmentTest, V3_32RingOfSixteenChips) {
  DeviceAssignment da = valueOrFail(DeviceAssignment::build(
      preset("v3-32"), Shape{1, 1, 1, 2}, std::nullopt, 16));
  std::vector<std::array<int32_t, 2>> chips = {
      {0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {2, 1}, {1, 1}, {1, 2},
      {2, 2}, {3, 2}, {3, 3}, {2, 3}, {1, 3}, {0, 3}, {0, 2}, {0, 1}};
  for (int r = 0; r < 16; ++r) {
    EXPECT_EQ(da.coreAssignment()[r][0],
              (Coordinates{chips[r][0], chips[r][1], 0, 0}));
    EXPECT_EQ(da.coreAssignment()[r][1],
              (Coordinates{chips[r][0], chips[r][1], 0, 1}));
  }
  // Replicas on task 0 (chips x<2, y<2), for logical core 0.
  EXPECT_EQ(valueOrFail(da.lookupReplicas(0, 0)), (std::vector<int>{0, 1, 6, 15}));
}

TEST(DeviceAssignmentTest, LargeSliceRingCoversEveryCoreOnce) {
  // v4-2048 (8x8x16 chips), 256 replicas of 2x2 chips: TensorFlow's ring.
  DeviceAssignment da = valueOrFail(DeviceAssignment::build(
      preset("v4-2048"), Shape{2, 2, 1, 1}, std::nullopt, 256));
  ASSERT_EQ(da.numReplicas(), 256);
  EXPECT_EQ(da.coreAssignment()[0],
            (std::vector<Coordinates>{{0, 0, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0},
                                      {0, 1, 0, 0}}));
  EXPECT_EQ(da.coreAssignment()[4],
            (std::vector<Coordinates>{{6, 2, 0, 0}, {7, 2, 0, 0}, {7, 3, 0, 0},
                                      {6, 3, 0, 0}}));
  EXPECT_EQ(da.coreAssignment()[16],
            (std::vector<Coordinates>{{0, 2, 1, 0}, {1, 2, 1, 0}, {1, 3, 1, 0},
                                      {0, 3, 1, 0}}));
  std::set<Coordinates> used;
  for (const auto &replica : da.coreAssignment())
    for (const Coordinates &c : replica)
      EXPECT_TRUE(used.insert(c).second);
  EXPECT_EQ(used.size(), 1024u);
}

TEST(DeviceAssignmentTest, ZeroReplicasIsAnEmptyAssignment) {
  DeviceAssignment da = valueOrFail(
      DeviceAssignment::build(mesh2212(), std::nullopt, std::nullopt, 0));
  EXPECT_EQ(da.numReplicas(), 0);
  EXPECT_EQ(da.numCoresPerReplica(), 1);
}

TEST(DeviceAssignmentTest, DegradedSliceAssignsInTaskOrder) {
  // Three tasks of one chip each; chip (1, 1) is missing.
  auto topology = std::make_shared<const Topology>(valueOrFail(Topology::create(
      {2, 2, 1, 2}, {{{0, 0, 0, 0}, {0, 0, 0, 1}},
                     {{1, 0, 0, 0}, {1, 0, 0, 1}},
                     {{0, 1, 0, 0}, {0, 1, 0, 1}}})));
  ASSERT_EQ(topology->missingDevices().size(), 2u);
  DeviceAssignment da = valueOrFail(
      DeviceAssignment::build(topology, Shape{1, 1, 1, 2}, std::nullopt, 3));
  EXPECT_EQ(da.coreAssignment(),
            (Assignment{{{0, 0, 0, 0}, {0, 0, 0, 1}},
                        {{1, 0, 0, 0}, {1, 0, 0, 1}},
                        {{0, 1, 0, 0}, {0, 1, 0, 1}}}));
  EXPECT_EQ(valueOrFail(da.tpuDevice(2, 1)), "/task:2/device:TPU:1");
  // TensorFlow asserts here.
  expectErrorContaining(
      DeviceAssignment::build(topology, std::nullopt, Shape{2, 1, 1, 1}, 1)
          .status(),
      absl::StatusCode::kFailedPrecondition,
      "this topology has 2 missing devices (a degraded slice)");
  expectError(
      DeviceAssignment::build(topology, std::nullopt, std::nullopt, 7).status(),
      absl::StatusCode::kFailedPrecondition,
      "this degraded slice has 6 TPU devices but 7 replicas of 1 cores need 7");
  // Zero replicas go through the constructor with [], whose numpy shape is
  // (0,), as in TensorFlow.
  expectError(
      DeviceAssignment::build(topology, std::nullopt, std::nullopt, 0).status(),
      absl::StatusCode::kInvalidArgument,
      "core_assignment must be a rank 3 numpy array, got shape (0,)");
}

// tpu_strategy_test.py::test_core_assignment.
TEST(DeviceAssignmentTest, SingleCoreAssignment) {
  DeviceAssignment da = valueOrFail(DeviceAssignment::create(
      valueOrFail(Topology::fromPreset("v3-8")),
      DeviceAssignment::singleCoreAssignment()));
  EXPECT_EQ(da.numReplicas(), 1);
  EXPECT_EQ(da.numCoresPerReplica(), 1);
  EXPECT_EQ(valueOrFail(da.tpuDevice()), "/task:0/device:TPU:0");
  EXPECT_EQ(valueOrFail(da.hostDevice()), "/task:0/device:CPU:0");
  EXPECT_EQ(valueOrFail(da.tpuOrdinal()), 0);
  EXPECT_EQ(valueOrFail(da.coordinates(0, 0)), (Coordinates{0, 0, 0, 0}));
}

// tpu_strategy_test.py::test_variables_mismatched_device_assignment: core
// assignment [[[0,0,0,1]], [[0,0,0,0]]] on two cores swaps the devices.
TEST(DeviceAssignmentTest, SwappedCoresSwapDevices) {
  auto topology = std::make_shared<const Topology>(valueOrFail(
      Topology::create({1, 1, 1, 2}, {{{0, 0, 0, 0}, {0, 0, 0, 1}}})));
  DeviceAssignment da = valueOrFail(
      DeviceAssignment::create(topology, {{{0, 0, 0, 1}}, {{0, 0, 0, 0}}}));
  EXPECT_EQ(valueOrFail(da.tpuDevice(0, 0, "localhost")),
            "/job:localhost/task:0/device:TPU:1");
  EXPECT_EQ(valueOrFail(da.tpuDevice(1, 0, "localhost")),
            "/job:localhost/task:0/device:TPU:0");
  EXPECT_EQ(valueOrFail(da.tpuOrdinal(0)), 1);
  EXPECT_EQ(valueOrFail(da.hostDevice(1, 0, "worker")),
            "/job:worker/task:0/device:CPU:0");
}

TEST(DeviceAssignmentTest, LookupsFollowNumpyIndexing) {
  DeviceAssignment da = valueOrFail(
      DeviceAssignment::build(mesh2212(), Shape{1, 1, 1, 2}, std::nullopt, 4));
  EXPECT_EQ(valueOrFail(da.coordinates(-1, -1)), (Coordinates{0, 1, 0, 1}));
  expectError(da.coordinates(4, 0).status(), absl::StatusCode::kOutOfRange,
              "index 4 is out of bounds for axis 0 with size 4");
  expectError(da.tpuDevice(0, 2).status(), absl::StatusCode::kOutOfRange,
              "index 2 is out of bounds for axis 1 with size 2");
  EXPECT_EQ(valueOrFail(da.lookupReplicas(0, 1)),
            (std::vector<int>{0, 1, 2, 3}));
  // Trailing space kept from TensorFlow.
  expectError(da.lookupReplicas(1, 0).status(),
              absl::StatusCode::kInvalidArgument,
              "Can not find any replica in task: 1 contains logical_core: 0 ");
  expectError(da.lookupReplicas(0, 2).status(),
              absl::StatusCode::kInvalidArgument,
              "Can not find any replica in task: 0 contains logical_core: 2 ");
}

TEST(DeviceAssignmentTest, LookupReplicasAcrossHosts) {
  DeviceAssignment da = valueOrFail(
      DeviceAssignment::build(preset("v4-32"), std::nullopt, std::nullopt, 16));
  // Ring over 2x2x4: tasks are z planes.
  EXPECT_EQ(valueOrFail(da.lookupReplicas(0, 0)), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(valueOrFail(da.lookupReplicas(1, 0)),
            (std::vector<int>{4, 5, 6, 15}));
  EXPECT_EQ(valueOrFail(da.lookupReplicas(3, 0)),
            (std::vector<int>{10, 11, 12, 13}));
  EXPECT_EQ(valueOrFail(da.hostDevice(15, 0, "worker")),
            "/job:worker/task:1/device:CPU:0");
}

// Every error text of spec §10, verbatim.
TEST(DeviceAssignmentTest, ConstructorErrors) {
  expectError(DeviceAssignment::create(std::shared_ptr<const Topology>(),
                                       DeviceAssignment::singleCoreAssignment())
                  .status(),
              absl::StatusCode::kInvalidArgument,
              "topology must be a Topology object, got <class 'NoneType'>");
  expectError(DeviceAssignment::create(mesh2212(), {}).status(),
              absl::StatusCode::kInvalidArgument,
              "core_assignment must be a rank 3 numpy array, got shape (0,)");
  expectError(DeviceAssignment::create(mesh2212(), {{}, {}}).status(),
              absl::StatusCode::kInvalidArgument,
              "core_assignment must be a rank 3 numpy array, got shape (2, 0)");
  expectError(DeviceAssignment::create(mesh2212(), {{{0, 0, 0}}}).status(),
              absl::StatusCode::kInvalidArgument,
              "core_assignment.shape[-1] must have size equal to topology rank "
              "(4), got core_assignment.shape=(1, 1, 3)");
  expectErrorContaining(
      DeviceAssignment::create(mesh2212(), {{{0, 0, 0, 0}}, {{0, 0, 0, 1}, {1, 0, 0, 0}}})
          .status(),
      absl::StatusCode::kInvalidArgument, "replica 1 has 2 cores but replica 0 has 1");
  // Beyond TensorFlow (IndexError or a silent wrap there).
  expectError(DeviceAssignment::create(mesh2212(), {{{0, 2, 0, 0}}}).status(),
              absl::StatusCode::kInvalidArgument,
              "core_assignment[0][0]=(0, 2, 0, 0) is outside the TPU mesh: "
              "coordinate 1 must be in [0, 2) for mesh_shape=[2 2 1 2]");
  auto holey = std::make_shared<const Topology>(
      valueOrFail(Topology::create({2, 1, 1, 1}, {{{0, 0, 0, 0}}})));
  expectErrorContaining(
      DeviceAssignment::create(holey, {{{1, 0, 0, 0}}}).status(),
      absl::StatusCode::kInvalidArgument,
      "core_assignment[0][0]=(1, 0, 0, 0) names a core that no task owns");
}

TEST(DeviceAssignmentTest, BuildErrorsInTensorFlowsOrder) {
  auto topology = mesh2212();
  auto error = [&](DeviceAssignment::OptionalShape shape,
                   DeviceAssignment::OptionalShape stride, int64_t replicas,
                   DeviceOrderMode mode = DeviceOrderMode::Auto) {
    return DeviceAssignment::build(topology, shape, stride, replicas, mode)
        .status();
  };
  expectError(DeviceAssignment::build(std::shared_ptr<const Topology>())
                  .status(),
              absl::StatusCode::kInvalidArgument,
              "`topology` is not a Topology object; got <class 'NoneType'>");
  expectError(error(Shape{1, 1, 1}, Shape{0, 0, 0}, 1),
              absl::StatusCode::kInvalidArgument,
              "computation_shape must have shape [4]; got (3,)");
  expectError(error(Shape{0, 1, 1, 1}, Shape{1, 1, 1, 1, 1}, 1),
              absl::StatusCode::kInvalidArgument,
              "computation_stride must have shape [4]; got (5,)");
  expectError(error(Shape{}, std::nullopt, 1),
              absl::StatusCode::kInvalidArgument,
              "computation_shape must have shape [4]; got (0,)");
  expectError(error(Shape{1, 1, 0, 1}, Shape{1, -1, 1, 1}, 1),
              absl::StatusCode::kInvalidArgument,
              "computation_shape must be positive; got "
              "computation_shape=[1 1 0 1]");
  expectError(error(Shape{1, 1, 1, 1}, Shape{1, -1, 1, 1}, 1),
              absl::StatusCode::kInvalidArgument,
              "computation_stride must be positive; got "
              "computation_stride=[ 1 -1  1  1]");
  expectError(error(Shape{1, 1, 1, 2}, Shape{2, 2, 1, 2}, 1),
              absl::StatusCode::kInvalidArgument,
              "computation footprint [2 2 1 4] does not fit in TPU topology "
              "shape [2 2 1 2]");
  expectError(error(std::nullopt, std::nullopt, 9),
              absl::StatusCode::kInvalidArgument,
              "requested 9 replicas but only 8 replicas with shape [1 1 1 1] "
              "and computation_stride [1 1 1 1] fit in a TPU mesh of shape "
              "[2 2 1 2]");
  expectError(error(Shape{1, 1, 1, 2}, std::nullopt, 5),
              absl::StatusCode::kInvalidArgument,
              "requested 5 replicas but only 4 replicas with shape [1 1 1 2] "
              "and computation_stride [1 1 1 1] fit in a TPU mesh of shape "
              "[2 2 1 2]");
  // Two spaces before "Try", as in TensorFlow.
  const std::string ringError =
      "device_order_mode=DeviceOrderMode.RING is not compatible with the 3D "
      "tiling current topology.  Try setting "
      "device_order_mode=DeviceOrderMode.AUTO";
  expectError(error(std::nullopt, std::nullopt, 8, DeviceOrderMode::Ring),
              absl::StatusCode::kInvalidArgument, ringError);
  expectError(error(Shape{1, 1, 1, 2}, std::nullopt, 3, DeviceOrderMode::Ring),
              absl::StatusCode::kInvalidArgument, ringError);
  // Beyond TensorFlow ("negative dimensions are not allowed" from numpy).
  expectError(error(std::nullopt, std::nullopt, -1),
              absl::StatusCode::kInvalidArgument,
              "num_replicas must be >= 0; got -1");
  expectError(error(Shape{1, 1, 1, 3000000000}, std::nullopt, 1),
              absl::StatusCode::kInvalidArgument,
              "computation_shape entries must fit in int32; got "
              "computation_shape=[1, 1, 1, 3000000000]");
}

TEST(DeviceAssignmentTest, BuildFromSerializedTopology) {
  std::string bytes = mesh2212()->serialized();
  DeviceAssignment da = valueOrFail(DeviceAssignment::buildFromSerialized(
      bytes, Shape{1, 1, 1, 2}, std::nullopt, 4));
  EXPECT_EQ(da.coreAssignment()[2][0], (Coordinates{1, 1, 0, 0}));
  expectErrorContaining(
      DeviceAssignment::buildFromSerialized("\x0a\x02\x01").status(),
      absl::StatusCode::kInvalidArgument, "failed to parse");
}

} // namespace
} // namespace torus::rt
