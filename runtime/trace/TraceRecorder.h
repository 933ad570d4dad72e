//===- TraceRecorder.h - Timelines as Chrome/Perfetto trace JSON -*- C++ -*-===//
//
// A TraceRecorder collects complete spans ("ph":"X" events: a name, a start
// and a duration) on tracks (a process id and a thread id, each named by a
// "ph":"M" metadata event) and writes them in the Trace Event Format's JSON
// Object form, which ui.perfetto.dev and chrome://tracing open:
//
//   {"traceEvents":[{"name":"all_reduce #0","ph":"X","ts":12.5,"dur":3.25,
//                    "pid":1,"tid":3,"cat":"collective","args":{...}}, ...],
//    "displayTimeUnit":"ns"}
//
// Times are nanoseconds of the steady clock since the recorder was made
// (written as microseconds with three decimals, the format's unit).
//
// Code records on the calling thread's track: a TraceTrack makes
// (recorder, pid, tid) the thread's current track for its lifetime, and a
// TraceSpan records the time between its construction and destruction on
// that track. With no current track (tracing off) a TraceSpan does nothing
// but test one thread-local pointer, so hooks can stay in hot paths
// (collectives, the executor's steps) and allocate nothing.
//
// Spans on one track nest or are disjoint when they come from TraceSpans on
// one thread (RAII); addSpan() lets callers lay out spans of their own (the
// cost model's simulated timeline) and keeps them as given.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_TRACE_TRACERECORDER_H
#define TORUS_RUNTIME_TRACE_TRACERECORDER_H

#include "torus/Status.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace torus::rt {

/// One entry of a span's "args": a number or a string.
struct TraceArg {
  std::string key;
  std::variant<int64_t, double, std::string> value;
};

class TraceRecorder {
public:
  TraceRecorder();
  TraceRecorder(const TraceRecorder &) = delete;
  TraceRecorder &operator=(const TraceRecorder &) = delete;

  /// Nanoseconds since the recorder was made.
  int64_t now() const;

  /// Names process `pid` (a group of tracks in the viewer); `sortIndex`
  /// orders processes (lower first).
  void nameProcess(int64_t pid, std::string_view name, int64_t sortIndex = 0);
  /// Names track `tid` of process `pid`; `sortIndex` orders the tracks.
  void nameThread(int64_t pid, int64_t tid, std::string_view name,
                  int64_t sortIndex = 0);
  /// Whether nameThread(pid, tid, ...) was called.
  bool hasThread(int64_t pid, int64_t tid) const;

  /// A complete span of `durationNs` (clamped to >= 0) from `startNs`.
  void addSpan(int64_t pid, int64_t tid, std::string_view name,
               std::string_view category, int64_t startNs, int64_t durationNs,
               std::vector<TraceArg> args = {});

  /// Spans recorded so far.
  size_t numSpans() const;

  /// The trace as Trace Event Format JSON (object form).
  std::string toJson() const;
  /// Writes toJson() to `path`; PermissionDenied naming the file when it
  /// cannot be written.
  absl::Status writeFile(const std::string &path) const;

private:
  struct Span {
    int64_t pid, tid;
    std::string name, category;
    int64_t start, duration;
    std::vector<TraceArg> args;
  };
  struct Name {
    std::string name;
    int64_t sortIndex;
  };
  const std::chrono::steady_clock::time_point origin_;
  mutable std::mutex mutex_;
  std::vector<Span> spans_;
  std::map<int64_t, Name> processes_;
  std::map<std::pair<int64_t, int64_t>, Name> threads_;
};

/// The calling thread's track while it lives: spans of TraceSpans made on
/// this thread go to (recorder, pid, tid). A null recorder makes no track
/// (and hides an enclosing one). Nests: the previous track comes back on
/// destruction.
class TraceTrack {
public:
  TraceTrack(TraceRecorder *recorder, int64_t pid, int64_t tid);
  ~TraceTrack();
  TraceTrack(const TraceTrack &) = delete;
  TraceTrack &operator=(const TraceTrack &) = delete;

  TraceRecorder &recorder() const { return *recorder_; }
  int64_t pid() const { return pid_; }
  int64_t tid() const { return tid_; }

  /// The calling thread's track, or null when it has none (tracing off).
  static const TraceTrack *current();

private:
  TraceRecorder *recorder_;
  int64_t pid_, tid_;
  const TraceTrack *previous_;
};

/// Records its lifetime as a span on the calling thread's track, if any.
/// `name` and `category` are copied only when there is a track.
class TraceSpan {
public:
  TraceSpan(std::string_view name, std::string_view category);
  ~TraceSpan();
  TraceSpan(const TraceSpan &) = delete;
  TraceSpan &operator=(const TraceSpan &) = delete;

  /// Whether the span is being recorded (the thread has a track).
  bool active() const { return track_ != nullptr; }
  /// Adds an entry to the span's args (ignored when inactive).
  void addArg(std::string_view key, int64_t value);
  void addArg(std::string_view key, double value);
  void addArg(std::string_view key, std::string_view value);

private:
  const TraceTrack *track_;
  int64_t start_ = 0;
  std::string name_, category_;
  std::vector<TraceArg> args_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_TRACE_TRACERECORDER_H
