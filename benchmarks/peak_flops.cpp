//===- peak_flops.cpp - This host's f32 multiply-add throughput -----------===//
//
// The compute floor under a step: no compiler runs a program of F
// floating-point operations in less than F / (this rate) on these threads.
// jax_compare.py divides XLA's count of a program's flops by it, which says
// how far below XLA's step time any code could go on this host.
//
//   peak_flops [--threads=N] [--reps=R]
//
// Each thread runs independent chains of fused multiply-adds in registers,
// at the widest vector length the CPU has (AVX-512, else AVX2 with FMA),
// enough chains to cover the FMA latency; nothing touches memory. The
// result is the best of R repetitions, as JSON on one line:
//   {"cpu": "znver4", "isa": "avx512f", "threads": 1, "gflops": 118.2}
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Host.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

// Twelve chains: more than latency x throughput of any x86-64 FMA unit
// (4 cycles x 2 pipes on Zen 4 and Skylake-X), so the units never wait.
constexpr int kChains = 12;
constexpr long kIterations = 20'000'000;

/// kIterations x kChains multiply-adds of 16 floats; returns their sum so
/// that nothing is optimized away.
__attribute__((target("avx512f"))) float chainsAvx512() {
  __m512 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm512_set1_ps(1.0f + 1e-3f * static_cast<float>(i));
  __m512 x = _mm512_set1_ps(0.9999999f), y = _mm512_set1_ps(1e-7f);
  // Values the compiler cannot see: it would otherwise fold the chains.
  asm("" : "+v"(x), "+v"(y));
  for (long n = 0; n < kIterations; ++n)
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], x, y);
  float sum = 0;
  for (int i = 0; i < kChains; ++i)
    sum += _mm512_reduce_add_ps(acc[i]);
  return sum;
}

/// The same with 8 floats per multiply-add (AVX2 with FMA).
__attribute__((target("avx2,fma"))) float chainsAvx2() {
  __m256 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm256_set1_ps(1.0f + 1e-3f * static_cast<float>(i));
  __m256 x = _mm256_set1_ps(0.9999999f), y = _mm256_set1_ps(1e-7f);
  asm("" : "+v"(x), "+v"(y));
  for (long n = 0; n < kIterations; ++n)
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm256_fmadd_ps(acc[i], x, y);
  alignas(32) float lanes[8];
  float sum = 0;
  for (int i = 0; i < kChains; ++i) {
    _mm256_store_ps(lanes, acc[i]);
    for (float v : lanes)
      sum += v;
  }
  return sum;
}

bool flagValue(const char *arg, const char *name, long &value) {
  size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0)
    return false;
  char *end = nullptr;
  value = std::strtol(arg + n, &end, 10);
  return end != arg + n && *end == '\0';
}

} // namespace

int main(int argc, char **argv) {
  long threads = 1, reps = 3;
  for (int i = 1; i < argc; ++i) {
    if (!flagValue(argv[i], "--threads=", threads) &&
        !flagValue(argv[i], "--reps=", reps)) {
      std::fprintf(stderr, "usage: peak_flops [--threads=N] [--reps=R]\n");
      return 2;
    }
  }
  if (threads < 1 || threads > 1024 || reps < 1) {
    std::fprintf(stderr, "peak_flops: --threads must be 1 to 1024 and "
                         "--reps at least 1\n");
    return 2;
  }
  const bool avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 && !(__builtin_cpu_supports("avx2") &&
                   __builtin_cpu_supports("fma"))) {
    std::fprintf(stderr, "peak_flops: this CPU has neither AVX-512 nor "
                         "AVX2 with FMA\n");
    return 1;
  }
  const int lanes = avx512 ? 16 : 8;
  const double flopsPerThread = 2.0 * lanes * kChains * kIterations;

  double best = 0;
  std::vector<float> sinks(threads);
  for (long r = 0; r < reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (long t = 0; t < threads; ++t)
      pool.emplace_back([&sinks, t, avx512] {
        sinks[t] = avx512 ? chainsAvx512() : chainsAvx2();
      });
    for (std::thread &t : pool)
      t.join();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    best = std::max(best, flopsPerThread * threads / seconds);
  }
  // The sums are finite: print one so that the chains are kept.
  if (!(sinks[0] > 0))
    std::fprintf(stderr, "peak_flops: unexpected sum %g\n", sinks[0]);
  std::printf("{\"cpu\": \"%s\", \"isa\": \"%s\", \"threads\": %ld, "
              "\"gflops\": %.1f}\n",
              llvm::sys::getHostCPUName().str().c_str(),
              avx512 ? "avx512f" : "avx2+fma", threads, best / 1e9);
  return 0;
}
