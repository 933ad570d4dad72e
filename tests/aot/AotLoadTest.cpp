//===- AotLoadTest.cpp - An AOT artifact loaded by the runtime alone ------===//
//
// Tests that what `torusc --emit=obj` writes runs in a program linked only
// against the runtime: rt::AotProgram loads the metadata and the object
// (LLVM's ORC links it), the executor runs it, and the results equal
// NumPy's.
//
//===----------------------------------------------------------------------===//

#include "AotTestUtil.h"
#include "runtime/jit/AotProgram.h"

#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>

using namespace torus;
using ::testing::HasSubstr;

namespace {

const std::string kMetadata = std::string(TORUS_AOT_DIR) + "/allreduce8.torus.json";

TEST(AotLoadTest, RunsWhatTorusCompiled) {
  auto aot = rt::AotProgram::load(kMetadata);
  ASSERT_TRUE(aot.ok()) << aot.status();
  EXPECT_EQ((*aot)->artifact().entrySymbol, "__torus_entry_step");
  EXPECT_EQ((*aot)->artifact().inputNames,
            (std::vector<std::string>{"x", "w"}));
  aot_test::runAndCheck((*aot)->program(), (*aot)->runOptions());
}

TEST(AotLoadTest, FindsTheMetadataNextToTheObject) {
  auto aot = rt::AotProgram::load(std::string(TORUS_AOT_DIR) + "/allreduce8.o");
  ASSERT_TRUE(aot.ok()) << aot.status();
  aot_test::runAndCheck((*aot)->program());
}

TEST(AotLoadTest, LoadsTwiceIndependently) {
  auto a = rt::AotProgram::load(kMetadata);
  auto b = rt::AotProgram::load(kMetadata);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE((*a)->program().entry, nullptr);
  EXPECT_NE((*a)->program().entry, (*b)->program().entry);
  aot_test::runAndCheck((*b)->program());
}

class AotLoadErrorTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("aot-load-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string &name, const std::string &text) {
    std::ofstream((dir_ / name).string()) << text;
    return (dir_ / name).string();
  }
  rt::ProgramArtifact artifact() {
    auto a = rt::readProgramArtifact(kMetadata);
    EXPECT_TRUE(a.ok()) << a.status();
    a->objectFile = std::string(TORUS_AOT_DIR) + "/allreduce8.o";
    return *a;
  }
  std::filesystem::path dir_;
};

TEST_F(AotLoadErrorTest, MissingObject) {
  rt::ProgramArtifact a = artifact();
  a.objectFile = "gone.o";
  std::string path = write("m.torus.json", rt::programArtifactToJson(a));
  auto aot = rt::AotProgram::load(path);
  ASSERT_FALSE(aot.ok());
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("cannot read '" + (dir_ / "gone.o").string()));
}

TEST_F(AotLoadErrorTest, NotAnObject) {
  rt::ProgramArtifact a = artifact();
  a.objectFile = write("junk.o", "this is not ELF");
  auto aot = rt::AotProgram::load(write("m.torus.json",
                                        rt::programArtifactToJson(a)));
  ASSERT_FALSE(aot.ok());
  EXPECT_THAT(std::string(aot.status().message()), HasSubstr("junk.o"));
}

TEST_F(AotLoadErrorTest, WrongEntrySymbol) {
  rt::ProgramArtifact a = artifact();
  a.entrySymbol = "__torus_entry_other";
  auto aot = rt::AotProgram::load(write("m.torus.json",
                                        rt::programArtifactToJson(a)));
  ASSERT_FALSE(aot.ok());
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("__torus_entry_other"));
}

TEST_F(AotLoadErrorTest, CpuWithoutTheFeatures) {
  rt::ProgramArtifact a = artifact();
  a.targetCpu = "future-cpu";
  a.targetFeatures = "+avx2,+torus-matrix-unit";
  auto aot = rt::AotProgram::load(write("m.torus.json",
                                        rt::programArtifactToJson(a)));
  ASSERT_FALSE(aot.ok());
  EXPECT_EQ(aot.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("needs features this host's CPU"));
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("torus-matrix-unit"));
}

TEST_F(AotLoadErrorTest, OtherArchitecture) {
  rt::ProgramArtifact a = artifact();
  a.targetTriple = "aarch64-unknown-linux-gnu";
  auto aot = rt::AotProgram::load(write("m.torus.json",
                                        rt::programArtifactToJson(a)));
  ASSERT_FALSE(aot.ok());
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("compiled for aarch64-unknown-linux-gnu"));
}

} // namespace
