//===- codegen_bench.cpp - Generated code against hand-written references ===//
//
// Google Benchmark programs for what the compiler generates, each next to
// its reference in the same binary (so --benchmark_format=json holds both):
//
//   BM_Memcpy16M            the reference: glibc memcpy of 128 MiB, which
//                           reads and writes 256 MiB, the traffic of the
//                           chain below; bytes/s counts bytes read + written
//   BM_ReluChain16M         relu(a * b + c) on f32[16M], compiled by Torus
//                           and run resident on one core (LoadedProgram):
//                           reads 3 x 64 MiB, writes 64 MiB; vs_memcpy =
//                           memcpy time / chain time for the same 256 MiB
//                           of traffic (the memcpy's median of 5, measured
//                           in the same process just before the timed loop)
//   BM_RowSumScalarLoop     the reference: sum of each row of f32[4096,4096]
//                           as a sequential C++ loop (the naive lowering's
//                           order, which -O3 does not vectorize)
//   BM_RowSum               sum(x, -1) of the same, compiled by Torus
//                           (torus-vectorize-reductions), resident on one
//                           core; vs_scalar_loop = loop time / its time,
//                           vs_memcpy = its read bandwidth / memcpy's
//   BM_Transpose/r/c        transpose(x, {1, 0}) of f32[r, c] (the kernel
//                           stage's blocked transpose), resident on one
//                           core; vs_memcpy = a memcpy of the same bytes
//                           (median of 5, just before) / the transpose
//   BM_MlpStepOneDnn        a hand-written MLP training step (784-512-512-10,
//                           batch 256, softmax cross-entropy, forward +
//                           backward + SGD): oneDNN's dnnl_sgemm for the six
//                           GEMMs, simple loops for the rest, one thread
//   BM_MlpStepTorus         the same step traced, differentiated and compiled
//                           by Torus, resident on one core; vs_onednn = its
//                           time / the reference's (median of 9 steps
//                           measured just before), both on one thread;
//                           host_threads_ms: Torus's step when its large
//                           matmuls may use every host thread
//   BM_CompileMlpStep       trace + autodiff + compile() of that step
//   BM_OneOpStep            per-step overhead of a 1-op program (f32[1] add):
//                           /0 Executor::run (validation, transfers, one
//                           wake of the core thread), /1 LoadedProgram::step
//                           (one call into the generated code per core)
//   BM_DirectCall           the floor: calling that program's entry directly
//
// oneDNN runs single-threaded like one emulated core: the binary re-executes
// itself with OMP_NUM_THREADS=1 when it is unset. Torus's generated code is
// held to one thread as well (rt::limitParallelForThreads(1)); only
// BM_MlpStepTorus's host_threads_ms lets its large matmuls use every host
// thread, as a run on fewer cores than host threads does by default. Run:
//   build/bin/codegen_bench --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "api/ExecutableImpl.h"
#include "api/MlpTrainingStep.h"
#include "runtime/ParallelFor.h"
#include "runtime/executor/LoadedProgram.h"
#include "torus/Torus.h"

#include <benchmark/benchmark.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <unistd.h>
#include <vector>

using namespace torus;

