//===- TopologyTest.cpp - Topology construction, lookups, ICI model -------===//
//
// TensorFlow behaviour from tensorflow/python/tpu/topology.py and
// topology_test.py (spec §9.2); error texts verbatim.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/Topology.h"

#include "gtest/gtest.h"
#include "runtime/mesh/MeshTestUtil.h"
#include "runtime/mesh/TopologyProto.h"

namespace torus::rt {
namespace {

using testing::expectError;
using testing::expectErrorContaining;
using testing::valueOrFail;

Topology twoCores() {
  return valueOrFail(
      Topology::create({1, 1, 1, 2}, {{{0, 0, 0, 0}, {0, 0, 0, 1}}}));
}

TEST(TopologyTest, ConstructorFormProperties) {
  Topology topology = twoCores();
  EXPECT_EQ(topology.meshShape(), (std::array<int32_t, 4>{1, 1, 1, 2}));
  EXPECT_EQ(topology.meshRank(), 4);
  EXPECT_EQ(topology.numTasks(), 1);
  EXPECT_EQ(topology.numTpusPerTask(), 2);
  EXPECT_TRUE(topology.missingDevices().empty());
  EXPECT_EQ(topology.deviceCoordinates()[0][1], (Coordinates{0, 0, 0, 1}));
  EXPECT_EQ(topology.generation(), nullptr);
  EXPECT_EQ(topology.toString(),
            "Topology(mesh_shape=[1 1 1 2], num_tasks=1, num_tpus_per_task=2)");
}

// topology_test.py::testSerialization.
TEST(TopologyTest, SerializationRoundTrips) {
  Topology original = twoCores();
  std::string bytes = original.serialized();
  // Exactly protobuf's encoding: packed mesh_shape, num_tasks,
  // num_tpu_devices_per_task, packed device_coordinates.
  EXPECT_EQ(bytes, std::string("\x0a\x04\x01\x01\x01\x02"
                               "\x10\x01\x18\x02"
                               "\x22\x08\x00\x00\x00\x00\x00\x00\x00\x01",
                               20));
  Topology parsed = valueOrFail(Topology::fromSerialized(bytes));
  EXPECT_EQ(parsed.meshShape(), original.meshShape());
  EXPECT_EQ(parsed.deviceCoordinates(), original.deviceCoordinates());
  EXPECT_EQ(parsed, original);
  EXPECT_EQ(parsed.serialized(), bytes);
}

TEST(TopologyTest, MeshShapeErrors) {
  expectError(Topology::create({2, 2, 1}, {{{0, 0, 0, 0}}}).status(),
              absl::StatusCode::kInvalidArgument,
              "`mesh_shape` must be a sequence of 4 positive entries; got "
              "`mesh_shape=[2 2 1]`");
  expectError(Topology::create({2, 2, 1, 0}, {{{0, 0, 0, 0}}}).status(),
              absl::StatusCode::kInvalidArgument,
              "`mesh_shape` must be a sequence of 4 positive entries; got "
              "`mesh_shape=[2 2 1 0]`");
  expectError(Topology::create({2, -1, 1, 2}, {{{0, 0, 0, 0}}}).status(),
              absl::StatusCode::kInvalidArgument,
              "`mesh_shape` must be a sequence of 4 positive entries; got "
              "`mesh_shape=[ 2 -1  1  2]`");
}

TEST(TopologyTest, DeviceCoordinatesRankError) {
  // QUIRK kept: no space in "rankgot".
  expectError(
      Topology::create({1, 1, 1, 2}, {{{0, 0, 0}, {0, 0, 1}}}).status(),
      absl::StatusCode::kInvalidArgument,
      "`device_coordinates` must be a rank 3 int32 array with minor dimension "
      "equal to the `mesh_shape` rankgot device_coordinates.shape=(1, 2, 3) "
      "len(device_coordinates.shape)=3 device_coordinates.shape[2]=3 "
      "mesh_shape=[1 1 1 2], len(mesh_shape)=4");
  // An empty list has numpy shape (0,); TensorFlow raises IndexError there.
  expectErrorContaining(Topology::create({1, 1, 1, 2}, {}).status(),
                        absl::StatusCode::kInvalidArgument,
                        "rankgot device_coordinates.shape=(0,) "
                        "len(device_coordinates.shape)=1");
  expectErrorContaining(
      Topology::create({1, 1, 1, 2}, {{{0, 0, 0, 0}}, {}}).status(),
      absl::StatusCode::kInvalidArgument,
      "task 1 has 0 devices but task 0 has 1");
}

TEST(TopologyTest, RejectsCoordinatesOutsideTheMeshAndDuplicates) {
  expectError(
      Topology::create({1, 1, 1, 2}, {{{0, 0, 0, 0}, {0, 0, 0, 2}}}).status(),
      absl::StatusCode::kInvalidArgument,
      "device_coordinates[0][1]=(0, 0, 0, 2) is outside the mesh: coordinate "
      "3 is 2 but must be in [0, 2) for mesh_shape=[1 1 1 2]");
  expectErrorContaining(
      Topology::create({1, 1, 1, 2}, {{{0, 0, 0, 0}, {-1, 0, 0, 0}}}).status(),
      absl::StatusCode::kInvalidArgument, "is outside the mesh");
  expectError(
      Topology::create({1, 1, 1, 2}, {{{0, 0, 0, 1}, {0, 0, 0, 1}}}).status(),
      absl::StatusCode::kInvalidArgument,
      "device_coordinates[0][0] and device_coordinates[0][1] both name the "
      "core at (0, 0, 0, 1); every TPU device needs its own core");
}

TopologyProto proto(std::vector<int32_t> mesh, int32_t tasks, int32_t devices,
                    std::vector<int32_t> coordinates) {
  TopologyProto p;
  p.meshShape = std::move(mesh);
  p.numTasks = tasks;
  p.numTpuDevicesPerTask = devices;
  p.deviceCoordinates = std::move(coordinates);
  return p;
}

TEST(TopologyTest, SerializedFormErrors) {
  auto parse = [](const TopologyProto &p) {
    return Topology::fromSerialized(serializeTopologyProto(p)).status();
  };
  expectError(parse(proto({2, 2, 1}, 1, 1, {0, 0, 0})),
              absl::StatusCode::kInvalidArgument,
              "`mesh_shape` must be a vector of size 4 with positive entries; "
              "got [2 2 1]");
  expectError(parse(proto({1, 1, 1, 1}, -1, 1, {})),
              absl::StatusCode::kInvalidArgument,
              "`num_tasks` must be >= 0; got -1");
  expectError(parse(proto({1, 1, 1, 1}, 1, -2, {})),
              absl::StatusCode::kInvalidArgument,
              "`num_tpu_devices_per_task` must be >= 0; got -2");
  expectError(parse(proto({1, 1, 1, 2}, 1, 2, {0, 0, 0, 0, 0, 0, 0})),
              absl::StatusCode::kInvalidArgument,
              "`device_coordinates` must have shape num_tasks (1) * "
              "num_tpu_devices_per_task (2) * len(mesh_shape) ([1, 1, 1, 2]); "
              "got shape 7");
  expectError(parse(proto({1, 1, 1, 2}, 1, 2, {0, 0, 0, 0, 0, 0, 0, -1})),
              absl::StatusCode::kInvalidArgument,
              "All values in `device_coordinates` must be >= 0, got "
              "[ 0  0  0  0  0  0  0 -1]");
  expectErrorContaining(Topology::fromSerialized("\x0a\x05\x01").status(),
                        absl::StatusCode::kInvalidArgument,
                        "failed to parse a serialized TopologyProto");
}

TEST(TopologyTest, ZeroTasksIsAllMissing) {
  Topology topology =
      valueOrFail(Topology::fromSerialized(serializeTopologyProto(
          proto({1, 1, 1, 2}, 0, 0, {}))));
  EXPECT_EQ(topology.numTasks(), 0);
  EXPECT_EQ(topology.missingDevices(),
            (std::vector<Coordinates>{{0, 0, 0, 0}, {0, 0, 0, 1}}));
}

TEST(TopologyTest, LookupsAndDeviceNames) {
  Topology topology = valueOrFail(Topology::fromPreset("v3-32"));
  Coordinates c = {3, 2, 0, 1};
  // Host blocks of 2x2 chips numbered x-fastest: chip (3, 2) is on task 3,
  // its ordinal (1 + 0*2)*2 + 1 = 3.
  EXPECT_EQ(valueOrFail(topology.taskOrdinalAtCoordinates(c)), 3);
  EXPECT_EQ(valueOrFail(topology.tpuDeviceOrdinalAtCoordinates(c)), 3);
  EXPECT_EQ(valueOrFail(topology.cpuDeviceNameAtCoordinates(c)),
            "/task:3/device:CPU:0");
  EXPECT_EQ(valueOrFail(topology.tpuDeviceNameAtCoordinates(c)),
            "/task:3/device:TPU:3");
  EXPECT_EQ(valueOrFail(topology.cpuDeviceNameAtCoordinates(c, "worker")),
            "/job:worker/task:3/device:CPU:0");
  EXPECT_EQ(valueOrFail(topology.tpuDeviceNameAtCoordinates(c, "worker")),
            "/job:worker/task:3/device:TPU:3");
  // numpy indexing: -1 is the last index along its axis.
  EXPECT_EQ(valueOrFail(topology.tpuDeviceNameAtCoordinates({-1, -2, 0, -1})),
            "/task:3/device:TPU:3");
  expectError(topology.taskOrdinalAtCoordinates({4, 0, 0, 0}).status(),
              absl::StatusCode::kOutOfRange,
              "index 4 is out of bounds for axis 0 with size 4");
  expectError(topology.taskOrdinalAtCoordinates({0, 0, 0, -3}).status(),
              absl::StatusCode::kOutOfRange,
              "index -3 is out of bounds for axis 3 with size 2");
}

TEST(TopologyTest, MissingCellsLookUpAsMinusOne) {
  Topology topology = valueOrFail(Topology::create(
      {2, 1, 1, 1}, {{{0, 0, 0, 0}}}));
  EXPECT_EQ(topology.missingDevices(), (std::vector<Coordinates>{{1, 0, 0, 0}}));
  EXPECT_EQ(valueOrFail(topology.taskOrdinalAtCoordinates({1, 0, 0, 0})), -1);
  EXPECT_EQ(valueOrFail(topology.tpuDeviceNameAtCoordinates({1, 0, 0, 0})),
            "/task:-1/device:TPU:-1");
}

TEST(TopologyTest, IciLinksFollowWraparound) {
  Topology mesh = valueOrFail(Topology::fromMeshString("4x4x1x1"));
  std::vector<IciLink> corner = valueOrFail(mesh.iciLinks({0, 0, 0}));
  ASSERT_EQ(corner.size(), 2u);
  EXPECT_EQ(corner[0].to, (ChipCoordinates{1, 0, 0}));
  EXPECT_EQ(corner[1].to, (ChipCoordinates{0, 1, 0}));
  EXPECT_EQ(valueOrFail(mesh.iciHopDistance({0, 0, 0}, {3, 3, 0})), 6);

  Topology torus = valueOrFail(Topology::fromMeshString("4x4x1x1:wrap=xy"));
  std::vector<IciLink> links = valueOrFail(torus.iciLinks({0, 0, 0}));
  ASSERT_EQ(links.size(), 4u);
  EXPECT_EQ(links[1].to, (ChipCoordinates{3, 0, 0}));
  EXPECT_TRUE(links[1].wraparound);
  EXPECT_EQ(links[1].direction, -1);
  EXPECT_EQ(valueOrFail(torus.iciHopDistance({0, 0, 0}, {3, 3, 0})), 2);
  expectError(torus.iciLinks({4, 0, 0}).status(), absl::StatusCode::kOutOfRange,
              "chip (4, 0, 0) is outside the 4x4x1 chip mesh");

  // A ring of two chips has one link between them, not two.
  Topology pair = valueOrFail(Topology::fromMeshString("2x1x1x1:wrap=x"));
  EXPECT_EQ(valueOrFail(pair.iciLinks({0, 0, 0})).size(), 1u);
}

TEST(TopologyTest, TooLargeMeshFailsClearly) {
  expectErrorContaining(
      Topology::fromMeshString("4096x4096x4096x2").status(),
      absl::StatusCode::kInvalidArgument, "the emulator cannot model a slice");
}

} // namespace
} // namespace torus::rt
