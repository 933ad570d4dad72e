//===- spmd_compile_bench.cpp - Compile time against the partition count --===//
//
// The SPMD partitioner emits one program for every logical device,
// parameterized by partition_id, so compiling for 128 partitions should
// cost what compiling for 2 does. Each case traces the same step with its
// weights split over P logical devices, then measures:
//
//   BM_Compile/P        torus::compile() end to end (propagation,
//                       partitioning, lowering, LLVM, JIT load);
//   BM_ShardingStages/P the sharding and SPMD stages alone (propagation,
//                       partitioning and the collective passes), timed
//                       between the compiler's stage callbacks;
//   BM_CompileTileShapes/P  the control: an unannotated MLP whose weights
//                       have the shapes of one device's tiles for P,
//                       compiled for one device (what the per-device
//                       program costs LLVM, without any partitioning).
//
// `vs_unsharded` divides by the same measurement of the unannotated step
// compiled for one device, taken in the same process just before (two
// models: a Megatron MLP, two column/row pairs of width 1024; a 4-layer
// attention stack with 128 heads).
//
//===----------------------------------------------------------------------===//

#include "codegen/Compiler.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "torus/Compile.h"
#include "torus/Sharding.h"
#include "torus/Trace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>

namespace {

using namespace torus;
using Clock = std::chrono::steady_clock;

/// A Megatron MLP: x[64,512] through two (column split, row split) pairs
/// of width 1024.
absl::StatusOr<TracedFunction> traceMlp(int64_t partitions) {
  std::vector<TensorSpec> specs = {{DType::F32, {64, 512}},
                                   {DType::F32, {512, 1024}},
                                   {DType::F32, {1024, 512}},
                                   {DType::F32, {512, 1024}},
                                   {DType::F32, {1024, 512}}};
  LogicalDeviceScope scope(partitions);
  return trace("mlp", specs, [partitions](const std::vector<Tensor> &in) {
    std::vector<Tensor> w(in.begin() + 1, in.end());
    if (partitions > 1)
      for (size_t i = 0; i < w.size(); ++i)
        w[i] = splitToLogicalDevices(
            w[i], i % 2 == 0 ? std::vector<int64_t>{1, partitions}
                             : std::vector<int64_t>{partitions, 1});
    Tensor h = relu(matmul(in[0], w[0]));
    h = matmul(h, w[1]);
    h = relu(matmul(h, w[2]));
    return matmul(h, w[3]);
  });
}

/// The MLP with the weight shapes one device holds when split P ways.
absl::StatusOr<TracedFunction> traceMlpTile(int64_t partitions) {
  int64_t hidden = 1024 / partitions;
  std::vector<TensorSpec> specs = {{DType::F32, {64, 512}},
                                   {DType::F32, {512, hidden}},
                                   {DType::F32, {hidden, 512}},
                                   {DType::F32, {512, hidden}},
                                   {DType::F32, {hidden, 512}}};
  return trace("mlp", specs, [](const std::vector<Tensor> &in) {
    Tensor h = relu(matmul(in[0], in[1]));
    h = matmul(h, in[2]);
    h = relu(matmul(h, in[3]));
    return matmul(h, in[4]);
  });
}

/// Four attention blocks of 128 heads (of 4) over x[2,16,512].
absl::StatusOr<TracedFunction> traceAttention(int64_t partitions) {
  const int64_t B = 2, S = 16, H = 128, dh = 4, E = H * dh;
  std::vector<TensorSpec> specs = {{DType::F32, {B, S, E}},
                                   {DType::F32, {E, E}},
                                   {DType::F32, {E, E}}};
  LogicalDeviceScope scope(partitions);
  return trace("attention", specs, [=](const std::vector<Tensor> &in) {
    Tensor x = in[0], wqkv = in[1], wo = in[2];
    if (partitions > 1) {
      wqkv = splitToLogicalDevices(wqkv, {1, partitions});
      wo = splitToLogicalDevices(wo, {partitions, 1});
    }
    for (int layer = 0; layer < 4; ++layer) {
      Tensor q = transpose(reshape(matmul(x, wqkv), {B, S, H, dh}),
                           {0, 2, 1, 3});
      Tensor p = softmax(dotGeneral(q, q, {{0, 1}, {0, 1}, {3}, {3}}) * 0.5);
      Tensor c = dotGeneral(p, q, {{0, 1}, {0, 1}, {3}, {2}});
      x = x + matmul(reshape(transpose(c, {0, 2, 1, 3}), {B, S, E}), wo);
    }
    return x;
  });
}

using TraceFnPtr = absl::StatusOr<TracedFunction> (*)(int64_t);

/// Seconds of the sharding and SPMD stages of compiling `fn`.
double shardingStagesSeconds(const TracedFunction &fn, int64_t partitions) {
  auto context = createTorusContext();
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(fn.toString(), context.get());
  mlir::torus::CompilerOptions options;
  options.numPartitions = partitions;
  Clock::time_point start, end;
  options.afterStage = [&](mlir::torus::Stage stage, mlir::ModuleOp) {
    if (stage == mlir::torus::Stage::Torus)
      start = Clock::now();
    if (stage == mlir::torus::Stage::Spmd)
      end = Clock::now();
  };
  absl::Status s =
      mlir::torus::lowerToStage(*module, mlir::torus::Stage::Spmd, options);
  if (!s.ok()) {
    std::cerr << s << "\n";
    std::abort();
  }
  return std::chrono::duration<double>(end - start).count();
}

double compileSeconds(const TracedFunction &fn, int64_t partitions) {
  auto start = Clock::now();
  auto exe = compile(fn, {.numReplicas = 1, .numPartitions = partitions});
  auto end = Clock::now();
  if (!exe.ok()) {
    std::cerr << exe.status() << "\n";
    std::abort();
  }
  benchmark::DoNotOptimize(exe->inputs().size());
  return std::chrono::duration<double>(end - start).count();
}

TracedFunction traced(TraceFnPtr traceFn, int64_t partitions) {
  auto fn = traceFn(partitions);
  if (!fn.ok()) {
    std::cerr << fn.status() << "\n";
    std::abort();
  }
  return std::move(*fn);
}

template <bool WholeCompile>
void run(benchmark::State &state, TraceFnPtr traceFn) {
  int64_t partitions = state.range(0);
  TracedFunction sharded = traced(traceFn, partitions);
  TracedFunction unsharded = traced(traceFn, 1);
  auto measure = [&](const TracedFunction &fn, int64_t p) {
    return WholeCompile ? compileSeconds(fn, p)
                        : shardingStagesSeconds(fn, p);
  };
  double reference = measure(unsharded, 1);
  double total = 0;
  for (auto _ : state) {
    double seconds = measure(sharded, partitions);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  double mean = total / std::max<int64_t>(1, state.iterations());
  state.counters["vs_unsharded"] = mean / reference;
}

void BM_CompileMlp(benchmark::State &state) { run<true>(state, &traceMlp); }
void BM_ShardingStagesMlp(benchmark::State &state) {
  run<false>(state, &traceMlp);
}
void BM_CompileAttention(benchmark::State &state) {
  run<true>(state, &traceAttention);
}
void BM_ShardingStagesAttention(benchmark::State &state) {
  run<false>(state, &traceAttention);
}

void BM_CompileTileShapes(benchmark::State &state) {
  TracedFunction tile = traced(&traceMlpTile, state.range(0));
  TracedFunction whole = traced(&traceMlpTile, 1);
  double reference = compileSeconds(whole, 1);
  double total = 0;
  for (auto _ : state) {
    double seconds = compileSeconds(tile, 1);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["vs_unsharded"] =
      total / std::max<int64_t>(1, state.iterations()) / reference;
}

#define PARTITIONS Arg(2)->Arg(8)->Arg(32)->Arg(128)
BENCHMARK(BM_CompileMlp)->PARTITIONS->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileTileShapes)->PARTITIONS->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ShardingStagesMlp)->PARTITIONS->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileAttention)->PARTITIONS->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ShardingStagesAttention)->PARTITIONS->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