namespace {

constexpr int64_t kChain = int64_t{16} << 20; // floats
constexpr int64_t kBatch = 256, kIn = 784, kHidden = 512, kClasses = 10;

void fill(float *p, size_t n, float scale = 1.0f) {
  for (size_t i = 0; i < n; ++i)
    p[i] = (1.0f + static_cast<float>(i % 97) * 0.25f) * scale *
           ((i % 3) ? 1.0f : -1.0f);
}

struct Aligned {
  explicit Aligned(size_t floats)
      : data(static_cast<float *>(
            std::aligned_alloc(4096, (floats * 4 + 4095) / 4096 * 4096))),
        n(floats) {
    fill(data, n);
  }
  ~Aligned() { std::free(data); }
  float *data;
  size_t n;
};

/// Median seconds of `runs` calls of `f`.
template <typename F> double medianSeconds(F &&f, int runs = 5) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Seconds per glibc memcpy of `bytes`, median of 5.
double memcpySeconds(size_t bytes) {
  Aligned src(bytes / 4), dst(bytes / 4);
  std::memcpy(dst.data, src.data, bytes);
  return medianSeconds([&] {
    std::memcpy(dst.data, src.data, bytes);
    benchmark::DoNotOptimize(dst.data);
  });
}

void BM_Memcpy16M(benchmark::State &state) {
  // The chain's traffic is 4 x 64 MiB; a memcpy of 128 MiB moves the same.
  const size_t bytes = kChain * 4 * 2;
  Aligned src(bytes / 4), dst(bytes / 4);
  std::memcpy(dst.data, src.data, bytes);
  for (auto _ : state) {
    std::memcpy(dst.data, src.data, bytes);
    benchmark::DoNotOptimize(dst.data);
  }
  state.SetBytesProcessed(state.iterations() * bytes * 2);
}

/// A program resident on the one core of its own executor.
struct Resident {
  std::unique_ptr<rt::Executor> executor; // outlives `loaded`
  std::unique_ptr<rt::LoadedProgram> loaded;
  rt::LoadedProgram *operator->() const { return loaded.get(); }
};

/// `exe` resident on one core, inputs filled, one step run (the first
/// touch of every buffer).
Resident loadResident(const Executable &exe,
                      std::vector<std::pair<int, int>> carried = {}) {
  auto executor = rt::Executor::create(1);
  if (!executor.ok()) {
    std::fprintf(stderr, "executor: %s\n",
                 executor.status().ToString().c_str());
    std::abort();
  }
  const rt::Program &program = exe.impl().program;
  std::vector<HostTensor> in;
  std::mt19937 gen(1);
  std::normal_distribution<float> normal(0.0f, 0.05f);
  for (const TensorSpec &spec : program.spec.inputs) {
    HostTensor t(spec);
    if (spec.dtype == DType::F32)
      for (float &v : t.data<float>())
        v = normal(gen);
    else if (spec.dtype == DType::I32)
      for (int32_t &v : t.data<int32_t>())
        v = static_cast<int32_t>(gen() % kClasses);
    in.push_back(std::move(t));
  }
  rt::RunOptions options;
  options.carried = std::move(carried);
  auto loaded = rt::LoadedProgram::load(**executor, program, {in}, options);
  if (!loaded.ok()) {
    std::fprintf(stderr, "load: %s\n", loaded.status().ToString().c_str());
    std::abort();
  }
  (void)(*loaded)->step();
  return {std::move(*executor), std::move(*loaded)};
}

/// Runs `loaded` once per benchmark iteration; seconds per step.
double timedSteps(benchmark::State &state, rt::LoadedProgram &loaded) {
  auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state)
    if (!loaded.step().ok())
      state.SkipWithError("step failed");
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
             .count() /
         std::max<int64_t>(1, state.iterations());
}

Executable compileOrDie(const absl::StatusOr<TracedFunction> &fn,
                        CompileOptions options = {}) {
  if (!fn.ok()) {
    std::fprintf(stderr, "trace: %s\n", fn.status().ToString().c_str());
    std::abort();
  }
  auto exe = compile(*fn, options);
  if (!exe.ok()) {
    std::fprintf(stderr, "compile: %s\n", exe.status().ToString().c_str());
    std::abort();
  }
  return *exe;
}

