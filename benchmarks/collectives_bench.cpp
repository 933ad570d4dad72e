//===- collectives_bench.cpp - In-process collectives and dispatch --------===//
//
// Google Benchmark programs for the runtime's emulated cores:
//
//   BM_Memcpy/N/S         the reference: one glibc memcpy of N x S bytes
//                         (what an all-reduce of S bytes over N cores moves:
//                         every core's buffer read and written)
//   BM_AllReduce/N/S/A    an f32 sum all-reduce of S bytes per core over N
//                         emulated cores (threads) with algorithm A (0
//                         direct, 1 ring, 2 torus over a mesh placement);
//                         counters: algbw = S / time, busbw = N x S / time,
//                         and vs_memcpy = busbw / memcpy bandwidth, where the
//                         memcpy of N x S bytes is measured in the same
//                         process just before and just after (median of 10)
//   BM_AllReduceLatency/N an all-reduce of 64 bytes per core: the rendezvous
//                         cost
//   BM_PoolWake/N         the floor under it: waking N core threads with an
//                         empty task and waiting for them
//   BM_EmptyStep/N/K      Executor::run of an empty program on N cores with
//                         K steps per run: host dispatch time per run
//   BM_LoadedEmptyStep/N/K  the same program resident on its cores
//                         (LoadedProgram::step(K)): the dispatch of a step
//                         with nothing validated, transferred or allocated
//   BM_ParallelFor/T      one kernel's parallel loop of 2T blocks of 10 us
//                         on T host threads (__torus_parallel_for), one
//                         loop after another: 20 us when starting and
//                         joining the threads costs nothing
//
// Buffers hold non-zero data (all-zero pages stream faster on these VMs).
// Sizes are MiB per core. Run:
//   build/bin/collectives_bench --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "runtime/ParallelFor.h"
#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/executor/Executor.h"
#include "runtime/executor/LoadedProgram.h"
#include "runtime/executor/WorkerPool.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

