//===- multiworker_allreduce_bench.cpp - Cross-process all-reduce vs Gloo -===//
//
// Starts W worker processes on this machine (fork; Gloo TCP on loopback, a
// FileStore rendezvous in a temp dir) and times, in the same run and on the
// same connections, an f32 sum all-reduce of S MiB per worker with:
//
//   gloo::AllreduceRing      raw Gloo's own ring algorithm (allreduce_ring.h)
//   gloo::allreduce ring     raw Gloo's newer API, ring (allreduce.h), the
//                            call Torus makes
//   WorkerGroup::allReduce   Torus's cross-process all-reduce (one buffer
//                            per worker)
//   CrossWorkerCommunicator  the runtime's hierarchical all-reduce with C
//                            emulated cores per worker (C threads each
//                            reducing their own S MiB: in the worker, then
//                            across workers, then back)
//
// algbw = S / time (the NCCL convention: bytes each participant reduces per
// second). The cases run interleaved, `reps` rounds of `iters` timed calls
// after a warm-up; the table shows medians and each case's ratio to raw
// AllreduceRing measured in the same rounds.
//
//   multiworker_allreduce_bench [--workers=2] [--cores=2] [--sizes=16,64]
//                               [--iters=5] [--reps=3]
//
//===----------------------------------------------------------------------===//

#include "benchmarks/ForkedWorkerBench.h"
#include "runtime/multiworker/CrossWorkerCommunicator.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "runtime/multiworker/WorkerGroup.h"

#include <gloo/allreduce.h>
#include <gloo/allreduce_ring.h>
#include <gloo/barrier.h>
#include <gloo/context.h>
#include <gloo/math.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace torus;
using namespace torus::rt;
using Clock = std::chrono::steady_clock;
using bench::fill;
using bench::median;

namespace {

struct Args {
  int workers = 2;
  int cores = 2;
  std::vector<int> sizesMiB = {16, 64};
  int iters = 5;
  int reps = 3;
};

Args parse(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto v = [&](const char *name) -> const char * {
      std::string p = std::string("--") + name + "=";
      return s.rfind(p, 0) == 0 ? argv[i] + p.size() : nullptr;
    };
    if (auto x = v("workers"))
      a.workers = std::atoi(x);
    else if (auto x = v("cores"))
      a.cores = std::atoi(x);
    else if (auto x = v("iters"))
      a.iters = std::atoi(x);
    else if (auto x = v("reps"))
      a.reps = std::atoi(x);
    else if (auto x = v("sizes")) {
      a.sizesMiB.clear();
      std::string list = x;
      size_t pos = 0;
      while (pos < list.size()) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos)
          comma = list.size();
        a.sizesMiB.push_back(std::atoi(list.substr(pos, comma - pos).c_str()));
        pos = comma + 1;
      }
    } else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      std::exit(2);
    }
  }
  if (a.workers < 2 || a.cores < 1 || a.iters < 1 || a.reps < 1) {
    std::fprintf(stderr, "need --workers>=2, --cores>=1, --iters>=1\n");
    std::exit(2);
  }
  return a;
}

/// The worker: returns "" or an error; rank 0 prints the table.
std::string worker(const Args &args, const std::string &dir, int rank) {
  auto group = bench::connectGroup(rank, args.workers, dir, absl::Seconds(120));
  if (!group.ok())
    return std::string(group.status().ToString());
  const auto &ctx = (*group)->glooContext();
  auto barrier = [&] { bench::barrier(**group); };

  auto local = InProcessCommunicator::create(args.cores);
  if (!local.ok())
    return std::string(local.status().ToString());
  CrossWorkerCommunicator comm(**local, *group);
  uint64_t invocation = 0;

  const char *names[] = {"gloo::AllreduceRing (raw)",
                         "gloo::allreduce ring (raw)",
                         "WorkerGroup::allReduce",
                         "CrossWorkerCommunicator"};
  std::string errors;
  if (rank == 0) {
    std::printf("CPU: %s; %d workers on loopback (Gloo TCP), f32 sum; the "
                "communicator with %d emulated cores per worker\n\n",
                bench::cpuName().c_str(), args.workers, args.cores);
    std::printf("| MiB | case | median time | algbw | vs raw AllreduceRing |\n"
                "| --- | --- | --- | --- | --- |\n");
  }
  for (int mib : args.sizesMiB) {
    const size_t count = (size_t(mib) << 20) / sizeof(float);
    std::vector<float> a(count), b(count);
    std::vector<std::vector<float>> perCore(args.cores,
                                            std::vector<float>(count));
    fill(a, rank);
    fill(b, rank);
    for (int c = 0; c < args.cores; ++c)
      fill(perCore[c], rank * 31 + c);
    float *ptr = a.data();
    gloo::AllreduceRing<float> ring(ctx, {ptr}, static_cast<int>(count));

    std::vector<std::function<void()>> cases = {
        [&] { ring.run(); },
        [&] {
          gloo::AllreduceOptions opts(ctx);
          opts.setAlgorithm(gloo::AllreduceOptions::Algorithm::RING);
          opts.setOutput(b.data(), count);
          opts.setReduceFunction(
              static_cast<void (*)(void *, const void *, const void *,
                                   size_t)>(&gloo::sum<float>));
          gloo::allreduce(opts);
        },
        [&] {
          auto s = (*group)->allReduce(b.data(), DType::F32, count,
                                       ReduceKind::Sum);
          if (!s.ok())
            errors = std::string(s.ToString());
        },
        [&] {
          const uint64_t inv = invocation++;
          std::vector<std::thread> threads;
          for (int c = 0; c < args.cores; ++c)
            threads.emplace_back([&, c] {
              auto s = comm.allReduce({0, 0, inv}, c, {}, ReduceKind::Sum,
                                      DType::F32, count, perCore[c].data(),
                                      perCore[c].data(), absl::Seconds(120));
              if (!s.ok())
                errors = std::string(s.ToString());
            });
          for (auto &t : threads)
            t.join();
        },
    };
    // Each round starts from fresh data (sums grow by W per call).
    std::vector<std::vector<double>> times(cases.size());
    for (auto &c : cases) // warm-up
      c();
    for (int rep = 0; rep < args.reps; ++rep)
      for (size_t k = 0; k < cases.size(); ++k) {
        fill(a, rank);
        fill(b, rank);
        for (int c = 0; c < args.cores; ++c)
          fill(perCore[c], rank * 31 + c);
        for (int it = 0; it < args.iters; ++it) {
          barrier();
          auto start = Clock::now();
          cases[k]();
          times[k].push_back(
              std::chrono::duration<double>(Clock::now() - start).count());
        }
      }
    if (!errors.empty())
      return errors;
    if (rank == 0) {
      const double raw = median(times[0]);
      for (size_t k = 0; k < cases.size(); ++k) {
        const double t = median(times[k]);
        std::printf("| %d | %s | %.1f ms | %.2f GB/s | %.2f |\n", mib,
                    names[k], t * 1e3, (double(mib) * (1 << 20)) / t / 1e9,
                    raw / t);
      }
      std::fflush(stdout);
    }
  }
  return "";
}

} // namespace

int main(int argc, char **argv) {
  Args args = parse(argc, argv);
  std::string dir = testing::makeTempDirectory("torus-bench");
  return bench::runWorkers(
      args.workers, [&](int rank) { return worker(args, dir, rank); },
      std::chrono::seconds(600));
}
