//===- CompileTraceTest.cpp - Timelines of embedded compiles and runs -----===//
//
// CompileOptions::traceFile, MeshRunOptions::traceFile and TORUS_TRACE_TO
// write Chrome/Perfetto traces of a compile (passes, stages, LLVM steps)
// and of a run (a track per core with its kernels, collectives and waits).
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace torus;
using ::testing::HasSubstr;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string &name) {
  fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

json readJson(const fs::path &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

/// Span name -> count, for the spans of process `pid` (all when -1).
std::map<std::string, int> spanCounts(const json &trace, int64_t pid = -1) {
  std::map<std::string, int> counts;
  for (const json &e : trace["traceEvents"])
    if (e["ph"] == "X" && (pid < 0 || e["pid"] == pid))
      ++counts[e["name"].get<std::string>()];
  return counts;
}

/// tid -> thread name, for process `pid`.
std::map<int64_t, std::string> trackNames(const json &trace, int64_t pid) {
  std::map<int64_t, std::string> names;
  for (const json &e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == pid)
      names[e["tid"]] = e["args"]["name"];
  return names;
}

absl::StatusOr<TracedFunction> summedSquares() {
  return trace("summed_squares", {{DType::F32, {4, 3}}},
               [](const std::vector<Tensor> &args) -> std::vector<Tensor> {
                 return {allReduce(sum(args[0] * args[0], {1}))};
               });
}

std::vector<std::vector<HostTensor>> inputs(int64_t replicas) {
  std::vector<std::vector<HostTensor>> in(replicas);
  for (int64_t r = 0; r < replicas; ++r) {
    HostTensor t(TensorSpec{DType::F32, {4, 3}});
    float *p = static_cast<float *>(t.rawData());
    for (int i = 0; i < 12; ++i)
      p[i] = static_cast<float>(r + i % 3); // row sums of squares below
    in[r].push_back(std::move(t));
  }
  return in;
}

// Row i of replica r holds r, r+1, r+2: the sum of squares is
// 3r^2 + 6r + 5, summed over replicas 0..3: 3*14 + 6*6 + 4*5 = 98.
constexpr float kExpected = 98.0f;

TEST(CompileTraceTest, TraceFileHasEveryPassAndTheLlvmSteps) {
  fs::path dir = freshDir("compile-trace");
  auto fn = summedSquares();
  ASSERT_TRUE(fn.ok()) << fn.status();
  CompileOptions options;
  options.numReplicas = 4;
  options.traceFile = (dir / "compile.json").string();
  auto exe = compile(*fn, options);
  ASSERT_TRUE(exe.ok()) << exe.status();
  json trace = readJson(dir / "compile.json");
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  auto counts = spanCounts(trace, 1);
  for (const char *name :
       {"compile summed_squares", "stage linalg", "stage bufferized",
        "stage llvm-dialect", "torus-lower-collectives", "torus-fusion",
        "one-shot-bufferize", "convert-func-to-llvm", "translate to LLVM IR",
        "LLVM optimization", "machine code: object", "JIT load object"})
    EXPECT_GE(counts[name], 1) << name;
  EXPECT_EQ(trackNames(trace, 1)[1], "compile summed_squares");
  // Without kernelSpans, the code has no kernel calls: a traced run shows
  // no kernels.
  MeshRunOptions run;
  run.traceFile = (dir / "run.json").string();
  auto mesh = EmulatedMesh::create(4);
  ASSERT_TRUE(mesh.ok());
  auto out = mesh->run(*exe, inputs(4), run);
  ASSERT_TRUE(out.ok()) << out.status();
  for (const auto &[name, n] : spanCounts(readJson(dir / "run.json")))
    EXPECT_THAT(name, ::testing::Not(::testing::StartsWith("fusion")));
}

TEST(CompileTraceTest, RunTraceHasATrackPerCoreWithKernelsAndWaits) {
  fs::path dir = freshDir("run-trace");
  auto fn = summedSquares();
  ASSERT_TRUE(fn.ok());
  CompileOptions options;
  options.numReplicas = 4;
  options.kernelSpans = true;
  auto exe = compile(*fn, options);
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto mesh = EmulatedMesh::create(4);
  ASSERT_TRUE(mesh.ok());
  MeshRunOptions run;
  run.traceFile = (dir / "run.json").string();
  auto out = mesh->run(*exe, inputs(4), run);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int r = 0; r < 4; ++r) {
    const float *p = static_cast<const float *>((*out)[r][0].rawData());
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(p[i], kExpected) << "replica " << r << " element " << i;
  }
  json trace = readJson(dir / "run.json");
  auto names = trackNames(trace, 2);
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[1], "core 0 (replica 0)");
  EXPECT_EQ(names[4], "core 3 (replica 3)");
  // Per core: its step, at least one kernel, the all-reduce; three of the
  // four wait for the last to arrive.
  std::map<int64_t, std::set<std::string>> perCore;
  int waits = 0;
  for (const json &e : trace["traceEvents"])
    if (e["ph"] == "X" && e["pid"] == 2) {
      std::string name = e["name"];
      if (name.rfind("fusion.", 0) == 0)
        name = "kernel";
      if (name.rfind("all_reduce #0", 0) == 0)
        name = "all_reduce";
      if (name == "wait for peers")
        ++waits;
      perCore[e["tid"]].insert(name);
    }
  ASSERT_EQ(perCore.size(), 4u);
  for (const auto &[tid, spans] : perCore)
    for (const char *name : {"step 0", "kernel", "all_reduce",
                             "host to device", "device to host"})
      EXPECT_TRUE(spans.count(name)) << "core " << tid - 1 << ": " << name;
  EXPECT_EQ(waits, 3);
  EXPECT_EQ(spanCounts(trace, 1)["run summed_squares"], 1);
}

