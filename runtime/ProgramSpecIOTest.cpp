//===- ProgramSpecIOTest.cpp - AOT metadata round trips and errors --------===//

#include "runtime/ProgramSpecIO.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace torus;
using namespace torus::rt;
using ::testing::HasSubstr;

namespace {

ProgramSpec sampleSpec() {
  ProgramSpec spec;
  spec.name = "step";
  spec.numReplicas = 4;
  spec.inputs = {{DType::F32, {4, 3}}, {DType::I32, {}}, {DType::I1, {2}}};
  spec.outputs = {{DType::F64, {2, 3}}};
  CollectiveSpec a;
  a.kind = CollectiveKind::AllReduce;
  a.reduce = ReduceKind::Max;
  a.operand = {DType::F32, {2, 3}};
  a.replicaGroups = {{0, 2}, {1, 3}};
  a.location = "dir/step \"quoted\".mlir:3:8";
  a.result = a.operand;
  CollectiveSpec b;
  b.kind = CollectiveKind::AllGather;
  b.operand = {DType::I64, {7}};
  b.result = {DType::I64, {28}};
  b.dimension = 0;
  CollectiveSpec c;
  c.kind = CollectiveKind::AllToAll;
  c.operand = {DType::F32, {4, 8}};
  c.result = {DType::F32, {16, 2}};
  c.splitDimension = 1;
  c.concatDimension = 0;
  c.splitCount = 4;
  CollectiveSpec d;
  d.kind = CollectiveKind::CollectivePermute;
  d.operand = d.result = {DType::F32, {3}};
  d.sourceTargetPairs = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  spec.collectives = {a, b, c, d};
  return spec;
}

void expectSameSpec(const ProgramSpec &a, const ProgramSpec &b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.numReplicas, b.numReplicas);
  EXPECT_EQ(a.inputs, b.inputs);
  EXPECT_EQ(a.outputs, b.outputs);
  ASSERT_EQ(a.collectives.size(), b.collectives.size());
  for (size_t i = 0; i < a.collectives.size(); ++i) {
    EXPECT_EQ(a.collectives[i].kind, b.collectives[i].kind);
    EXPECT_EQ(a.collectives[i].reduce, b.collectives[i].reduce);
    EXPECT_EQ(a.collectives[i].operand, b.collectives[i].operand);
    EXPECT_EQ(a.collectives[i].result, b.collectives[i].result);
    EXPECT_EQ(a.collectives[i].replicaGroups, b.collectives[i].replicaGroups);
    EXPECT_EQ(a.collectives[i].dimension, b.collectives[i].dimension);
    EXPECT_EQ(a.collectives[i].splitDimension,
              b.collectives[i].splitDimension);
    EXPECT_EQ(a.collectives[i].concatDimension,
              b.collectives[i].concatDimension);
    EXPECT_EQ(a.collectives[i].splitCount, b.collectives[i].splitCount);
    EXPECT_EQ(a.collectives[i].sourceTargetPairs,
              b.collectives[i].sourceTargetPairs);
    EXPECT_EQ(a.collectives[i].location, b.collectives[i].location);
  }
}

TEST(ProgramSpecIOTest, SpecRoundTrips) {
  ProgramSpec spec = sampleSpec();
  std::string json = programSpecToJson(spec);
  EXPECT_THAT(json, HasSubstr("\"inputs\": [\"f32[4,3]\", \"i32[]\", "
                              "\"i1[2]\"]"));
  EXPECT_THAT(json, HasSubstr("\"reduce\": \"max\""));
  EXPECT_THAT(json, HasSubstr("\"replica_groups\": [[0, 2], [1, 3]]"));
  auto back = programSpecFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << json;
  expectSameSpec(spec, *back);
}

TEST(ProgramSpecIOTest, ResultDefaultsToTheOperand) {
  auto spec = programSpecFromJson(R"({"name": "f", "num_replicas": 2,
      "inputs": [], "outputs": [], "collectives": [{"kind": "all_reduce",
      "reduce": "sum", "operand": "f32[3]"}]})");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->collectives[0].result, (TensorSpec{DType::F32, {3}}));
  auto bad = programSpecFromJson(R"({"name": "f", "num_replicas": 2,
      "inputs": [], "outputs": [], "collectives": [{"kind": "all_reduce",
      "reduce": "sum", "operand": "f32[3]", "source_target_pairs": [[0]]}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("must be a [source, target] pair, got 1 numbers"));
}

TEST(ProgramSpecIOTest, EveryCollectiveKindRoundTrips) {
  for (CollectiveKind kind :
       {CollectiveKind::AllReduce, CollectiveKind::AllGather,
        CollectiveKind::ReduceScatter, CollectiveKind::AllToAll,
        CollectiveKind::CollectivePermute}) {
    ProgramSpec spec = sampleSpec();
    spec.collectives[0].kind = kind;
    auto back = programSpecFromJson(programSpecToJson(spec));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->collectives[0].kind, kind);
  }
}

