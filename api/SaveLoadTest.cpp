//===- SaveLoadTest.cpp - Executables saved, loaded and run again ---------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace torus;
using ::testing::HasSubstr;

namespace {

std::string tempDir() {
  auto dir = std::filesystem::temp_directory_path() /
             ("torus-saveload-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

Executable compileStep(int64_t replicas) {
  auto fn = trace("step", {{DType::F32, {4}}}, [](const std::vector<Tensor> &in) {
    Tensor id = astype(replicaId(), DType::F32);
    return std::vector<Tensor>{allReduce(in[0] * (id + 1.0))};
  });
  EXPECT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = replicas});
  EXPECT_TRUE(exe.ok()) << exe.status();
  return *exe;
}

TEST(SaveLoadTest, LoadedProgramComputesWhatTheCompiledOneDid) {
  Executable exe = compileStep(4);
  std::string path = tempDir() + "/step.torus.json";
  ASSERT_TRUE(exe.save(path).ok());
  EXPECT_TRUE(std::filesystem::exists(tempDir() + "/step.o"));

  auto loaded = Executable::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->name(), "step");
  EXPECT_EQ(loaded->numReplicas(), 4);
  EXPECT_EQ(loaded->inputs(), exe.inputs());

  auto mesh = EmulatedMesh::create(4);
  ASSERT_TRUE(mesh.ok());
  std::vector<std::vector<HostTensor>> inputs(
      4, {HostTensor::fromVector<float>({4}, {1, 2, 3, 4})});
  auto a = mesh->run(exe, inputs);
  auto b = mesh->run(*loaded, inputs);
  ASSERT_TRUE(a.ok() && b.ok());
  for (int r = 0; r < 4; ++r) {
    // sum over replicas q of x * (q + 1) = x * 10
    EXPECT_EQ((*b)[r][0].toVector<float>(), (std::vector<float>{10, 20, 30, 40}));
    EXPECT_EQ((*a)[r][0].toVector<float>(), (*b)[r][0].toVector<float>());
  }
}

TEST(SaveLoadTest, MissingAndCorruptFilesAreErrors) {
  auto missing = Executable::load(tempDir() + "/nothing.torus.json");
  ASSERT_FALSE(missing.ok());

  Executable exe = compileStep(1);
  std::string path = tempDir() + "/corrupt.torus.json";
  ASSERT_TRUE(exe.save(path).ok());
  {
    std::ofstream truncate(tempDir() + "/corrupt.o", std::ios::trunc);
    truncate << "not an object";
  }
  auto corrupt = Executable::load(path);
  ASSERT_FALSE(corrupt.ok());
  std::ofstream(path, std::ios::trunc) << "{ \"format\": ";
  auto badJson = Executable::load(path);
  ASSERT_FALSE(badJson.ok());
}

} // namespace
