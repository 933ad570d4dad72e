//===- TraceRecorderTest.cpp - Chrome/Perfetto trace JSON -----------------===//

#include "runtime/trace/TraceRecorder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <thread>

namespace torus::rt {
namespace {

using nlohmann::json;

json parse(const TraceRecorder &recorder) {
  return json::parse(recorder.toJson());
}

/// The "X" events of a trace.
std::vector<json> spans(const json &trace) {
  std::vector<json> out;
  for (const json &e : trace["traceEvents"])
    if (e["ph"] == "X")
      out.push_back(e);
  return out;
}

const json *find(const std::vector<json> &events, std::string_view name) {
  for (const json &e : events)
    if (e["name"] == name)
      return &e;
  return nullptr;
}

TEST(TraceRecorderTest, WritesTheObjectFormatWithNamedTracks) {
  TraceRecorder recorder;
  recorder.nameProcess(1, "cores");
  recorder.nameThread(1, 7, "core 7", 7);
  recorder.addSpan(1, 7, "step", "step", 1500, 2250,
                   {{"index", int64_t{3}}, {"what", std::string("x")}});
  json trace = parse(recorder);
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  ASSERT_TRUE(trace["traceEvents"].is_array());
  auto x = spans(trace);
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0]["name"], "step");
  EXPECT_EQ(x[0]["cat"], "step");
  EXPECT_EQ(x[0]["pid"], 1);
  EXPECT_EQ(x[0]["tid"], 7);
  // Microseconds, exact to the nanosecond.
  EXPECT_DOUBLE_EQ(x[0]["ts"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(x[0]["dur"].get<double>(), 2.25);
  EXPECT_EQ(x[0]["args"]["index"], 3);
  EXPECT_EQ(x[0]["args"]["what"], "x");

  bool processNamed = false, threadNamed = false;
  for (const json &e : trace["traceEvents"]) {
    ASSERT_TRUE(e.contains("ts")) << e.dump();
    if (e["ph"] == "M" && e["name"] == "process_name" && e["pid"] == 1)
      processNamed = e["args"]["name"] == "cores";
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == 1 &&
        e["tid"] == 7)
      threadNamed = e["args"]["name"] == "core 7";
  }
  EXPECT_TRUE(processNamed);
  EXPECT_TRUE(threadNamed);
  EXPECT_TRUE(recorder.hasThread(1, 7));
  EXPECT_FALSE(recorder.hasThread(1, 8));
}

TEST(TraceRecorderTest, NegativeDurationsAreClampedToZero) {
  TraceRecorder recorder;
  recorder.addSpan(1, 1, "backwards", "", 100, -50);
  auto x = spans(parse(recorder));
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0]["dur"].get<double>(), 0.0);
  EXPECT_FALSE(x[0].contains("cat"));
}

TEST(TraceRecorderTest, SpansWithoutATrackRecordNothing) {
  TraceRecorder recorder;
  ASSERT_EQ(TraceTrack::current(), nullptr);
  {
    TraceSpan span("untracked", "test");
    EXPECT_FALSE(span.active());
    span.addArg("ignored", int64_t{1});
  }
  {
    // A null recorder hides the enclosing track.
    TraceTrack outer(&recorder, 1, 1);
    TraceTrack off(nullptr, 1, 2);
    TraceSpan span("hidden", "test");
    EXPECT_FALSE(span.active());
  }
  EXPECT_EQ(recorder.numSpans(), 0u);
  EXPECT_EQ(TraceTrack::current(), nullptr);
}

TEST(TraceRecorderTest, NestedSpansNestOnTheThreadsTrack) {
  TraceRecorder recorder;
  {
    TraceTrack track(&recorder, 2, 5);
    EXPECT_EQ(TraceTrack::current(), &track);
    TraceSpan outer("outer", "test");
    EXPECT_TRUE(outer.active());
    outer.addArg("bytes", int64_t{64});
    outer.addArg("ratio", 0.5);
    {
      TraceSpan inner("inner", "test");
      inner.addArg("op", "all_reduce");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  EXPECT_EQ(TraceTrack::current(), nullptr);
  auto x = spans(parse(recorder));
  ASSERT_EQ(x.size(), 2u);
  // Parents come first.
  EXPECT_EQ(x[0]["name"], "outer");
  const json *outer = find(x, "outer"), *inner = find(x, "inner");
  ASSERT_TRUE(outer && inner);
  for (const json *e : {outer, inner}) {
    EXPECT_EQ((*e)["pid"], 2);
    EXPECT_EQ((*e)["tid"], 5);
  }
  const double os = (*outer)["ts"], od = (*outer)["dur"];
  const double is = (*inner)["ts"], id = (*inner)["dur"];
  EXPECT_GE(id, 1000.0); // slept 1 ms
  EXPECT_LE(os, is);
  EXPECT_LE(is + id, os + od);
  EXPECT_EQ((*outer)["args"]["bytes"], 64);
  EXPECT_EQ((*outer)["args"]["ratio"], 0.5);
  EXPECT_EQ((*inner)["args"]["op"], "all_reduce");
}

TEST(TraceRecorderTest, ThreadsRecordOnTheirOwnTracks) {
  TraceRecorder recorder;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&recorder, t] {
      TraceTrack track(&recorder, 1, t);
      for (int i = 0; i < 100; ++i)
        TraceSpan span("work", "test");
    });
  for (auto &thread : threads)
    thread.join();
  auto x = spans(parse(recorder));
  ASSERT_EQ(x.size(), 400u);
  std::map<int, int> perTrack;
  for (const json &e : x)
    ++perTrack[e["tid"].get<int>()];
  EXPECT_THAT(perTrack, testing::ElementsAre(testing::Pair(0, 100),
                                             testing::Pair(1, 100),
                                             testing::Pair(2, 100),
                                             testing::Pair(3, 100)));
}

TEST(TraceRecorderTest, NamesAreEscapedAndInvalidUtf8Replaced) {
  TraceRecorder recorder;
  recorder.nameProcess(1, "quote \" and \\ and \n");
  recorder.addSpan(1, 1, std::string("bad \xff byte"), "test", 0, 1);
  json trace = parse(recorder); // throws if not valid JSON
  auto x = spans(trace);
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0]["name"], "bad \xEF\xBF\xBD byte");
  EXPECT_THAT(recorder.toJson(), testing::HasSubstr(R"(quote \" and \\ and \n)"));
}

TEST(TraceRecorderTest, WriteFileWritesTheJsonAndNamesAnUnwritablePath) {
  TraceRecorder recorder;
  recorder.addSpan(1, 1, "s", "", 0, 10);
  auto path = std::filesystem::temp_directory_path() /
              ("trace-recorder-test-" + std::to_string(::getpid()) + ".json");
  ASSERT_TRUE(recorder.writeFile(path.string()).ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), recorder.toJson());
  std::filesystem::remove(path);

  absl::Status status = recorder.writeFile("/nonexistent-dir/trace.json");
  EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(status.message()),
              testing::HasSubstr("'/nonexistent-dir/trace.json'"));
}

} // namespace
} // namespace torus::rt
