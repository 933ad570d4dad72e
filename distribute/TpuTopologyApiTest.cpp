//===- TpuTopologyApiTest.cpp - tf.tpu.experimental.Topology (spec §9.2) --===//
//
// The public Topology: built from a mesh shape and device coordinates and
// from its serialized TopologyProto, the *_at_coordinates lookups,
// missing_devices and mesh_rank. Expected values are worked out by hand from
// the coordinates given; the proto bytes are encoded by hand.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;
using C = std::array<int32_t, 4>;

TEST(TpuTopologyApiTest, FromMeshShapeAndDeviceCoordinates) {
  // Two tasks of two cores on a 2x2x1x1 mesh, task 1 holding (1,1) then
  // (0,1) (so its ordinals do not follow the mesh order).
  TORUS_ASSERT_OK_AND_ASSIGN(
      Topology t, Topology::create({2, 2, 1, 1}, {{{0, 0, 0, 0}, {1, 0, 0, 0}},
                                                  {{1, 1, 0, 0}, {0, 1, 0, 0}}}));
  EXPECT_EQ(t.meshShape(), (C{2, 2, 1, 1}));
  EXPECT_EQ(t.meshRank(), 4);
  EXPECT_EQ(t.numTasks(), 2);
  EXPECT_EQ(t.numTpusPerTask(), 2);
  EXPECT_TRUE(t.missingDevices().empty());
  EXPECT_EQ(*t.taskOrdinalAtCoordinates({0, 1, 0, 0}), 1);
  EXPECT_EQ(*t.tpuDeviceOrdinalAtCoordinates({0, 1, 0, 0}), 1);
  EXPECT_EQ(*t.tpuDeviceOrdinalAtCoordinates({1, 1, 0, 0}), 0);
  EXPECT_EQ(*t.taskOrdinalAtCoordinates({1, 0, 0, 0}), 0);
  EXPECT_EQ(*t.tpuDeviceNameAtCoordinates({1, 1, 0, 0}), "/task:1/device:TPU:0");
  EXPECT_EQ(*t.tpuDeviceNameAtCoordinates({0, 1, 0, 0}, "worker"),
            "/job:worker/task:1/device:TPU:1");
  EXPECT_EQ(*t.cpuDeviceNameAtCoordinates({1, 0, 0, 0}), "/task:0/device:CPU:0");
  EXPECT_EQ(*t.cpuDeviceNameAtCoordinates({0, 1, 0, 0}, "tpu_worker"),
            "/job:tpu_worker/task:1/device:CPU:0");
  // numpy indexing: -1 is the last cell of an axis; beyond, IndexError.
  EXPECT_EQ(*t.tpuDeviceNameAtCoordinates({-1, -1, 0, 0}), "/task:1/device:TPU:0");
  EXPECT_STATUS(t.taskOrdinalAtCoordinates({2, 0, 0, 0}),
                absl::StatusCode::kOutOfRange,
                "index 2 is out of bounds for axis 0 with size 2");
}

TEST(TpuTopologyApiTest, MissingDevicesOfADegradedSlice) {
  // Three cores of a 2x2x1x1 mesh: (1,1) is missing, its lookups give -1.
  TORUS_ASSERT_OK_AND_ASSIGN(
      Topology t, Topology::create({2, 2, 1, 1},
                                   {{{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}}}));
  EXPECT_THAT(t.missingDevices(), ElementsAre(C{1, 1, 0, 0}));
  EXPECT_EQ(*t.taskOrdinalAtCoordinates({1, 1, 0, 0}), -1);
  EXPECT_EQ(*t.tpuDeviceOrdinalAtCoordinates({1, 1, 0, 0}), -1);
  // A whole v3-8 has none.
  TORUS_ASSERT_OK_AND_ASSIGN(Topology v38, Topology::fromString("v3-8"));
  EXPECT_TRUE(v38.missingDevices().empty());
  EXPECT_EQ(*v38.tpuDeviceNameAtCoordinates({1, 1, 0, 1}), "/task:0/device:TPU:7");
}

