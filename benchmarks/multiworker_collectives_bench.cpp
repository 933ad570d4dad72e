//===- multiworker_collectives_bench.cpp - Every collective vs raw Gloo ---===//
//
// For W worker processes on this machine (fork; Gloo TCP on loopback, a
// FileStore rendezvous in a temp dir) times, in the same run and on the
// same connections (one Gloo context per worker), each collective that
// crosses processes twice:
//
//   raw    Gloo's own algorithm called directly on the context:
//          all-reduce      gloo::allreduce, ring, gloo::sum<float>
//          all-gather      gloo::allgather
//          reduce-scatter  gloo::ReduceScatterHalvingDoubling (constructed
//                          once per size, run() per call)
//          all-to-all      gloo::alltoall
//          permute         one send to the next worker and one receive
//                          from the previous (unbound buffers)
//          broadcast       gloo::broadcast from worker 0
//   torus  the runtime's CrossWorkerCommunicator, as a step calls it, with
//          C emulated cores per worker (default 1: the cross-process path
//          alone; C threads otherwise)
//
// S is each participant's operand: all-gather gathers S from each,
// reduce-scatter reduces S and keeps S / P, all-to-all exchanges blocks of
// S / P, permute shifts S to the next participant (ring), broadcast sends S
// from participant 0. f32 throughout. The two run interleaved: `reps`
// rounds of `iters` timed calls of each after a warm-up, each call after a
// barrier; rank 0 prints medians and ratio = raw time / torus time (>= 1:
// Torus as fast or faster).
//
//   multiworker_collectives_bench [--workers=2,4] [--cores=1]
//       [--sizes=1,16,64] [--iters=3] [--reps=3] [--only=all-reduce,...]
//
//===----------------------------------------------------------------------===//

#include "benchmarks/ForkedWorkerBench.h"
#include "runtime/multiworker/CrossWorkerCommunicator.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "runtime/multiworker/WorkerGroup.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/context.h>
#include <gloo/math.h>
#include <gloo/reduce_scatter.h>
#include <gloo/transport/unbound_buffer.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace torus;
using namespace torus::rt;
using Clock = std::chrono::steady_clock;
using bench::fill;
using bench::median;

namespace {

const char *const kCollectives[] = {"all-reduce",     "all-gather",
                                    "reduce-scatter", "all-to-all",
                                    "permute",        "broadcast"};

struct Args {
  std::vector<int> workers = {2, 4};
  int cores = 1;
  std::vector<int> sizesMiB = {1, 16, 64};
  int iters = 3;
  int reps = 3;
  std::vector<std::string> only;
};

std::vector<std::string> splitList(const std::string &list) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string::npos)
      comma = list.size();
    out.push_back(list.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

[[noreturn]] void usage(const std::string &why) {
  std::fprintf(stderr,
               "multiworker_collectives_bench: %s\nusage: "
               "multiworker_collectives_bench [--workers=2,4] [--cores=1] "
               "[--sizes=1,16,64] [--iters=3] [--reps=3] "
               "[--only=all-reduce,...]\n",
               why.c_str());
  std::exit(2);
}

int positive(const std::string &flag, const std::string &text) {
  char *end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 1 << 20)
    usage("--" + flag + " needs positive integers, got '" + text + "'");
  return static_cast<int>(v);
}

Args parse(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto v = [&](const char *name) -> const char * {
      std::string p = std::string("--") + name + "=";
      return s.rfind(p, 0) == 0 ? argv[i] + p.size() : nullptr;
    };
    auto ints = [&](const char *flag, const char *list) {
      std::vector<int> out;
      for (const std::string &x : splitList(list))
        out.push_back(positive(flag, x));
      return out;
    };
    if (auto x = v("workers"))
      a.workers = ints("workers", x);
    else if (auto x = v("cores"))
      a.cores = positive("cores", x);
    else if (auto x = v("iters"))
      a.iters = positive("iters", x);
    else if (auto x = v("reps"))
      a.reps = positive("reps", x);
    else if (auto x = v("sizes"))
      a.sizesMiB = ints("sizes", x);
    else if (auto x = v("only")) {
      a.only = splitList(x);
      for (const std::string &c : a.only)
        if (std::find_if(std::begin(kCollectives), std::end(kCollectives),
                         [&](const char *k) { return c == k; }) ==
            std::end(kCollectives))
          usage("--only: unknown collective '" + c + "'");
    } else {
      usage(std::string("unknown argument ") + argv[i]);
    }
  }
  for (int w : a.workers)
    if (w < 2)
      usage("--workers needs at least 2 workers per run");
  return a;
}

