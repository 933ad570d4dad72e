//===- SliceSpecTest.cpp - Presets and custom mesh strings ----------------===//
#include "runtime/mesh/SliceSpec.h"

#include <set>

#include "gtest/gtest.h"
#include "runtime/mesh/MeshTestUtil.h"
#include "runtime/mesh/Topology.h"
#include "runtime/mesh/TpuGeneration.h"

namespace torus::rt {
namespace {

using testing::expectError;
using testing::expectErrorContaining;
using testing::valueOrFail;

struct PresetCase {
  std::string name;
  std::string generation;
  std::array<int32_t, 4> mesh;
  int tasks;
  int tpusPerTask;
  std::array<bool, 3> wraparound;
};

const PresetCase kPresetCases[] = {
    {"v2-8", "v2", {2, 2, 1, 2}, 1, 8, {false, false, false}},
    {"v2-32", "v2", {4, 4, 1, 2}, 4, 8, {false, false, false}},
    {"v2-512", "v2", {16, 16, 1, 2}, 64, 8, {true, true, false}},
    {"v3-8", "v3", {2, 2, 1, 2}, 1, 8, {false, false, false}},
    {"v3-32", "v3", {4, 4, 1, 2}, 4, 8, {false, false, false}},
    {"v3-2048", "v3", {32, 32, 1, 2}, 256, 8, {true, true, false}},
    {"v4-8", "v4", {2, 2, 1, 1}, 1, 4, {false, false, false}},
    {"v4-16", "v4", {2, 2, 2, 1}, 2, 4, {false, false, false}},
    {"v4-32", "v4", {2, 2, 4, 1}, 4, 4, {false, false, false}},
    {"v4-128", "v4", {4, 4, 4, 1}, 16, 4, {true, true, true}},
    {"v4-2048", "v4", {8, 8, 16, 1}, 256, 4, {true, true, true}},
    {"v5e-8", "v5e", {2, 4, 1, 1}, 1, 8, {false, false, false}},
    {"v5e-32", "v5e", {4, 8, 1, 1}, 4, 8, {false, false, false}},
    {"v5e-256", "v5e", {16, 16, 1, 1}, 32, 8, {true, true, false}},
    {"v5p-8", "v5p", {2, 2, 1, 1}, 1, 4, {false, false, false}},
    {"v5p-128", "v5p", {4, 4, 4, 1}, 16, 4, {true, true, true}},
    {"v6e-8", "v6e", {2, 4, 1, 1}, 1, 8, {false, false, false}},
    {"v6e-256", "v6e", {16, 16, 1, 1}, 32, 8, {true, true, false}},
};

TEST(SliceSpecTest, EveryPresetIsListedAndTested) {
  std::vector<std::string_view> names = presetNames();
  ASSERT_EQ(names.size(), std::size(kPresetCases));
  for (size_t i = 0; i < names.size(); ++i)
    EXPECT_EQ(names[i], kPresetCases[i].name);
}

TEST(SliceSpecTest, EveryPresetHasItsShapeAndACompleteLayout) {
  for (const PresetCase &c : kPresetCases) {
    SCOPED_TRACE(c.name);
    Topology topology = valueOrFail(Topology::fromPreset(c.name));
    EXPECT_EQ(topology.name(), c.name);
    ASSERT_NE(topology.generation(), nullptr);
    EXPECT_EQ(topology.generation()->name, c.generation);
    EXPECT_EQ(topology.meshShape(), c.mesh);
    EXPECT_EQ(topology.numTasks(), c.tasks);
    EXPECT_EQ(topology.numTpusPerTask(), c.tpusPerTask);
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(topology.hasWraparound(d), c.wraparound[d]) << "dim " << d;
    EXPECT_TRUE(topology.missingDevices().empty());
    // Every core is owned once, cores of a chip are consecutive ordinals of
    // one task, and a task's chips form its generation's host block.
    std::set<Coordinates> seen;
    const TpuGeneration &gen = *topology.generation();
    for (int t = 0; t < topology.numTasks(); ++t) {
      const std::vector<Coordinates> &task = topology.deviceCoordinates()[t];
      Coordinates first = task.front();
      for (int d = 0; d < topology.numTpusPerTask(); ++d) {
        const Coordinates &coords = task[d];
        EXPECT_TRUE(seen.insert(coords).second);
        EXPECT_EQ(coords[3], d % c.mesh[3]);
        for (int axis = 0; axis < 3; ++axis) {
          EXPECT_GE(coords[axis], first[axis]);
          EXPECT_LT(coords[axis],
                    first[axis] + std::min(gen.chipsPerHost[axis], c.mesh[axis]));
        }
      }
    }
    EXPECT_EQ(static_cast<int64_t>(seen.size()),
              topology.numChips() * c.mesh[3]);
  }
}

TEST(SliceSpecTest, SingleHostCoordinates) {
  // v2-8 / v3-8: one host, 4 chips x 2 cores, chips x-fastest, cores
  // consecutive.
  std::vector<Coordinates> v38 = {{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 0, 0, 0},
                                  {1, 0, 0, 1}, {0, 1, 0, 0}, {0, 1, 0, 1},
                                  {1, 1, 0, 0}, {1, 1, 0, 1}};
  EXPECT_EQ(valueOrFail(Topology::fromPreset("v3-8")).deviceCoordinates(),
            std::vector<std::vector<Coordinates>>{v38});
  EXPECT_EQ(valueOrFail(Topology::fromPreset("v2-8")).deviceCoordinates(),
            std::vector<std::vector<Coordinates>>{v38});
  // v4-8 / v5p-8: one megacore device per chip.
  std::vector<Coordinates> v48 = {
      {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}};
  EXPECT_EQ(valueOrFail(Topology::fromPreset("v4-8")).deviceCoordinates(),
            std::vector<std::vector<Coordinates>>{v48});
  EXPECT_EQ(valueOrFail(Topology::fromPreset("v5p-8")).deviceCoordinates(),
            std::vector<std::vector<Coordinates>>{v48});
  // v5e-8: a 2x4 host of single-core chips.
  std::vector<Coordinates> v5e8 = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                   {1, 1, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0},
                                   {0, 3, 0, 0}, {1, 3, 0, 0}};
  EXPECT_EQ(valueOrFail(Topology::fromPreset("v5e-8")).deviceCoordinates(),
            std::vector<std::vector<Coordinates>>{v5e8});
  EXPECT_EQ(valueOrFail(Topology::fromPreset("v5litepod-8")),
            valueOrFail(Topology::fromPreset("v5e-8")));
}

TEST(SliceSpecTest, MultiHostCoordinates) {
  // v3-32: 2x2-chip hosts numbered x-fastest.
  Topology v332 = valueOrFail(Topology::fromPreset("v3-32"));
  EXPECT_EQ(v332.deviceCoordinates()[0][0], (Coordinates{0, 0, 0, 0}));
  EXPECT_EQ(v332.deviceCoordinates()[1][0], (Coordinates{2, 0, 0, 0}));
  EXPECT_EQ(v332.deviceCoordinates()[2][0], (Coordinates{0, 2, 0, 0}));
  EXPECT_EQ(v332.deviceCoordinates()[3][7], (Coordinates{3, 3, 0, 1}));
  // v4-32: one 2x2x1 host per z plane.
  Topology v432 = valueOrFail(Topology::fromPreset("v4-32"));
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(v432.deviceCoordinates()[t],
              (std::vector<Coordinates>{
                  {0, 0, t, 0}, {1, 0, t, 0}, {0, 1, t, 0}, {1, 1, t, 0}}));
}

TEST(SliceSpecTest, UnknownPreset) {
  expectErrorContaining(Topology::fromPreset("v9-8").status(),
                        absl::StatusCode::kNotFound,
                        "unknown TPU preset \"v9-8\"; known presets: v2-8, "
                        "v2-32, v2-512, v3-8,");
  expectErrorContaining(Topology::fromString("tpu").status(),
                        absl::StatusCode::kInvalidArgument,
                        "\"tpu\" is neither a TPU preset");
}

TEST(SliceSpecTest, CustomMeshStrings) {
  SliceSpec plain = valueOrFail(parseMeshString("2x2x1x2"));
  EXPECT_EQ(plain.meshShape, (std::array<int32_t, 4>{2, 2, 1, 2}));
  EXPECT_EQ(plain.chipsPerHost, (std::array<int32_t, 3>{2, 2, 1}));
  EXPECT_EQ(plain.wraparound, (std::array<bool, 3>{false, false, false}));
  EXPECT_EQ(plain.generation, nullptr);
  Topology topology = valueOrFail(Topology::fromString("2x2x1x2"));
  EXPECT_EQ(topology, valueOrFail(Topology::fromPreset("v3-8")));
  EXPECT_EQ(topology.name(), "2x2x1x2");

  SliceSpec hosts = valueOrFail(parseMeshString("4x4x1x2/2x2x1:wrap=xy"));
  EXPECT_EQ(hosts.chipsPerHost, (std::array<int32_t, 3>{2, 2, 1}));
  EXPECT_EQ(hosts.wraparound, (std::array<bool, 3>{true, true, false}));
  EXPECT_EQ(valueOrFail(Topology::fromSliceSpec(hosts)),
            valueOrFail(Topology::fromPreset("v3-32")));
}

TEST(SliceSpecTest, BadMeshStrings) {
  const std::string grammar =
      "; expected \"XxYxZxC\" (chips along x, y, z and cores per chip, each a "
      "positive integer), optionally followed by \"/HXxHYxHZ\" (the chips one "
      "host owns) and \":wrap=DIMS\" (DIMS a subset of \"xyz\"), e.g. "
      "\"2x2x1x2\" or \"4x4x1x2/2x2x1:wrap=xy\"";
  auto bad = [&](std::string_view text, const std::string &what) {
    SCOPED_TRACE(text);
    expectError(parseMeshString(text).status(),
                absl::StatusCode::kInvalidArgument,
                "invalid mesh \"" + std::string(text) + "\": " + what + grammar);
  };
  bad("", "the string is empty");
  bad("2x2x1", "the mesh needs 4 fields separated by 'x', got 3 in \"2x2x1\"");
  bad("2x2x1x2x1",
      "the mesh needs 4 fields separated by 'x', got 5 in \"2x2x1x2x1\"");
  bad("2x2x1x0", "0 in the mesh is not positive");
  bad("2x-2x1x2", "-2 in the mesh is not positive");
  bad("2xax1x2", "\"a\" in the mesh is not an integer");
  bad("2x2x1x", "\"\" in the mesh is not an integer");
  bad("2x2x1x2 ", "\"2 \" in the mesh is not an integer");
  bad("2x2x1x99999999999", "99999999999 in the mesh is too large");
  bad("4x4x1x2/3x2x1",
      "the host block 3x2x1 does not divide the chip mesh 4x4x1 (dimension "
      "x: 4 % 3 != 0)");
  bad("4x4x1x2/2x2", "the host block needs 3 fields separated by 'x', got 2 "
                     "in \"2x2\"");
  bad("4x4x1x2:wrap=xw", "'w' in \":wrap=xw\" is not one of x, y, z");
  bad("4x4x1x2:wrap=xx", "'x' appears twice in \":wrap=xx\"");
  bad("4x4x1x2:wrap=", "\":wrap=\" names no dimension");
  bad("4x4x1x2:torus", "unknown option \"torus\"");
  // A string that starts like a mesh gets the mesh diagnosis from the
  // combined parser too.
  expectErrorContaining(Topology::fromString("2x2x1").status(),
                        absl::StatusCode::kInvalidArgument,
                        "invalid mesh \"2x2x1\": the mesh needs 4 fields");
}

TEST(SliceSpecTest, HandWrittenSpecIsValidated) {
  SliceSpec spec;
  spec.name = "hand";
  spec.meshShape = {4, 4, 1, 1};
  spec.chipsPerHost = {3, 1, 1};
  expectError(Topology::fromSliceSpec(spec).status(),
              absl::StatusCode::kInvalidArgument,
              "slice \"hand\": the host block 3x1x1 must be positive and divide "
              "the chip mesh 4x4x1");
}

} // namespace
} // namespace torus::rt
