//===- ParallelFor.h - Host threads for one core's large kernels -*- C++ -*-===//
//
// When fewer emulated cores run than the host has threads, a large kernel
// of generated code may split its outer tile loop over host threads: the
// kernel stage (docs/codegen.md) outlines the loop body into
// `void body(void *ctx, int64_t i)` and calls
// `__torus_parallel_for(body, ctx, n)`, which runs body(ctx, 0..n-1) on a
// small pool of persistent threads plus the calling one, and returns when
// all are done. Iterations must be independent (they write disjoint tiles).
// The caller takes iterations too and never waits for a helper to wake
// (one that wakes late finds none left); idle helpers poll for the next
// loop for a while before they block, so a step's back-to-back kernels
// start in about 2 us (BM_ParallelFor in collectives_bench).
//
// How many threads: inside a run, host threads / cores of the run (at least
// 1: one per core when the mesh has as many cores as the host has threads,
// so the emulated cores never compete with kernel threads); outside a run
// (an entry called directly, as the benchmarks do) the count set with
// setParallelForThreads, 1 unless set; limitParallelForThreads caps both.
// One parallel loop runs at a time; a loop that finds the pool busy
// (another core's) runs on its own thread.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_PARALLELFOR_H
#define TORUS_RUNTIME_PARALLELFOR_H

#include <cstdint>

extern "C" {
/// Runs fn(ctx, i) for i in [0, n), possibly on several host threads.
void __torus_parallel_for(void (*fn)(void *ctx, int64_t i), void *ctx,
                          int64_t n);
}

namespace torus::rt {
/// Threads a parallel loop uses outside a run (>= 1; 1 = the calling thread
/// only, the default).
void setParallelForThreads(int64_t threads);
/// At most `limit` threads for any parallel loop, inside a run or outside
/// (like OMP_THREAD_LIMIT); 0 removes the limit (the default). Benchmarks
/// set 1 to compare one core's code with a single-threaded library.
void limitParallelForThreads(int64_t limit);
/// The threads a parallel loop would use now on this thread.
int64_t parallelForThreads();
/// std::thread::hardware_concurrency(), at least 1.
int64_t hostThreads();
} // namespace torus::rt

#endif // TORUS_RUNTIME_PARALLELFOR_H