namespace torus::rt {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

/// A page-aligned buffer filled with non-zero floats.
struct Buffer {
  explicit Buffer(size_t bytes)
      : data(static_cast<float *>(std::aligned_alloc(4096, roundUp(bytes)))),
        bytes(bytes) {
    size_t n = bytes / sizeof(float);
    for (size_t i = 0; i < n; ++i)
      data[i] = 1.0f + static_cast<float>(i % 97) * 0.25f;
  }
  ~Buffer() { std::free(data); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  static size_t roundUp(size_t b) { return (b + 4095) / 4096 * 4096; }
  float *data;
  size_t bytes;
};

/// Times of `count` memcpys of `bytes`, after a warm-up copy.
void timeMemcpy(size_t bytes, int count, std::vector<double> &times) {
  Buffer from(bytes), to(bytes);
  std::memcpy(to.data, from.data, bytes);
  for (int i = 0; i < count; ++i) {
    auto start = std::chrono::steady_clock::now();
    std::memcpy(to.data, from.data, bytes);
    benchmark::DoNotOptimize(to.data);
    benchmark::ClobberMemory();
    times.push_back(std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2]
                      : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

void BM_Memcpy(benchmark::State &state) {
  const size_t bytes = static_cast<size_t>(state.range(0) * state.range(1)) *
                       static_cast<size_t>(kMiB);
  Buffer from(bytes), to(bytes);
  for (auto _ : state) {
    std::memcpy(to.data, from.data, bytes);
    benchmark::DoNotOptimize(to.data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(bytes));
}

/// N persistent threads, one per emulated core, each doing one all-reduce
/// per round in lock step with the others.
class Team {
public:
  Team(int64_t n, size_t bytes, CollectiveAlgorithm algorithm)
      : n_(n), bytes_(bytes) {
    CommunicatorOptions options;
    options.algorithm = algorithm;
    if (algorithm == CollectiveAlgorithm::Torus) {
      // A [n/4, 2, 1, 2] mesh (or smaller): core, x and y rings.
      MeshPlacement p;
      int32_t x = static_cast<int32_t>(std::max<int64_t>(n / 4, 1));
      int32_t y = n >= 4 ? 2 : 1;
      int32_t c = n >= 2 ? 2 : 1;
      p.meshShape = {x, y, 1, c};
      for (int64_t id = 0; id < n; ++id)
        p.coordinates.push_back({static_cast<int32_t>((id / c) % x),
                                 static_cast<int32_t>(id / (c * x)), 0,
                                 static_cast<int32_t>(id % c)});
      options.placement = std::move(p);
    }
    comm_ = std::move(*InProcessCommunicator::create(n, std::move(options)));
    for (int64_t r = 0; r < n; ++r) {
      in_.push_back(std::make_unique<Buffer>(bytes));
      out_.push_back(std::make_unique<Buffer>(bytes));
    }
    for (int64_t r = 0; r < n; ++r)
      threads_.emplace_back([this, r] { loop(r); });
  }
  ~Team() {
    stop_.store(true);
    round_.fetch_add(1);
    round_.notify_all();
    for (auto &t : threads_)
      t.join();
  }

  /// One all-reduce on every core; returns when all are done.
  void round() {
    done_.store(0, std::memory_order_relaxed);
    round_.fetch_add(1, std::memory_order_release);
    round_.notify_all();
    int32_t seen;
    while ((seen = done_.load(std::memory_order_acquire)) < n_)
      done_.wait(seen, std::memory_order_acquire);
  }
  bool ok() const { return ok_.load(); }

private:
  void loop(int64_t r) {
    int32_t last = 0;
    for (;;) {
      int32_t now;
      while ((now = round_.load(std::memory_order_acquire)) == last)
        round_.wait(last, std::memory_order_acquire);
      last = now;
      if (stop_.load())
        return;
      absl::Status s = comm_->allReduce(
          CollectiveKey{0, 0, static_cast<uint64_t>(now)}, r, {},
          ReduceKind::Sum, DType::F32,
          static_cast<int64_t>(bytes_ / sizeof(float)), in_[r]->data,
          out_[r]->data, absl::Seconds(600));
      if (!s.ok())
        ok_.store(false);
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_)
        done_.notify_all();
    }
  }

  const int64_t n_;
  const size_t bytes_;
  std::unique_ptr<InProcessCommunicator> comm_;
  std::vector<std::unique_ptr<Buffer>> in_, out_;
  std::vector<std::thread> threads_;
  std::atomic<int32_t> round_{0};
  std::atomic<int32_t> done_{0};
  std::atomic<bool> stop_{false};
  std::atomic<bool> ok_{true};
};

void BM_AllReduce(benchmark::State &state) {
  const int64_t n = state.range(0);
  const size_t bytes = static_cast<size_t>(state.range(1) * kMiB);
  const auto algorithm = static_cast<CollectiveAlgorithm>(state.range(2) + 1);
  // The reference is measured right before and right after, in this
  // process, so both see the same machine; the median of the ten copies.
  std::vector<double> copies;
  timeMemcpy(n * bytes, 5, copies);
  {
    Team team(n, bytes, algorithm);
    team.round(); // warm up: first touch of every page
    for (auto _ : state)
      team.round();
    if (!team.ok())
      state.SkipWithError("an all-reduce failed");
  }
  timeMemcpy(n * bytes, 5, copies);
  const double reference = median(copies);
  const double iterations = static_cast<double>(state.iterations());
  state.counters["algbw"] = benchmark::Counter(
      static_cast<double>(bytes) * iterations, benchmark::Counter::kIsRate);
  state.counters["busbw"] = benchmark::Counter(
      static_cast<double>(n * bytes) * iterations,
      benchmark::Counter::kIsRate);
  state.counters["memcpy_bw"] =
      static_cast<double>(n * bytes) / reference; // bytes per second
  // vs_memcpy = busbw / memcpy_bw = reference time / all-reduce time: set
  // from the measured time in the report (a rate counter divides by time).
  state.counters["vs_memcpy"] = benchmark::Counter(
      reference * iterations, benchmark::Counter::kIsRate);
}

/// The cost of the rendezvous itself: an all-reduce of 64 bytes per core.
void BM_AllReduceLatency(benchmark::State &state) {
  Team team(state.range(0), 64, CollectiveAlgorithm::Direct);
  team.round();
  for (auto _ : state)
    team.round();
  if (!team.ok())
    state.SkipWithError("an all-reduce failed");
}

/// The floor under BM_EmptyStep: waking N core threads with an empty task
/// and waiting for them, nothing else.
void BM_PoolWake(benchmark::State &state) {
  const int64_t n = state.range(0);
  WorkerPool pool(n);
  std::vector<int64_t> workers(n);
  std::iota(workers.begin(), workers.end(), 0);
  std::function<void(int64_t)> task = [](int64_t) {};
  for (auto _ : state)
    pool.run(workers, task);
}

void emptyEntry(void **) {}

/// A block of a parallel loop that takes 10 us.
void busyBlock(void *, int64_t) {
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::microseconds(10);
  while (std::chrono::steady_clock::now() < end) {
  }
}

/// Back-to-back parallel loops of 2T blocks of 10 us on T host threads:
/// the time over 20 us is what starting and joining the threads costs.
void BM_ParallelFor(benchmark::State &state) {
  const int64_t threads = state.range(0);
  setParallelForThreads(threads);
  __torus_parallel_for(&busyBlock, nullptr, 2 * threads); // starts helpers
  for (auto _ : state)
    __torus_parallel_for(&busyBlock, nullptr, 2 * threads);
  setParallelForThreads(1);
}

/// A program that does nothing, on `n` replicas.
Program emptyProgram(int64_t n) {
  Program program;
  program.spec.name = "empty";
  program.spec.numReplicas = n;
  program.entry = &emptyEntry;
  return program;
}

/// Reports the time per step (range(1) steps per iteration) as `per_step`.
void countPerStep(benchmark::State &state) {
  state.counters["per_step"] = benchmark::Counter(
      static_cast<double>(state.iterations() * state.range(1)),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_EmptyStep(benchmark::State &state) {
  const int64_t n = state.range(0);
  auto executor = Executor::create(n);
  Program program = emptyProgram(n);
  std::vector<std::vector<HostTensor>> inputs(n);
  RunOptions options;
  options.stepsPerRun = state.range(1);
  (void)(*executor)->run(program, inputs, options); // warm up
  for (auto _ : state) {
    auto result = (*executor)->run(program, inputs, options);
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      break;
    }
  }
  countPerStep(state);
}

/// The same empty program resident on its cores (LoadedProgram): a step is
/// one wake of the core threads and one entry call per core, nothing
/// validated, transferred or allocated.
void BM_LoadedEmptyStep(benchmark::State &state) {
  const int64_t n = state.range(0);
  auto executor = Executor::create(n);
  Program program = emptyProgram(n);
  auto loaded = LoadedProgram::load(**executor, program);
  if (!loaded.ok()) {
    state.SkipWithError(std::string(loaded.status().message()).c_str());
    return;
  }
  (void)(*loaded)->step(); // warm up
  for (auto _ : state)
    if (!(*loaded)->step(state.range(1)).ok()) {
      state.SkipWithError("step failed");
      break;
    }
  countPerStep(state);
}

BENCHMARK(BM_Memcpy)
    ->ArgNames({"N", "MiB"})
    ->ArgsProduct({{8, 32}, {1, 16, 64}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AllReduce)
    ->ArgNames({"N", "MiB", "alg"})
    ->ArgsProduct({{8, 32}, {1, 16, 64}, {0}})
    ->Args({8, 16, 1})
    ->Args({8, 16, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AllReduceLatency)
    ->ArgName("N")
    ->Arg(8)
    ->Arg(32)
    ->Arg(256)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PoolWake)
    ->ArgName("N")
    ->Arg(8)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParallelFor)
    ->ArgName("T")
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EmptyStep)
    ->ArgNames({"N", "steps"})
    ->Args({8, 1})
    ->Args({8, 100})
    ->Args({64, 1})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LoadedEmptyStep)
    ->ArgNames({"N", "steps"})
    ->Args({1, 1})
    ->Args({8, 1})
    ->Args({8, 100})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

} // namespace
} // namespace torus::rt

BENCHMARK_MAIN();