TEST(ProgramSpecIOTest, EveryReduceKindRoundTrips) {
  for (ReduceKind kind : {ReduceKind::Sum, ReduceKind::Product,
                          ReduceKind::Max, ReduceKind::Min}) {
    ProgramSpec spec = sampleSpec();
    spec.collectives[0].reduce = kind;
    auto back = programSpecFromJson(programSpecToJson(spec));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->collectives[0].reduce, kind);
  }
}

TEST(ProgramSpecIOTest, ArtifactRoundTrips) {
  ProgramArtifact a;
  a.spec = sampleSpec();
  a.entrySymbol = "__torus_entry_step";
  a.objectFile = "step.o";
  a.targetTriple = "x86_64-pc-linux-gnu";
  a.targetCpu = "skylake-avx512";
  a.targetFeatures = "+avx,+avx2";
  a.inputNames = {"w", "n", "mask"};
  a.topology = "v3-8";
  a.numPartitions = 1;
  a.replicaToCore = {0, 2, 4, 6};
  a.hasCounts = true;
  a.bf16Flops = 0;
  a.f32Flops = 1.5e12;
  a.hbmBytes = 123456789;
  std::string json = programArtifactToJson(a);
  auto back = programArtifactFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << json;
  expectSameSpec(a.spec, back->spec);
  EXPECT_EQ(back->entrySymbol, a.entrySymbol);
  EXPECT_EQ(back->objectFile, a.objectFile);
  EXPECT_EQ(back->targetTriple, a.targetTriple);
  EXPECT_EQ(back->targetCpu, a.targetCpu);
  EXPECT_EQ(back->targetFeatures, a.targetFeatures);
  EXPECT_EQ(back->inputNames, a.inputNames);
  EXPECT_EQ(back->topology, a.topology);
  EXPECT_EQ(back->numPartitions, a.numPartitions);
  EXPECT_EQ(back->replicaToCore, a.replicaToCore);
  EXPECT_TRUE(back->hasCounts);
  EXPECT_EQ(back->f32Flops, 1.5e12);
  EXPECT_EQ(back->hbmBytes, 123456789);
  a.hasCounts = false;
  auto without = programArtifactFromJson(programArtifactToJson(a));
  ASSERT_TRUE(without.ok());
  EXPECT_FALSE(without->hasCounts);
}

TEST(ProgramSpecIOTest, OptionalKeysMayBeMissingAndUnknownOnesAreIgnored) {
  auto a = programArtifactFromJson(R"({
    "format": "torus-aot", "version": 1, "object": "/abs/x.o",
    "entry": "__torus_entry_f", "added_later": {"x": [1.5, null, true]},
    "program": {"name": "f", "num_replicas": 1, "inputs": [],
                "outputs": ["f32[]"]}
  })");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->spec.outputs[0], (TensorSpec{DType::F32, {}}));
  EXPECT_TRUE(a->spec.collectives.empty());
  EXPECT_EQ(resolveObjectPath("/some/where/x.torus.json", *a), "/abs/x.o");
  a->objectFile = "x.o";
  EXPECT_EQ(resolveObjectPath("/some/where/x.torus.json", *a),
            "/some/where/x.o");
  EXPECT_EQ(resolveObjectPath("x.torus.json", *a), "x.o");
}