/// One collective of S per participant: buffers, and the raw and Torus
/// calls on them.
struct Case {
  std::function<void()> raw, torus;
};

/// The worker: "" or an error; rank 0 prints its rows.
std::string worker(const Args &args, int workers, const std::string &dir,
                   int rank) {
  auto group = bench::connectGroup(rank, workers, dir, absl::Seconds(300));
  if (!group.ok())
    return std::string(group.status().ToString());
  const auto &ctx = (*group)->glooContext();
  auto barrier = [&] { bench::barrier(**group); };
  auto local = InProcessCommunicator::create(args.cores);
  if (!local.ok())
    return std::string(local.status().ToString());
  CrossWorkerCommunicator comm(**local, *group);
  const int L = args.cores, W = workers, P = L * W;
  const absl::Duration timeout = absl::Seconds(300);
  uint64_t invocation = 0;
  std::string errors;
  auto check = [&](const absl::Status &s) {
    if (!s.ok() && errors.empty())
      errors = std::string(s.ToString());
  };
  // Runs fn(core) on every emulated core (the caller's thread for one).
  auto onCores = [&](const std::function<void(int)> &fn) {
    if (L == 1)
      return fn(0);
    std::vector<std::thread> threads;
    for (int c = 0; c < L; ++c)
      threads.emplace_back(fn, c);
    for (auto &t : threads)
      t.join();
  };

  for (int mib : args.sizesMiB) {
    // S per participant, a multiple of P elements.
    const int64_t count = ((int64_t(mib) << 20) / 4) / P * P;
    const size_t bytes = static_cast<size_t>(count) * 4;
    const Shape shape = {count};
    // The raw call's buffers (one participant per worker), the Torus
    // call's (one per core).
    std::vector<float> rawIn(count), rawOut(size_t(count) * W);
    std::vector<std::vector<float>> in(L, std::vector<float>(count)),
        out(L, std::vector<float>(size_t(count) * P));
    auto refill = [&] {
      fill(rawIn, rank);
      for (int c = 0; c < L; ++c)
        fill(in[c], rank * L + c);
    };
    refill();
    const gloo::ReductionFunction<float> *sum =
        gloo::ReductionFunction<float>::sum;
    std::unique_ptr<gloo::ReduceScatterHalvingDoubling<float>> halving;

    std::vector<std::pair<std::string, Case>> cases;
    auto wanted = [&](const char *name) {
      return args.only.empty() ||
             std::find(args.only.begin(), args.only.end(), name) !=
                 args.only.end();
    };
    auto key = [&] { return CollectiveKey{0, 0, invocation++}; };
    if (wanted("all-reduce"))
      cases.push_back(
          {"all-reduce",
           {[&] {
              gloo::AllreduceOptions opts(ctx);
              opts.setAlgorithm(gloo::AllreduceOptions::Algorithm::RING);
              opts.setOutput(rawIn.data(), count);
              opts.setReduceFunction(
                  static_cast<void (*)(void *, const void *, const void *,
                                       size_t)>(&gloo::sum<float>));
              gloo::allreduce(opts);
            },
            [&] {
              CollectiveKey k = key();
              onCores([&](int c) {
                check(comm.allReduce(k, c, {}, ReduceKind::Sum, DType::F32,
                                     count, in[c].data(), in[c].data(),
                                     timeout));
              });
            }}});
    if (wanted("all-gather"))
      cases.push_back({"all-gather",
                       {[&] {
                          gloo::AllgatherOptions opts(ctx);
                          opts.setInput(rawIn.data(), count);
                          opts.setOutput(rawOut.data(), size_t(count) * W);
                          gloo::allgather(opts);
                        },
                        [&] {
                          CollectiveKey k = key();
                          onCores([&](int c) {
                            check(comm.allGather(k, c, {}, DType::F32, shape,
                                                 0, in[c].data(),
                                                 out[c].data(), timeout));
                          });
                        }}});
    if (wanted("reduce-scatter")) {
      halving = std::make_unique<gloo::ReduceScatterHalvingDoubling<float>>(
          ctx, std::vector<float *>{rawIn.data()}, static_cast<int>(count),
          std::vector<int>(W, static_cast<int>(count / W)), sum);
      cases.push_back(
          {"reduce-scatter",
           {[&] { halving->run(); },
            [&] {
              CollectiveKey k = key();
              onCores([&](int c) {
                check(comm.reduceScatter(k, c, {}, ReduceKind::Sum,
                                         DType::F32, shape, 0, in[c].data(),
                                         out[c].data(), timeout));
              });
            }}});
    }
    if (wanted("all-to-all"))
      cases.push_back(
          {"all-to-all",
           {[&] {
              gloo::AlltoallOptions opts(ctx);
              opts.setInput(rawIn.data(), count);
              opts.setOutput(rawOut.data(), count);
              gloo::alltoall(opts);
            },
            [&] {
              CollectiveKey k = key();
              onCores([&](int c) {
                check(comm.allToAll(k, c, {}, DType::F32, shape, 0, 0, P,
                                    in[c].data(), out[c].data(), timeout));
              });
            }}});
    SourceTargetPairs ring;
    for (int p = 0; p < P; ++p)
      ring.push_back({p, (p + 1) % P});
    if (wanted("permute"))
      cases.push_back(
          {"permute",
           {[&] {
              const uint64_t slot = gloo::Slot::build(0xf8, 0);
              auto send = ctx->createUnboundBuffer(rawIn.data(), bytes);
              auto recv = ctx->createUnboundBuffer(rawOut.data(), bytes);
              recv->recv((rank + W - 1) % W, slot);
              send->send((rank + 1) % W, slot);
              send->waitSend();
              recv->waitRecv();
            },
            [&] {
              CollectiveKey k = key();
              onCores([&](int c) {
                check(comm.collectivePermute(k, c, ring, DType::F32, shape,
                                             in[c].data(), out[c].data(),
                                             timeout));
              });
            }}});
    if (wanted("broadcast"))
      cases.push_back({"broadcast",
                       {[&] {
                          gloo::BroadcastOptions opts(ctx);
                          opts.setOutput(rawIn.data(), count);
                          opts.setRoot(0);
                          gloo::broadcast(opts);
                        },
                        [&] {
                          CollectiveKey k = key();
                          onCores([&](int c) {
                            check(comm.broadcast(k, c, {}, 0, DType::F32,
                                                 shape, in[c].data(),
                                                 in[c].data(), timeout));
                          });
                        }}});

    for (auto &[name, c] : cases) {
      std::vector<double> raw, torus;
      auto timed = [&](const std::function<void()> &fn,
                       std::vector<double> &into) {
        barrier();
        auto start = Clock::now();
        fn();
        into.push_back(
            std::chrono::duration<double>(Clock::now() - start).count());
      };
      barrier();
      c.raw(); // warm-up (connections, first touch of the buffers)
      c.torus();
      std::vector<double> ignored;
      for (int rep = 0; rep < args.reps; ++rep) {
        refill(); // sums grow by P per all-reduce
        for (int it = 0; it < args.iters; ++it)
          timed(c.raw, raw);
        for (int it = 0; it < args.iters; ++it)
          timed(c.torus, torus);
      }
      if (!errors.empty())
        return name + ": " + errors;
      if (rank == 0) {
        const double r = median(raw), t = median(torus);
        std::printf("| %d | %s | %d | %.2f ms | %.2f ms | %.2f |\n", W,
                    name.c_str(), mib, r * 1e3, t * 1e3, r / t);
        std::fflush(stdout);
      }
    }
  }
  return "";
}

} // namespace

int main(int argc, char **argv) {
  Args args = parse(argc, argv);
  std::printf("CPU: %s (%u hardware threads); Gloo TCP on loopback, f32; "
              "the communicator with %d emulated core(s) per worker; "
              "medians of %d x %d calls\n\n",
              bench::cpuName().c_str(), std::thread::hardware_concurrency(),
              args.cores, args.reps, args.iters);
  std::printf("| workers | collective | MiB | raw Gloo | Torus | raw / "
              "Torus |\n| --- | --- | --- | --- | --- | --- |\n");
  std::fflush(stdout);
  int status = 0;
  for (int workers : args.workers) {
    std::string dir = testing::makeTempDirectory("torus-bench");
    status |= bench::runWorkers(
        workers, [&](int rank) { return worker(args, workers, dir, rank); },
        std::chrono::seconds(1800), std::to_string(workers) + " workers, ");
  }
  return status;
}