void BM_ReluChain16M(benchmark::State &state) {
  TensorSpec spec{DType::F32, {kChain}};
  auto fn = trace("relu_chain", {spec, spec, spec},
                  [](const std::vector<Tensor> &in) {
                    return std::vector<Tensor>{relu(in[0] * in[1] + in[2])};
                  });
  Executable exe = compileOrDie(fn);
  Resident loaded = loadResident(exe);
  const double memcpy = memcpySeconds(kChain * 4 * 2);
  const double seconds = timedSteps(state, *loaded.loaded);
  state.counters["vs_memcpy"] = memcpy / seconds;
  const double bytes = static_cast<double>(kChain) * 4 * 4;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["memcpy_GBps"] = 2.0 * kChain * 4 * 2 / memcpy / 1e9;
  state.counters["chain_GBps"] = benchmark::Counter(
      bytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["memcpy_s"] = memcpy;
}

// --- Reductions -------------------------------------------------------------

constexpr int64_t kRows = 4096, kRowLength = 4096; // 64 MiB of f32

/// The reference: the sequential loop the naive lowering compiles to (C++
/// at -O3 does not reorder a float sum either).
void rowSums(const float *x, float *out) {
  for (int64_t r = 0; r < kRows; ++r) {
    float s = 0;
    for (int64_t k = 0; k < kRowLength; ++k)
      s += x[r * kRowLength + k];
    out[r] = s;
  }
  benchmark::DoNotOptimize(out);
}

void BM_RowSumScalarLoop(benchmark::State &state) {
  Aligned x(kRows * kRowLength);
  std::vector<float> out(kRows);
  for (auto _ : state)
    rowSums(x.data, out.data());
  state.SetBytesProcessed(state.iterations() * kRows * kRowLength * 4);
}

/// sum(x, -1) on f32[4096, 4096], compiled by Torus (vectorized rows),
/// resident on one core; vs_scalar_loop = the loop's time / this time,
/// vs_memcpy = this read bandwidth / memcpy's (read + write) bandwidth.
void BM_RowSum(benchmark::State &state) {
  TensorSpec spec{DType::F32, {kRows, kRowLength}};
  auto fn = trace("row_sum", {spec}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{sum(in[0], {-1})};
  });
  Executable exe = compileOrDie(fn);
  Resident loaded = loadResident(exe);
  // The reference, timed just before (median of 5).
  Aligned x(kRows * kRowLength);
  std::vector<float> out(kRows);
  const double loop = medianSeconds([&] { rowSums(x.data, out.data()); });
  const double bytes = double(kRows) * kRowLength * 4;
  const double memcpy = memcpySeconds(static_cast<size_t>(bytes));
  const double seconds = timedSteps(state, *loaded.loaded);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["vs_scalar_loop"] = loop / seconds;
  state.counters["vs_memcpy"] = (bytes / seconds) / (2 * bytes / memcpy);
}

// --- Transposes -------------------------------------------------------------

void BM_Transpose(benchmark::State &state) {
  const int64_t rows = state.range(0), cols = state.range(1);
  auto fn = trace("transpose", {TensorSpec{DType::F32, {rows, cols}}},
                  [](const std::vector<Tensor> &in) {
                    return std::vector<Tensor>{transpose(in[0], {1, 0})};
                  });
  Executable exe = compileOrDie(fn);
  Resident loaded = loadResident(exe);
  const size_t bytes = static_cast<size_t>(rows * cols) * 4;
  const double memcpy = memcpySeconds(bytes);
  const double seconds = timedSteps(state, *loaded.loaded);
  state.counters["vs_memcpy"] = memcpy / seconds;
  state.counters["GBps"] = 2.0 * bytes / seconds / 1e9;
  state.counters["memcpy_GBps"] = 2.0 * bytes / memcpy / 1e9;
}

// --- The MLP step ------------------------------------------------------------

absl::StatusOr<TracedFunction> mlpStepFn() {
  return torus::testing::mlpTrainingStep({kBatch, kIn, kHidden, kClasses, 0.01f});
}

/// The reference: the same step by hand, oneDNN for the GEMMs.
struct OneDnnMlp {
  std::vector<float> w1, b1, w2, b2, w3, b3, x;
  std::vector<int32_t> labels;
  std::vector<float> h1, h2, logits, d3, d2, d1, g1, g2, g3;
  float loss = 0;

