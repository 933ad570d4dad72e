//===- ForkedWorkerBench.h - Benchmarks over worker processes -*- C++ -*-===//
//
// What the cross-process collective benchmarks share: W worker processes
// forked on this machine (runtime/multiworker/ForkedWorkers.h), each
// joining one WorkerGroup over Gloo TCP on loopback through a file store,
// timing calls between barriers, rank 0 printing the rows.
//
//   return bench::runWorkers(W, [&](int rank) -> std::string {
//     auto group = bench::connectGroup(rank, W, dir, absl::Seconds(300));
//     ...
//   }, std::chrono::seconds(600));
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_BENCHMARKS_FORKEDWORKERBENCH_H
#define TORUS_BENCHMARKS_FORKEDWORKERBENCH_H

#include "runtime/multiworker/ForkedWorkers.h"
#include "runtime/multiworker/WorkerGroup.h"

#include <gloo/barrier.h>
#include <gloo/context.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace torus::bench {

/// The median of `v` (the upper one of an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Deterministic values in [0, 1) that differ with `seed`.
inline void fill(std::vector<float> &x, int seed) {
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>((i * 2654435761u + seed) % 1000) * 1e-3f;
}

/// This host's CPU as /proc/cpuinfo names it, for the header of a table.
inline std::string cpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown CPU";
}

/// Worker `rank` of `size` joined through the file store `dir`.
inline absl::StatusOr<std::shared_ptr<rt::WorkerGroup>>
connectGroup(int rank, int size, const std::string &dir,
             absl::Duration timeout) {
  rt::WorkerGroupOptions o;
  o.rank = rank;
  o.size = size;
  o.rendezvousDirectory = dir;
  o.timeout = timeout;
  return rt::WorkerGroup::connect(o);
}

/// Waits for every worker of `group`: timed calls start together.
inline void barrier(const rt::WorkerGroup &group) {
  gloo::BarrierOptions b(group.glooContext());
  gloo::barrier(b);
}

/// Runs `worker(rank)` in `workers` forked processes (killed after
/// `timeout`); each non-empty result is an error, printed as `<label>worker
/// r: ...`. Returns the exit status: 0 if every worker returned "".
inline int runWorkers(int workers,
                      const std::function<std::string(int)> &worker,
                      std::chrono::seconds timeout,
                      const std::string &label = "") {
  auto outcomes = rt::testing::runForkedWorkers(workers, worker, timeout);
  int status = 0;
  for (int r = 0; r < workers; ++r)
    if (!outcomes[r].result.empty()) {
      std::fprintf(stderr, "%sworker %d: %s\n", label.c_str(), r,
                   outcomes[r].result.c_str());
      status = 1;
    }
  return status;
}

} // namespace torus::bench

#endif // TORUS_BENCHMARKS_FORKEDWORKERBENCH_H
