//===- TopologyProtoTest.cpp - TopologyProto wire format ------------------===//
#include "runtime/mesh/TopologyProto.h"

#include "gtest/gtest.h"
#include "runtime/mesh/MeshTestUtil.h"

namespace torus::rt {
namespace {

using testing::expectErrorContaining;
using testing::valueOrFail;

TEST(TopologyProtoTest, RoundTripsEveryField) {
  TopologyProto proto;
  proto.meshShape = {4, 4, 1, 2};
  proto.numTasks = 300;
  proto.numTpuDevicesPerTask = 8;
  proto.deviceCoordinates = {0, 1, 200, -1};
  proto.tpuHardwareFeature = std::string("\x08\x01", 2);
  TopologyProto back =
      valueOrFail(parseTopologyProto(serializeTopologyProto(proto)));
  EXPECT_EQ(back.meshShape, proto.meshShape);
  EXPECT_EQ(back.numTasks, 300);
  EXPECT_EQ(back.numTpuDevicesPerTask, 8);
  EXPECT_EQ(back.deviceCoordinates, proto.deviceCoordinates);
  EXPECT_EQ(back.tpuHardwareFeature, proto.tpuHardwareFeature);
}

TEST(TopologyProtoTest, NegativeInt32IsTenBytes) {
  TopologyProto proto;
  proto.numTasks = -1;
  EXPECT_EQ(serializeTopologyProto(proto),
            std::string("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11));
}

TEST(TopologyProtoTest, ReadsUnpackedRepeatedAndSkipsUnknownFields) {
  // mesh_shape as four unpacked varints, an unknown fixed32 field 9, then
  // num_tasks.
  std::string bytes("\x08\x02\x08\x02\x08\x01\x08\x01"
                    "\x4d\x01\x02\x03\x04"
                    "\x10\x03",
                    15);
  TopologyProto proto = valueOrFail(parseTopologyProto(bytes));
  EXPECT_EQ(proto.meshShape, (std::vector<int32_t>{2, 2, 1, 1}));
  EXPECT_EQ(proto.numTasks, 3);
}

TEST(TopologyProtoTest, MalformedInput) {
  expectErrorContaining(parseTopologyProto(std::string("\x0a\x05\x01", 3)).status(),
                        absl::StatusCode::kInvalidArgument,
                        "field of 5 bytes runs past the end of the 3-byte "
                        "message at byte 2");
  expectErrorContaining(parseTopologyProto(std::string("\x10\xff", 2)).status(),
                        absl::StatusCode::kInvalidArgument,
                        "truncated varint at byte 1");
  expectErrorContaining(parseTopologyProto(std::string("\x12\x00", 2)).status(),
                        absl::StatusCode::kInvalidArgument,
                        "field 2 is not a varint at byte 0");
}

} // namespace
} // namespace torus::rt
