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

namespace {

/// A feature set no x86-64 CPU has: AMX is Intel's, SSE4A AMD's.
constexpr const char *kNoSuchCpu = "x86-64,+amx-tile,+sse4a";

TEST(SaveLoadTest, TheTargetIsRecordedAndCheckedOnLoad) {
  auto fn = trace("step", {{DType::F32, {4}}}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] * 2.0};
  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  // An older CPU than this host's: compiled, run and saved as any other.
  auto v2 = compile(*fn, {.target = "x86-64-v2"});
  ASSERT_TRUE(v2.ok()) << v2.status();
  std::string path = tempDir() + "/v2.torus.json";
  ASSERT_TRUE(v2->save(path).ok());
  std::ifstream in(path);
  std::string json((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_THAT(json, HasSubstr("\"cpu\": \"x86-64-v2\""));
  auto loaded = Executable::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto mesh = EmulatedMesh::create(1);
  auto out = mesh->run(*loaded, {{HostTensor::fromVector<float>({4}, {1, 2, 3, 4})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0][0].toVector<float>(), (std::vector<float>{2, 4, 6, 8}));

  // A CPU this host is not: compile() refuses to load what it cannot run.
  auto foreign = compile(*fn, {.target = kNoSuchCpu});
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(foreign.status().message()),
              HasSubstr("needs features this host's CPU"));

  // A saved program whose record names features this host lacks: a Status
  // naming them, never SIGILL.
  std::string edited = json;
  size_t at = edited.find("\"features\": \"");
  ASSERT_NE(at, std::string::npos);
  edited.insert(at + 13, "+amx-tile,+sse4a,");
  std::ofstream(path) << edited;
  auto refused = Executable::load(path);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(refused.status().message()),
              testing::AnyOf(HasSubstr("amx-tile"), HasSubstr("sse4a")));

  auto bad = compile(*fn, {.target = "pentium9"});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("unknown x86-64 CPU 'pentium9'"));
}

} // namespace
