//===- PassTracing.cpp - Every pass as a span of a trace ------------------===//

#include "codegen/PassTracing.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace mlir::torus {

namespace {

using ::torus::rt::TraceArg;
using ::torus::rt::TraceRecorder;
using ::torus::rt::TraceTrack;

/// Worker tracks are numbered from here, above any track a tool names.
constexpr int64_t kFirstWorkerTid = 1000;

class PassTracing : public PassInstrumentation {
public:
  explicit PassTracing(const TraceTrack &track)
      : recorder_(track.recorder()), pid_(track.pid()),
        mainThread_(std::this_thread::get_id()), mainTid_(track.tid()) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    const int64_t now = recorder_.now();
    std::lock_guard<std::mutex> lock(mutex_);
    open_[std::this_thread::get_id()].push_back(now);
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    record(pass, op, /*failed=*/false);
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    record(pass, op, /*failed=*/true);
  }

private:
  void record(Pass *pass, Operation *op, bool failed) {
    const int64_t end = recorder_.now();
    const std::thread::id thread = std::this_thread::get_id();
    int64_t start, tid;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::vector<int64_t> &stack = open_[thread];
      if (stack.empty())
        return; // not seen starting: nothing to close
      start = stack.back();
      stack.pop_back();
      tid = tidOf(thread);
    }
    // The adaptor running a nested pipeline has no argument.
    std::string name = !pass->getArgument().empty()
                           ? pass->getArgument().str()
                       : pass->getName().contains("OpToOpPassAdaptor")
                           ? std::string("nested pipeline")
                           : pass->getName().str();
    std::string on = op->getName().getStringRef().str();
    if (auto symbol = op->getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName()))
      on += " @" + symbol.getValue().str();
    std::vector<TraceArg> args = {{"op", on}};
    if (failed)
      args.push_back({"failed", int64_t{1}});
    recorder_.addSpan(pid_, tid, name, "pass", start, end - start,
                      std::move(args));
  }

  /// The track of `thread` (under mutex_). The k-th worker thread seen
  /// records on worker track k: pass managers run one after another, so
  /// the next one's workers may share the tracks.
  int64_t tidOf(std::thread::id thread) {
    if (thread == mainThread_)
      return mainTid_;
    auto [it, inserted] = workers_.try_emplace(thread, 0);
    if (inserted) {
      const int64_t k = static_cast<int64_t>(workers_.size());
      it->second = kFirstWorkerTid + k;
      recorder_.nameThread(pid_, it->second,
                           fmt::format("compile worker {}", k), it->second);
    }
    return it->second;
  }

  TraceRecorder &recorder_;
  const int64_t pid_;
  const std::thread::id mainThread_;
  const int64_t mainTid_;
  std::mutex mutex_;
  std::map<std::thread::id, std::vector<int64_t>> open_;
  std::map<std::thread::id, int64_t> workers_;
};

} // namespace

std::unique_ptr<PassInstrumentation>
createPassTracing(const ::torus::rt::TraceTrack &track) {
  return std::make_unique<PassTracing>(track);
}

} // namespace mlir::torus