  OneDnnMlp()
      : w1(kIn * kHidden), b1(kHidden), w2(kHidden * kHidden), b2(kHidden),
        w3(kHidden * kClasses), b3(kClasses), x(kBatch * kIn),
        labels(kBatch), h1(kBatch * kHidden), h2(kBatch * kHidden),
        logits(kBatch * kClasses), d3(kBatch * kClasses),
        d2(kBatch * kHidden), d1(kBatch * kHidden), g1(kIn * kHidden),
        g2(kHidden * kHidden), g3(kHidden * kClasses) {
    std::mt19937 gen(1);
    std::normal_distribution<float> normal(0.0f, 0.05f);
    for (auto *v : {&w1, &b1, &w2, &b2, &w3, &b3, &x})
      for (float &f : *v)
        f = normal(gen);
    for (int32_t &l : labels)
      l = static_cast<int32_t>(gen() % kClasses);
  }

  static void gemm(char ta, char tb, int64_t m, int64_t n, int64_t k,
                   const float *a, int64_t lda, const float *b, int64_t ldb,
                   float *c, int64_t ldc) {
    dnnl_sgemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  }

  static void biasRelu(float *h, const float *bias, int64_t rows,
                       int64_t cols, bool relu) {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        float v = h[i * cols + j] + bias[j];
        h[i * cols + j] = relu ? std::max(v, 0.0f) : v;
      }
  }

  static void sgd(std::vector<float> &w, const std::vector<float> &g,
                  float lr) {
    for (size_t i = 0; i < w.size(); ++i)
      w[i] -= lr * g[i];
  }

  /// d/d bias: column sums of `d`, then the SGD update of the bias.
  static void biasStep(std::vector<float> &b, const float *d, int64_t rows,
                       float lr) {
    const int64_t cols = static_cast<int64_t>(b.size());
    for (int64_t j = 0; j < cols; ++j) {
      float s = 0;
      for (int64_t i = 0; i < rows; ++i)
        s += d[i * cols + j];
      b[j] -= lr * s;
    }
  }

  void step() {
    const float lr = 0.01f;
    // Forward.
    gemm('N', 'N', kBatch, kHidden, kIn, x.data(), kIn, w1.data(), kHidden,
         h1.data(), kHidden);
    biasRelu(h1.data(), b1.data(), kBatch, kHidden, true);
    gemm('N', 'N', kBatch, kHidden, kHidden, h1.data(), kHidden, w2.data(),
         kHidden, h2.data(), kHidden);
    biasRelu(h2.data(), b2.data(), kBatch, kHidden, true);
    gemm('N', 'N', kBatch, kClasses, kHidden, h2.data(), kHidden, w3.data(),
         kClasses, logits.data(), kClasses);
    biasRelu(logits.data(), b3.data(), kBatch, kClasses, false);
    // Softmax cross-entropy and its gradient.
    float total = 0;
    for (int64_t i = 0; i < kBatch; ++i) {
      const float *l = &logits[i * kClasses];
      float m = *std::max_element(l, l + kClasses), s = 0;
      for (int64_t c = 0; c < kClasses; ++c)
        s += std::exp(l[c] - m);
      const float logZ = m + std::log(s);
      total += logZ - l[labels[i]];
      for (int64_t c = 0; c < kClasses; ++c)
        d3[i * kClasses + c] =
            (std::exp(l[c] - logZ) - (c == labels[i] ? 1.0f : 0.0f)) /
            kBatch;
    }
    loss = total / kBatch;
    // Backward.
    gemm('T', 'N', kHidden, kClasses, kBatch, h2.data(), kHidden, d3.data(),
         kClasses, g3.data(), kClasses);
    gemm('N', 'T', kBatch, kHidden, kClasses, d3.data(), kClasses, w3.data(),
         kClasses, d2.data(), kHidden);
    for (int64_t i = 0; i < kBatch * kHidden; ++i)
      d2[i] = h2[i] > 0 ? d2[i] : 0.0f;
    gemm('T', 'N', kHidden, kHidden, kBatch, h1.data(), kHidden, d2.data(),
         kHidden, g2.data(), kHidden);
    gemm('N', 'T', kBatch, kHidden, kHidden, d2.data(), kHidden, w2.data(),
         kHidden, d1.data(), kHidden);
    for (int64_t i = 0; i < kBatch * kHidden; ++i)
      d1[i] = h1[i] > 0 ? d1[i] : 0.0f;
    gemm('T', 'N', kIn, kHidden, kBatch, x.data(), kIn, d1.data(), kHidden,
         g1.data(), kHidden);
    // SGD.
    sgd(w3, g3, lr);
    biasStep(b3, d3.data(), kBatch, lr);
    sgd(w2, g2, lr);
    biasStep(b2, d2.data(), kBatch, lr);
    sgd(w1, g1, lr);
    biasStep(b1, d1.data(), kBatch, lr);
  }
};