TEST(TpuTopologyApiTest, ConstructorValidation) {
  EXPECT_STATUS(Topology::create({2, 2, 1}, {{{0, 0, 0, 0}}}),
                absl::StatusCode::kInvalidArgument,
                "`mesh_shape` must be a sequence of 4 positive entries; got "
                "`mesh_shape=[2 2 1]`");
  EXPECT_STATUS(Topology::create({1, 1, 1, 1}, {{{0, 0, 0}}}),
                absl::StatusCode::kInvalidArgument,
                "`device_coordinates` must be a rank 3 int32 array with minor "
                "dimension equal to the `mesh_shape` rankgot "
                "device_coordinates.shape=(1, 1, 3) "
                "len(device_coordinates.shape)=3 device_coordinates.shape[2]=3 "
                "mesh_shape=[1 1 1 1], len(mesh_shape)=4");
}

TEST(TpuTopologyApiTest, SerializedTopologyProto) {
  // TopologyProto{mesh_shape: [2,1,1,1], num_tasks: 2,
  // num_tpu_devices_per_task: 1, device_coordinates: [0,0,0,0, 1,0,0,0]},
  // repeated fields packed, as TensorFlow writes it.
  const std::string bytes("\x0a\x04\x02\x01\x01\x01"
                          "\x10\x02"
                          "\x18\x01"
                          "\x22\x08\x00\x00\x00\x00\x01\x00\x00\x00",
                          20);
  TORUS_ASSERT_OK_AND_ASSIGN(Topology parsed, Topology::fromSerialized(bytes));
  EXPECT_EQ(parsed.meshShape(), (C{2, 1, 1, 1}));
  EXPECT_EQ(parsed.numTasks(), 2);
  EXPECT_EQ(*parsed.tpuDeviceNameAtCoordinates({1, 0, 0, 0}), "/task:1/device:TPU:0");
  EXPECT_EQ(parsed.serialized(), bytes);
  // Built from coordinates, it serializes to the same bytes, and back
  // (topology_test.py::testSerialization).
  TORUS_ASSERT_OK_AND_ASSIGN(
      Topology built, Topology::create({2, 1, 1, 1}, {{{0, 0, 0, 0}}, {{1, 0, 0, 0}}}));
  EXPECT_EQ(built.serialized(), bytes);
  TORUS_ASSERT_OK_AND_ASSIGN(Topology v38, Topology::fromString("v3-8"));
  TORUS_ASSERT_OK_AND_ASSIGN(Topology again, Topology::fromSerialized(v38.serialized()));
  EXPECT_EQ(again.meshShape(), v38.meshShape());
  EXPECT_EQ(again.deviceCoordinates(), v38.deviceCoordinates());
  // TensorFlow's texts for a bad proto.
  EXPECT_STATUS(Topology::fromSerialized(std::string("\x0a\x02\x02\x01", 4)),
                absl::StatusCode::kInvalidArgument,
                "`mesh_shape` must be a vector of size 4 with positive entries; "
                "got [2 1]");
  EXPECT_STATUS(
      Topology::fromSerialized(std::string("\x0a\x04\x02\x01\x01\x01\x10\x02\x18\x01"
                                           "\x22\x04\x00\x00\x00\x00",
                                           16)),
      absl::StatusCode::kInvalidArgument,
      // TensorFlow formats proto.mesh_shape where it says len(mesh_shape).
      "`device_coordinates` must have shape num_tasks (2) * "
      "num_tpu_devices_per_task (1) * len(mesh_shape) ([2, 1, 1, 1]); got "
      "shape 4");
  EXPECT_EQ(Topology::fromSerialized(std::string("\x10\xff", 2)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

} // namespace
} // namespace torus::distribute