TEST(CompileTraceTest, TraceToWritesNumberedCompileAndRunTraces) {
  fs::path dir = freshDir("trace-to");
  ASSERT_EQ(setenv("TORUS_TRACE_TO", dir.c_str(), 1), 0);
  auto fn = summedSquares();
  ASSERT_TRUE(fn.ok());
  auto exe = compile(*fn, {.numReplicas = 4});
  auto mesh = EmulatedMesh::create(4);
  absl::StatusOr<std::vector<std::vector<HostTensor>>> out =
      absl::UnknownError("not run");
  if (exe.ok() && mesh.ok())
    out = mesh->run(*exe, inputs(4)); // the two-argument run too
  unsetenv("TORUS_TRACE_TO");
  ASSERT_TRUE(exe.ok()) << exe.status();
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<std::string> files;
  for (const auto &entry : fs::directory_iterator(dir))
    files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 2u);
  EXPECT_THAT(files[0], ::testing::MatchesRegex(
                            "module_[0-9]{4}\\.summed_squares\\.compile\\."
                            "trace\\.json"));
  EXPECT_THAT(files[1], ::testing::MatchesRegex(
                            "run_[0-9]{4}\\.summed_squares\\.trace\\.json"));
  EXPECT_GE(spanCounts(readJson(dir / files[0]))["torus-fusion"], 1);
  // TORUS_TRACE_TO turns kernel spans on.
  int kernels = 0;
  for (const auto &[name, n] : spanCounts(readJson(dir / files[1]), 2))
    if (name.rfind("fusion.", 0) == 0)
      kernels += n;
  EXPECT_GE(kernels, 4);
}

TEST(CompileTraceTest, AnUnwritableTraceFailsTheCompileNamingTheFile) {
  auto fn = summedSquares();
  ASSERT_TRUE(fn.ok());
  CompileOptions options;
  options.numReplicas = 4;
  options.traceFile = "/nonexistent-dir/compile.json";
  auto exe = compile(*fn, options);
  ASSERT_FALSE(exe.ok());
  EXPECT_EQ(exe.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(exe.status().message()),
              HasSubstr("'/nonexistent-dir/compile.json'"));

  options.traceFile.clear();
  auto compiled = compile(*fn, options);
  ASSERT_TRUE(compiled.ok());
  auto mesh = EmulatedMesh::create(4);
  ASSERT_TRUE(mesh.ok());
  MeshRunOptions run;
  run.traceFile = "/nonexistent-dir/run.json";
  auto out = mesh->run(*compiled, inputs(4), run);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()),
              HasSubstr("'/nonexistent-dir/run.json'"));
}

} // namespace
