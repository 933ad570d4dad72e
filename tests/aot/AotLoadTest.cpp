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

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

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

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_F(AotLoadErrorTest, MetadataThatIsNotTheCodesIsRefused) {
  // The code writes f32[4,3] to output 0: a metadata declaring less would
  // have the runtime hand it a smaller buffer.
  rt::ProgramArtifact a = artifact();
  a.spec.outputs[0] = TensorSpec{DType::F32, {2, 2}};
  std::string path = write("m.torus.json", rt::programArtifactToJson(a));
  auto aot = rt::AotProgram::load(path);
  ASSERT_FALSE(aot.ok());
  EXPECT_EQ(aot.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(aot.status().message()),
            path + ": the metadata does not match its object file " +
                a.objectFile +
                ": 'program.outputs' is [f32[2,2],f32[8,3],f32[8,3]] in the "
                "metadata but the code was compiled for "
                "[f32[4,3],f32[8,3],f32[8,3]]");
}

TEST_F(AotLoadErrorTest, EveryFieldOfTheSignatureIsChecked) {
  auto refusedField = [&](rt::ProgramArtifact a) {
    auto aot = rt::AotProgram::load(
        write("m.torus.json", rt::programArtifactToJson(a)));
    EXPECT_FALSE(aot.ok());
    std::string m(aot.status().message());
    size_t open = m.find("'program.");
    size_t dap = m.find("'device_assignment.");
    size_t at = std::min(open, dap);
    return at == std::string::npos ? m
                                   : m.substr(at, m.find('\'', at + 1) - at + 1);
  };
  rt::ProgramArtifact a = artifact();
  a.spec.inputs[0].shape = {1000000000000, 4};
  EXPECT_EQ(refusedField(a), "'program.inputs'");
  a = artifact();
  a.spec.numReplicas = 4;
  a.replicaToCore.clear();
  EXPECT_EQ(refusedField(a), "'program.num_replicas'");
  a = artifact();
  a.spec.name = "other";
  EXPECT_EQ(refusedField(a), "'program.name'");
  a = artifact();
  a.spec.workspaceBytes += 64;
  EXPECT_EQ(refusedField(a), "'program.workspace_bytes'");
  a = artifact();
  a.spec.collectives[1].replicaGroups = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  EXPECT_EQ(refusedField(a), "'program.collectives'");
  a = artifact();
  a.numPartitions = 2;
  a.replicaToCore.clear();
  EXPECT_EQ(refusedField(a), "'device_assignment.num_partitions'");
}

TEST_F(AotLoadErrorTest, ACorruptedObjectIsRefusedByItsHash) {
  rt::ProgramArtifact a = artifact();
  ASSERT_FALSE(a.objectHash.empty());
  std::string bytes = readBytes(a.objectFile);
  ASSERT_GT(bytes.size(), 200u);
  bytes[bytes.size() / 2] ^= 0x5a;
  a.objectFile = write("flipped.o", bytes);
  auto aot = rt::AotProgram::load(write("m.torus.json",
                                        rt::programArtifactToJson(a)));
  ASSERT_FALSE(aot.ok());
  EXPECT_EQ(aot.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("flipped.o: the object file does not match its "
                        "metadata"));
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("'object_hash' records " + artifact().objectHash));
}

TEST_F(AotLoadErrorTest, MetadataWithoutAnObjectHashIsRefused) {
  // The JIT's linker trusts an object's structure, so an object that
  // cannot be verified is not read at all (older metadata had no hash).
  rt::ProgramArtifact a = artifact();
  a.objectHash.clear();
  auto aot = rt::AotProgram::load(write("nohash.torus.json",
                                        rt::programArtifactToJson(a)));
  ASSERT_FALSE(aot.ok());
  EXPECT_EQ(aot.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("nohash.torus.json: no 'object_hash', so its object "
                        "file"));
}

TEST_F(AotLoadErrorTest, AnObjectWithoutASignatureIsRefused) {
  // Renaming the signature symbol in the string table stands for an object
  // written before torusc embedded one.
  rt::ProgramArtifact a = artifact();
  std::string bytes = readBytes(a.objectFile);
  size_t at = bytes.find("__torus_entry_step.signature");
  ASSERT_NE(at, std::string::npos);
  bytes[at + std::string("__torus_entry_step.signatur").size()] = 'X';
  a.objectFile = write("unsigned.o", bytes);
  a.objectHash = rt::objectHash(bytes); // metadata written for it
  auto aot = rt::AotProgram::load(write("m.torus.json",
                                        rt::programArtifactToJson(a)));
  ASSERT_FALSE(aot.ok());
  EXPECT_EQ(aot.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(aot.status().message()),
              HasSubstr("unsigned.o: the object file has no program "
                        "signature '__torus_entry_step.signature'"));
}

} // namespace
