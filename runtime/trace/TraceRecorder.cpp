//===- TraceRecorder.cpp - Timelines as Chrome/Perfetto trace JSON --------===//

#include "runtime/trace/TraceRecorder.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace torus::rt {

namespace {
thread_local const TraceTrack *currentTrack = nullptr;

/// Nanoseconds as the format's microseconds, exactly (three decimals).
nlohmann::json micros(int64_t ns) {
  return static_cast<double>(ns) / 1000.0;
}

nlohmann::json argValue(const TraceArg &arg) {
  return std::visit([](const auto &v) { return nlohmann::json(v); },
                    arg.value);
}
} // namespace

TraceRecorder::TraceRecorder() : origin_(std::chrono::steady_clock::now()) {}

int64_t TraceRecorder::now() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now() - origin_)
      .count();
}

void TraceRecorder::nameProcess(int64_t pid, std::string_view name,
                                int64_t sortIndex) {
  std::lock_guard<std::mutex> lock(mutex_);
  processes_[pid] = {std::string(name), sortIndex};
}

void TraceRecorder::nameThread(int64_t pid, int64_t tid, std::string_view name,
                               int64_t sortIndex) {
  std::lock_guard<std::mutex> lock(mutex_);
  threads_[{pid, tid}] = {std::string(name), sortIndex};
}

bool TraceRecorder::hasThread(int64_t pid, int64_t tid) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return threads_.count({pid, tid}) > 0;
}

void TraceRecorder::addSpan(int64_t pid, int64_t tid, std::string_view name,
                            std::string_view category, int64_t startNs,
                            int64_t durationNs, std::vector<TraceArg> args) {
  std::lock_guard<std::mutex> lock(mutex_);
  spans_.push_back({pid, tid, std::string(name), std::string(category),
                    startNs, std::max<int64_t>(durationNs, 0),
                    std::move(args)});
}

size_t TraceRecorder::numSpans() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return spans_.size();
}

std::string TraceRecorder::toJson() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json events = nlohmann::json::array();
  for (const auto &[pid, process] : processes_) {
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"ts", 0},
                      {"pid", pid}, {"tid", 0},
                      {"args", {{"name", process.name}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"},
                      {"ts", 0}, {"pid", pid}, {"tid", 0},
                      {"args", {{"sort_index", process.sortIndex}}}});
  }
  for (const auto &[key, thread] : threads_) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"ts", 0},
                      {"pid", key.first}, {"tid", key.second},
                      {"args", {{"name", thread.name}}}});
    events.push_back({{"name", "thread_sort_index"}, {"ph", "M"},
                      {"ts", 0}, {"pid", key.first}, {"tid", key.second},
                      {"args", {{"sort_index", thread.sortIndex}}}});
  }
  // By start, longest first: a parent precedes the spans it encloses, as
  // the viewers expect of "X" events that begin together.
  std::vector<const Span *> order;
  order.reserve(spans_.size());
  for (const Span &span : spans_)
    order.push_back(&span);
  // Ties keep the recording order (the pointers' order in spans_).
  std::sort(order.begin(), order.end(), [](const Span *a, const Span *b) {
    if (a->start != b->start)
      return a->start < b->start;
    if (a->duration != b->duration)
      return a->duration > b->duration;
    return a < b;
  });
  for (const Span *span : order) {
    nlohmann::json event = {{"name", span->name},
                            {"ph", "X"},
                            {"ts", micros(span->start)},
                            {"dur", micros(span->duration)},
                            {"pid", span->pid},
                            {"tid", span->tid}};
    if (!span->category.empty())
      event["cat"] = span->category;
    if (!span->args.empty()) {
      nlohmann::json args = nlohmann::json::object();
      for (const TraceArg &arg : span->args)
        args[arg.key] = argValue(arg);
      event["args"] = std::move(args);
    }
    events.push_back(std::move(event));
  }
  nlohmann::json trace = {{"traceEvents", std::move(events)},
                          {"displayTimeUnit", "ns"}};
  // Names come from programs and files: invalid UTF-8 is replaced, not
  // thrown.
  return trace.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

absl::Status TraceRecorder::writeFile(const std::string &path) const {
  const std::string text = toJson();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return absl::PermissionDeniedError(fmt::format(
        "cannot write the trace '{}': {}", path, std::strerror(errno)));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out)
    return absl::PermissionDeniedError(fmt::format(
        "cannot write the trace '{}': {}", path, std::strerror(errno)));
  return absl::OkStatus();
}

TraceTrack::TraceTrack(TraceRecorder *recorder, int64_t pid, int64_t tid)
    : recorder_(recorder), pid_(pid), tid_(tid), previous_(currentTrack) {
  currentTrack = recorder ? this : nullptr;
}

TraceTrack::~TraceTrack() { currentTrack = previous_; }

const TraceTrack *TraceTrack::current() { return currentTrack; }

TraceSpan::TraceSpan(std::string_view name, std::string_view category)
    : track_(currentTrack) {
  if (!track_)
    return;
  name_ = name;
  category_ = category;
  start_ = track_->recorder().now();
}

TraceSpan::~TraceSpan() {
  if (!track_)
    return;
  TraceRecorder &recorder = track_->recorder();
  recorder.addSpan(track_->pid(), track_->tid(), name_, category_, start_,
                   recorder.now() - start_, std::move(args_));
}

void TraceSpan::addArg(std::string_view key, int64_t value) {
  if (track_)
    args_.push_back({std::string(key), value});
}
void TraceSpan::addArg(std::string_view key, double value) {
  if (track_)
    args_.push_back({std::string(key), value});
}
void TraceSpan::addArg(std::string_view key, std::string_view value) {
  if (track_)
    args_.push_back({std::string(key), std::string(value)});
}

} // namespace torus::rt
