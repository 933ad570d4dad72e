//===- CompileCache.cpp - Executables by program, options and target ------===//

#include "torus/CompileCache.h"
#include "api/TraceFiles.h"

#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/jit/JitModule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <future>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace torus {

namespace {

/// Converts to any field type: counts an aggregate's fields.
struct AnyField {
  template <typename T> operator T() const;
};
template <typename T, typename... Fields> constexpr size_t fieldCount() {
  if constexpr (requires { T{Fields{}..., AnyField{}}; })
    return fieldCount<T, Fields..., AnyField>();
  else
    return sizeof...(Fields);
}

// Every field of CompileOptions but dumpDir and traceFile decides the
// generated code, so those fields are the key (the target as resolved, in
// getOrCompile; kernel spans as TORUS_TRACE_TO turns them on); a hit writes
// no dumps and no compile trace.
static_assert(fieldCount<CompileOptions>() == 9,
              "CompileOptions changed: add the new field to optionsKey()");

std::string optionsKey(const CompileOptions &o) {
  return fmt::format(
      "replicas={} partitions={} opt={} fuse={} plan={} kernel-spans={}",
      o.numReplicas, o.numPartitions, o.optLevel, o.fuse, o.planBuffers,
      o.kernelSpans || traceToIsSet());
}

/// The program's text with its locations: two programs that differ only in
/// where they were traced compile to the same code but report errors at
/// different places, so they are different entries.
std::string programKey(const TracedFunction &fn) {
  std::string text;
  llvm::raw_string_ostream os(text);
  fn.impl().module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  return text;
}

using Result = absl::StatusOr<Executable>;

} // namespace

struct CompileCache::State {
  struct Entry {
    std::shared_future<Result> result;
    std::list<std::string>::iterator lruPosition;
  };

  size_t capacity;
  mutable std::mutex mutex;
  std::list<std::string> lru; // most recently used first
  std::unordered_map<std::string, Entry> entries;
  Stats stats;

  /// Drops least recently used entries beyond the capacity. The futures of
  /// dropped entries live on in whoever is waiting on them.
  void evict() {
    while (entries.size() > capacity) {
      entries.erase(lru.back());
      lru.pop_back();
      ++stats.evictions;
    }
  }
};

CompileCache::CompileCache(size_t capacity)
    : state_(std::make_unique<State>()) {
  state_->capacity = capacity == 0 ? 1 : capacity;
}

CompileCache::~CompileCache() = default;

absl::StatusOr<Executable>
CompileCache::getOrCompile(const TracedFunction &fn,
                           const CompileOptions &options) {
  // The target as resolved: the same spelling may mean another CPU when
  // TORUS_TARGET changes, and two spellings may mean one.
  TORUS_ASSIGN_OR_RETURN(rt::CpuTarget target,
                         rt::defaultCpuTarget(options.target));
  std::string key = optionsKey(options) + "\ntarget=" + target.triple + " " +
                    target.cpu + " " + target.features + "\n" +
                    programKey(fn);

  std::promise<Result> promise;
  {
    std::unique_lock<std::mutex> lock(state_->mutex);
    auto found = state_->entries.find(key);
    if (found != state_->entries.end()) {
      ++state_->stats.hits;
      state_->lru.splice(state_->lru.begin(), state_->lru,
                         found->second.lruPosition);
      std::shared_future<Result> result = found->second.result;
      // Wait outside the lock: another thread may still be compiling it.
      lock.unlock();
      return result.get();
    }
    ++state_->stats.misses;
    state_->lru.push_front(key);
    state_->entries.emplace(
        key, State::Entry{promise.get_future().share(), state_->lru.begin()});
    state_->evict();
  }

  Result result = compile(fn, options);
  promise.set_value(result);
  if (!result.ok()) {
    // Not cached: a later request compiles again (and reports again).
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto found = state_->entries.find(key);
    if (found != state_->entries.end()) {
      state_->lru.erase(found->second.lruPosition);
      state_->entries.erase(found);
    }
  }
  return result;
}

CompileCache::Stats CompileCache::stats() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  Stats stats = state_->stats;
  stats.entries = state_->entries.size();
  return stats;
}

void CompileCache::clear() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->entries.clear();
  state_->lru.clear();
}

struct Jit::State {
  std::mutex mutex;
  /// Executables by input signature: a call with a known signature neither
  /// traces nor looks up the program text.
  std::unordered_map<std::string, Executable> bySignature;
};

Jit::Jit(std::string name, TraceFn fn, CompileOptions options,
         std::shared_ptr<CompileCache> cache)
    : name_(std::move(name)), fn_(std::move(fn)), options_(options),
      cache_(cache ? std::move(cache) : std::make_shared<CompileCache>()),
      state_(std::make_unique<State>()) {}

Jit::Jit(Jit &&) noexcept = default;
Jit &Jit::operator=(Jit &&) noexcept = default;
Jit::~Jit() = default;

absl::StatusOr<Executable>
Jit::executableFor(const std::vector<TensorSpec> &inputs) {
  std::string signature;
  for (const TensorSpec &spec : inputs)
    signature += spec.toString() + ";";
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto found = state_->bySignature.find(signature);
    if (found != state_->bySignature.end())
      return found->second;
  }
  TORUS_ASSIGN_OR_RETURN(TracedFunction traced, detail::traceFlat(name_, inputs, fn_, arity_));
  TORUS_ASSIGN_OR_RETURN(Executable exe,
                         cache_->getOrCompile(traced, options_));
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->bySignature.emplace(signature, exe).first->second;
}

absl::StatusOr<std::vector<std::vector<HostTensor>>>
Jit::run(EmulatedMesh &mesh,
         const std::vector<std::vector<HostTensor>> &inputs) {
  if (inputs.empty())
    return absl::InvalidArgumentError(fmt::format(
        "Jit '{}': run needs the inputs of at least one device", name_));
  std::vector<TensorSpec> signature;
  signature.reserve(inputs[0].size());
  for (const HostTensor &t : inputs[0])
    signature.push_back(t.spec());
  TORUS_ASSIGN_OR_RETURN(Executable exe, executableFor(signature));
  return mesh.run(exe, inputs);
}

} // namespace torus