double oneDnnStepSeconds() {
  OneDnnMlp mlp;
  mlp.step();
  return medianSeconds([&] { mlp.step(); }, 9);
}

void BM_MlpStepOneDnn(benchmark::State &state) {
  OneDnnMlp mlp;
  mlp.step();
  for (auto _ : state) {
    mlp.step();
    benchmark::DoNotOptimize(mlp.loss);
  }
  state.counters["loss"] = mlp.loss;
}

void BM_MlpStepTorus(benchmark::State &state) {
  Executable exe = compileOrDie(mlpStepFn());
  std::vector<std::pair<int, int>> carried;
  for (int i = 0; i < 6; ++i)
    carried.push_back({i, i});
  Resident loaded = loadResident(exe, carried);
  const double reference = oneDnnStepSeconds();
  const double seconds = timedSteps(state, *loaded.loaded);
  state.counters["vs_onednn"] = seconds / reference;
  // The same step when its large matmuls may also use the host's other
  // threads (one core on a machine with more: __torus_parallel_for).
  rt::limitParallelForThreads(0);
  const double shared = medianSeconds([&] { (void)loaded->step(); }, 9);
  rt::limitParallelForThreads(1);
  state.counters["host_threads_ms"] = shared * 1e3;
  state.counters["host_threads"] =
      static_cast<double>(rt::hostThreads());
  HostTensor loss(TensorSpec{DType::F32, {}});
  (void)loaded->copyOutput(0, 6, loss);
  state.counters["loss"] = loss.data<float>()[0];
  state.counters["onednn_ms"] = reference * 1e3;
  state.counters["workspace_MiB"] =
      exe.impl().program.spec.workspaceBytes / double(1 << 20);
}

/// The MLP step's kernels one at a time, as the autodiff emits them, to
/// show where the step's time goes. Each part is its own program, resident
/// on one core; its time includes reading and writing its operands.
struct MlpPart {
  const char *name;
  std::vector<TensorSpec> inputs;
  std::function<Tensor(const std::vector<Tensor> &)> body;
};

const std::vector<MlpPart> &mlpParts() {
  const TensorSpec x{DType::F32, {kBatch, kIn}},
      h{DType::F32, {kBatch, kHidden}}, w1{DType::F32, {kIn, kHidden}},
      w2{DType::F32, {kHidden, kHidden}}, b{DType::F32, {kHidden}},
      w3{DType::F32, {kHidden, kClasses}}, b3{DType::F32, {kClasses}},
      y3{DType::F32, {kBatch, kClasses}};
  const DotDims contractBatch{{}, {}, {0}, {0}}, contractLast{{}, {}, {1}, {1}};
  static const std::vector<MlpPart> parts = {
      {"fwd1 relu(x.w1+b)", {x, w1, b},
       [](auto &a) { return relu(matmul(a[0], a[1]) + a[2]); }},
      {"fwd2 relu(h.w2+b)", {h, w2, b},
       [](auto &a) { return relu(matmul(a[0], a[1]) + a[2]); }},
      {"dh1 dy.w2^T", {h, w2},
       [=](auto &a) { return dotGeneral(a[0], a[1], contractLast); }},
      {"dw2 (dy^T.h)^T", {h, h},
       [=](auto &a) {
         return transpose(dotGeneral(a[0], a[1], contractBatch), {1, 0});
       }},
      {"dw1 (dy^T.x)^T", {h, x},
       [=](auto &a) {
         return transpose(dotGeneral(a[0], a[1], contractBatch), {1, 0});
       }},
      {"db sum(dy*mask,0)", {h, h},
       [](auto &a) { return sum(a[0] * greater(a[1], 0.0f), {0}); }},
      {"relu' dy*(h>0)", {h, h},
       [](auto &a) { return a[0] * greater(a[1], 0.0f); }},
      {"sgd w-0.01*g", {w1, w1},
       [](auto &a) { return a[0] - a[1] * 0.01f; }},
      {"logits h.w3+b", {h, w3, b3},
       [](auto &a) { return matmul(a[0], a[1]) + a[2]; }},
      {"dw3 (dy^T.h)^T", {y3, h},
       [=](auto &a) {
         return transpose(dotGeneral(a[0], a[1], contractBatch), {1, 0});
       }},
      {"dh2 dy.w3^T", {y3, w3},
       [=](auto &a) { return dotGeneral(a[0], a[1], contractLast); }},
  };
  return parts;
}

