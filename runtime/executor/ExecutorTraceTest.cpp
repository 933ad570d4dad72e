//===- ExecutorTraceTest.cpp - A run's timeline (RunOptions::trace) -------===//
//
// A program whose steps all-reduce, run on four cores of a v4-8 with a trace
// recorder: one track per core with its transfers, steps, collectives and
// the waits inside them; the cost model's steps beside them; the results
// unchanged by tracing.
//
//===----------------------------------------------------------------------===//

#include "runtime/executor/Executor.h"

#include "runtime/RuntimeAbi.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

namespace torus::rt {
namespace {

using nlohmann::json;
using ::testing::StartsWith;

// in -> all-reduce -> out.
void allReduceEntry(void **buffers) {
  __torus_collective(0, buffers[0], buffers[1]);
}

Program allReduceProgram(int64_t replicas) {
  Program p;
  p.spec.name = "sum";
  p.spec.numReplicas = replicas;
  CollectiveSpec c;
  c.kind = CollectiveKind::AllReduce;
  c.operand = TensorSpec{DType::F32, {4}};
  c.result = c.operand;
  c.location = "sum.mlir:3:7";
  p.spec.inputs = {c.operand};
  p.spec.outputs = {c.result};
  p.spec.collectives = {c};
  p.entry = &allReduceEntry;
  return p;
}

std::vector<std::vector<HostTensor>> inputs(int64_t replicas) {
  std::vector<std::vector<HostTensor>> in(replicas);
  for (int64_t r = 0; r < replicas; ++r) {
    HostTensor t(TensorSpec{DType::F32, {4}});
    float values[4] = {float(r), 1, 2, 3};
    std::memcpy(t.rawData(), values, sizeof values);
    in[r].push_back(std::move(t));
  }
  return in;
}

struct Span {
  std::string name;
  int64_t start, end; // ns
};

/// The spans of `pid` by tid, and the track names.
std::map<int64_t, std::vector<Span>> spansOf(const json &trace, int64_t pid,
                                             std::map<int64_t, std::string>
                                                 &names) {
  std::map<int64_t, std::vector<Span>> out;
  for (const json &e : trace["traceEvents"]) {
    if (e["pid"] != pid)
      continue;
    if (e["ph"] == "M" && e["name"] == "thread_name")
      names[e["tid"]] = e["args"]["name"];
    if (e["ph"] == "X") {
      int64_t start = std::llround(e["ts"].get<double>() * 1000);
      out[e["tid"]].push_back(
          {e["name"], start,
           start + std::llround(e["dur"].get<double>() * 1000)});
    }
  }
  return out;
}

bool within(const Span &inner, const Span &outer) {
  return outer.start <= inner.start && inner.end <= outer.end;
}

TEST(ExecutorTraceTest, EveryCoreHasATrackWithItsStepsCollectivesAndWaits) {
  auto topology = Topology::fromPreset("v4-8");
  ASSERT_TRUE(topology.ok());
  auto executor = Executor::create(*topology);
  ASSERT_TRUE(executor.ok()) << executor.status();
  const int64_t replicas = 4, steps = 2;
  Program program = allReduceProgram(replicas);
  ProgramCounts counts;
  counts.f32Flops = 1e6;
  TraceRecorder trace;
  RunOptions options;
  options.stepsPerRun = steps;
  options.carried = {{0, 0}};
  options.costCounts = &counts;
  options.trace = &trace;
  auto traced = (*executor)->run(program, inputs(replicas), options);
  ASSERT_TRUE(traced.ok()) << traced.status();

  // Tracing changes nothing: the same run untraced gives the same bytes
  // (step 1 sums step 0's sums: 4 * (0+1+2+3) = 24 in element 0).
  options.trace = nullptr;
  auto plain = (*executor)->run(program, inputs(replicas), options);
  ASSERT_TRUE(plain.ok());
  for (int64_t r = 0; r < replicas; ++r) {
    const float *t = static_cast<const float *>((*traced)[r][0].rawData());
    const float *p = static_cast<const float *>((*plain)[r][0].rawData());
    EXPECT_EQ(std::memcmp(t, p, 16), 0);
    EXPECT_EQ(t[0], 24.0f);
    EXPECT_EQ(t[1], 16.0f);
  }

  json parsed = json::parse(trace.toJson());
  std::map<int64_t, std::string> names;
  auto cores = spansOf(parsed, kTraceCoresPid, names);
  ASSERT_EQ(cores.size(), 4u);
  int64_t waits = 0, everyShare = 0, moves = 0;
  for (int64_t core = 0; core < replicas; ++core) {
    SCOPED_TRACE("core " + std::to_string(core));
    ASSERT_TRUE(cores.count(core + 1));
    EXPECT_EQ(names[core + 1], "core " + std::to_string(core) + " (replica " +
                                   std::to_string(core) + ")");
    const auto &spans = cores[core + 1];
    std::map<std::string, std::vector<Span>> byName;
    for (const Span &s : spans)
      byName[s.name].push_back(s);
    EXPECT_EQ(byName["host to device"].size(), 1u);
    EXPECT_EQ(byName["device to host"].size(), 1u);
    ASSERT_EQ(byName["step 0"].size(), 1u);
    ASSERT_EQ(byName["step 1"].size(), 1u);
    EXPECT_LE(byName["host to device"][0].end, byName["step 0"][0].start);
    EXPECT_LE(byName["step 0"][0].end, byName["step 1"][0].start);
    EXPECT_LE(byName["step 1"][0].end, byName["device to host"][0].start);
    // One all-reduce per step, inside it.
    const auto &collectives = byName["all_reduce #0 at sum.mlir:3:7"];
    ASSERT_EQ(collectives.size(), 2u);
    EXPECT_TRUE(within(collectives[0], byName["step 0"][0]) ||
                within(collectives[0], byName["step 1"][0]));
    // Waits and data movement happen inside a collective.
    for (const char *inner :
         {"wait for peers", "move data", "move data (every share)"})
      for (const Span &s : byName[inner])
        EXPECT_TRUE(within(s, collectives[0]) || within(s, collectives[1]))
            << inner;
    waits += byName["wait for peers"].size();
    everyShare += byName["move data (every share)"].size();
    moves += byName["move data"].size();
  }
  // Every invocation: all but the last to arrive wait; a 16-byte
  // all-reduce is done whole by the last one.
  EXPECT_EQ(waits, (replicas - 1) * steps);
  EXPECT_EQ(everyShare, steps);
  EXPECT_EQ(moves, 0);

  // The cost model's steps on the same cores.
  std::map<int64_t, std::string> simulatedNames;
  auto simulated = spansOf(parsed, kTraceSimulatedPid, simulatedNames);
  ASSERT_EQ(simulated.size(), 4u);
  for (const auto &[tid, spans] : simulated) {
    EXPECT_EQ(simulatedNames[tid], "core " + std::to_string(tid - 1));
    std::map<std::string, std::vector<Span>> byName;
    for (const Span &s : spans)
      byName[s.name].push_back(s);
    ASSERT_EQ(byName["step 0"].size(), 1u);
    ASSERT_EQ(byName["step 1"].size(), 1u);
    ASSERT_EQ(byName["compute"].size(), 2u);
    ASSERT_EQ(byName["all_reduce #0 at sum.mlir:3:7"].size(), 2u);
    const Span &step0 = byName["step 0"][0];
    EXPECT_EQ(byName["step 1"][0].start, step0.end); // back to back
    EXPECT_GT(step0.end, step0.start);
    EXPECT_TRUE(within(byName["compute"][0], step0));
    EXPECT_EQ(byName["compute"][0].start, step0.start);
    // The collective follows the compute and ends the step.
    const Span &reduce = byName["all_reduce #0 at sum.mlir:3:7"][0];
    EXPECT_EQ(reduce.start, byName["compute"][0].end);
    EXPECT_LE(std::abs(reduce.end - step0.end), 1);
  }
  bool namedSimulated = false;
  for (const json &e : parsed["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name" &&
        e["pid"] == kTraceSimulatedPid)
      namedSimulated = e["args"]["name"] == "simulated TPU v4-8 (cost model)";
  EXPECT_TRUE(namedSimulated);
}

// Two kernels around the all-reduce, as torus-trace-kernels brackets them.
void kernelsEntry(void **buffers) {
  __torus_kernel_begin("fusion.0 at k.mlir:1:1");
  __torus_kernel_end();
  __torus_collective(0, buffers[0], buffers[1]);
  __torus_kernel_begin("fusion.1 at k.mlir:2:1");
  __torus_kernel_end();
}

TEST(ExecutorTraceTest, KernelSpansGoToTheCoresTrackWhenTraced) {
  auto executor = Executor::create(2);
  ASSERT_TRUE(executor.ok());
  Program program = allReduceProgram(2);
  program.entry = &kernelsEntry;
  TraceRecorder trace;
  RunOptions options;
  options.trace = &trace;
  ASSERT_TRUE((*executor)->run(program, inputs(2), options).ok());
  json parsed = json::parse(trace.toJson());
  std::map<int64_t, std::string> names;
  auto cores = spansOf(parsed, kTraceCoresPid, names);
  ASSERT_EQ(cores.size(), 2u);
  for (const auto &[tid, spans] : cores) {
    std::map<std::string, std::vector<Span>> byName;
    for (const Span &s : spans)
      byName[s.name].push_back(s);
    ASSERT_EQ(byName["fusion.0 at k.mlir:1:1"].size(), 1u);
    ASSERT_EQ(byName["fusion.1 at k.mlir:2:1"].size(), 1u);
    ASSERT_EQ(byName["all_reduce #0 at sum.mlir:3:7"].size(), 1u);
    const Span &step = byName["step 0"].at(0);
    EXPECT_TRUE(within(byName["fusion.0 at k.mlir:1:1"][0], step));
    EXPECT_LE(byName["fusion.0 at k.mlir:1:1"][0].end,
              byName["all_reduce #0 at sum.mlir:3:7"][0].start);
    EXPECT_LE(byName["all_reduce #0 at sum.mlir:3:7"][0].end,
              byName["fusion.1 at k.mlir:2:1"][0].start);
  }
  // Untraced, the calls return at once: the recorder of the last run gets
  // nothing more.
  const size_t recorded = trace.numSpans();
  options.trace = nullptr;
  ASSERT_TRUE((*executor)->run(program, inputs(2), options).ok());
  EXPECT_EQ(trace.numSpans(), recorded);
}

TEST(ExecutorTraceTest, NoTopologyMeansNoSimulatedTracks) {
  auto executor = Executor::create(2);
  ASSERT_TRUE(executor.ok());
  ProgramCounts counts;
  TraceRecorder trace;
  RunOptions options;
  options.costCounts = &counts;
  options.trace = &trace;
  ASSERT_TRUE((*executor)->run(allReduceProgram(2), inputs(2), options).ok());
  json parsed = json::parse(trace.toJson());
  std::map<int64_t, std::string> names;
  EXPECT_EQ(spansOf(parsed, kTraceCoresPid, names).size(), 2u);
  EXPECT_TRUE(spansOf(parsed, kTraceSimulatedPid, names).empty());
}

} // namespace
} // namespace torus::rt