TEST(ProgramSpecIOTest, ErrorsNameTheKey) {
  auto message = [](std::string_view json) {
    auto a = programArtifactFromJson(json);
    EXPECT_FALSE(a.ok());
    return a.ok() ? std::string() : std::string(a.status().message());
  };
  const char *head = R"("format": "torus-aot", "version": 1, "object": "x.o",
                        "entry": "e", )";
  auto withProgram = [&](std::string program) {
    return std::string("{") + head + "\"program\": " + program + "}";
  };
  EXPECT_THAT(message("{"), HasSubstr("1:2: invalid JSON"));
  EXPECT_THAT(message("[1, 2] x"), HasSubstr("1:8: invalid JSON"));
  EXPECT_THAT(message("[1, 2] x"), HasSubstr("expected end of input"));
  EXPECT_THAT(message(R"({"format": "other"})"),
              HasSubstr("'format' is 'other', expected 'torus-aot'"));
  EXPECT_THAT(message(R"({"format": "torus-aot", "version": 2})"),
              HasSubstr("metadata format version 2 is not supported"));
  EXPECT_THAT(message(std::string("{") + head + "\"x\": 1}"),
              HasSubstr("missing required key 'program'"));
  EXPECT_THAT(message(withProgram(R"({"name": "f"})")),
              HasSubstr("missing required key 'program.num_replicas'"));
  EXPECT_THAT(message(withProgram(
                  R"({"name": "f", "num_replicas": "2", "inputs": [], "outputs": []})")),
              HasSubstr("'program.num_replicas' must be an integer, not a "
                        "string"));
  EXPECT_THAT(message(withProgram(
                  R"({"name": "f", "num_replicas": 0, "inputs": [], "outputs": []})")),
              HasSubstr("must be at least 1"));
  EXPECT_THAT(message(withProgram(
                  R"({"name": "f", "num_replicas": 1, "inputs": ["s4[2]"], "outputs": []})")),
              HasSubstr("'program.inputs[0]': 's4[2]': unknown element type"));
  EXPECT_THAT(
      message(withProgram(
          R"({"name": "f", "num_replicas": 1, "inputs": [], "outputs": [],
              "collectives": [{"kind": "all_gatherer", "reduce": "sum",
                               "operand": "f32[1]"}]})")),
      HasSubstr("'program.collectives[0].kind': unknown value 'all_gatherer' "
                "(known: all_reduce, all_gather"));
  EXPECT_THAT(
      message(withProgram(
          R"({"name": "f", "num_replicas": 1, "inputs": [], "outputs": [],
              "collectives": [{"kind": "all_reduce", "reduce": "mean",
                               "operand": "f32[1]"}]})")),
      HasSubstr("unknown value 'mean' (known: sum, product, max, min)"));
  EXPECT_THAT(
      message(withProgram(
          R"({"name": "f", "num_replicas": 1, "inputs": [], "outputs": [],
              "collectives": [{"kind": "all_reduce", "reduce": "sum",
                               "operand": "f32[1]", "replica_groups": [[0, "1"]]}]})")),
      HasSubstr("'program.collectives[0].replica_groups[0]' must be an array "
                "of integers"));
  EXPECT_THAT(message(std::string("{") + head +
                      R"("input_names": ["a"], "program": {"name": "f",
                          "num_replicas": 1, "inputs": [], "outputs": []}})"),
              HasSubstr("'input_names' has 1 names for 0 inputs"));
  // Deep nesting is an error, not a stack overflow.
  EXPECT_THAT(message(std::string(100000, '[')), HasSubstr("nested too deeply"));
  // A number no double holds is an error, not an uncaught exception (found
  // by JsonFuzzer: torus-run aborted).
  EXPECT_EQ(message(R"({"format": "torus-aot", "version": 1e999})"),
            "invalid JSON: number overflow parsing '1e999'");
}

TEST(ProgramSpecIOTest, TensorSpecs) {
  EXPECT_EQ(*parseTensorSpec("f32[2,3]"), (TensorSpec{DType::F32, {2, 3}}));
  EXPECT_EQ(*parseTensorSpec("i1[]"), (TensorSpec{DType::I1, {}}));
  EXPECT_EQ(*parseTensorSpec("bf16[0]"), (TensorSpec{DType::BF16, {0}}));
  for (const char *bad : {"", "f32", "f32[", "f32[2,]", "f32[,2]", "f32[-1]",
                          "f32[a]", "q8[1]", "f32[99999999999999999999]"})
    EXPECT_FALSE(parseTensorSpec(bad).ok()) << bad;
}

TEST(ProgramSpecIOTest, MetadataPathNextToTheObject) {
  EXPECT_EQ(metadataPathForObject("out/step.o"), "out/step.torus.json");
  EXPECT_EQ(metadataPathForObject("step.obj"), "step.obj.torus.json");
  EXPECT_EQ(metadataPathForObject(".o"), ".o.torus.json");
}

TEST(ProgramSpecIOTest, FilesOnDisk) {
  auto dir = std::filesystem::temp_directory_path() /
             ("spec-io-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ProgramArtifact a;
  a.spec = sampleSpec();
  a.objectFile = "step.o";
  a.entrySymbol = "e";
  std::string path = (dir / "step.torus.json").string();
  ASSERT_TRUE(writeProgramArtifact(path, a).ok());
  auto back = readProgramArtifact(path);
  ASSERT_TRUE(back.ok()) << back.status();
  expectSameSpec(a.spec, back->spec);
  auto missing = readProgramArtifact((dir / "none.torus.json").string());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  std::filesystem::remove_all(dir);
}

TEST(ProgramSpecIOTest, MalformedFileNamesTheFileAndLine) {
  auto dir = std::filesystem::temp_directory_path() /
             ("spec-io-malformed-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "bad.torus.json").string();
  {
    std::ofstream out(path);
    out << "{\n  \"format\": \"torus-aot\",\n  \"version\": 1,\n"
           "  \"object\" \"x.o\"\n}\n"; // no ':' on line 4
  }
  auto a = readProgramArtifact(path);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(a.status().message()),
              HasSubstr(path + ": 4:"));
  EXPECT_THAT(std::string(a.status().message()), HasSubstr("invalid JSON"));
  std::filesystem::remove_all(dir);
}

TEST(ProgramSpecIOTest, StringsAreEscaped) {
  ProgramSpec spec = sampleSpec();
  spec.name = "tab\tnewline\nquote\"backslash\\bell\a";
  auto back = programSpecFromJson(programSpecToJson(spec));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->name, spec.name);
}

} // namespace