void BM_MlpStepPart(benchmark::State &state) {
  const MlpPart &part = mlpParts()[state.range(0)];
  state.SetLabel(part.name);
  Executable exe = compileOrDie(
      trace("mlp_part", part.inputs, [&](const std::vector<Tensor> &a) {
        return std::vector<Tensor>{part.body(a)};
      }));
  Resident loaded = loadResident(exe);
  (void)timedSteps(state, *loaded.loaded);
}

void BM_CompileMlpStep(benchmark::State &state) {
  for (auto _ : state) {
    Executable exe = compileOrDie(mlpStepFn());
    benchmark::DoNotOptimize(exe.impl().program.entry);
  }
}

// --- Dispatch -----------------------------------------------------------------

Executable oneOpProgram() {
  TensorSpec spec{DType::F32, {1}};
  return compileOrDie(trace("one_op", {spec, spec},
                            [](const std::vector<Tensor> &in) {
                              return std::vector<Tensor>{in[0] + in[1]};
                            }));
}

void BM_OneOpStep(benchmark::State &state) {
  Executable exe = oneOpProgram();
  if (state.range(0) == 0) {
    auto executor = rt::Executor::create(1);
    const rt::Program &program = exe.impl().program;
    std::vector<std::vector<HostTensor>> inputs(1);
    for (const TensorSpec &spec : program.spec.inputs)
      inputs[0].emplace_back(spec);
    (void)(*executor)->run(program, inputs);
    for (auto _ : state) {
      auto out = (*executor)->run(program, inputs);
      benchmark::DoNotOptimize(out);
    }
    return;
  }
  Resident loaded = loadResident(exe);
  (void)timedSteps(state, *loaded.loaded);
}

void BM_DirectCall(benchmark::State &state) {
  Executable exe = oneOpProgram();
  float a = 1, b = 2, c = 0;
  void *buffers[] = {&a, &b, &c};
  for (auto _ : state) {
    exe.impl().program.entry(buffers);
    benchmark::DoNotOptimize(c);
  }
}

// Wall time throughout: a step's work runs on the core threads, not on the
// benchmark's.
BENCHMARK(BM_Memcpy16M)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReluChain16M)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RowSumScalarLoop)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RowSum)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Transpose)
    ->Args({512, 784})
    ->Args({4096, 4096})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_MlpStepOneDnn)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MlpStepTorus)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MlpStepPart)
    ->DenseRange(0, 10)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_CompileMlpStep)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();
BENCHMARK(BM_OneOpStep)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_DirectCall)->Unit(benchmark::kNanosecond)->UseRealTime();

} // namespace

int main(int argc, char **argv) {
  // oneDNN's OpenMP reads the thread count when it loads: one thread, like
  // one emulated core, unless the caller chose otherwise.
  if (!std::getenv("OMP_NUM_THREADS")) {
    setenv("OMP_NUM_THREADS", "1", 1);
    execv("/proc/self/exe", argv);
  }
  // Generated code on one thread too (a large kernel would otherwise also
  // use the host's other threads when one core runs: ParallelFor.h).
  rt::limitParallelForThreads(1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
