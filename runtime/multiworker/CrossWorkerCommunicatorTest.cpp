//===- CrossWorkerCommunicatorTest.cpp - Hierarchical all-reduce ----------===//
//
// Worker processes (forked) with several emulated cores each, all-reducing
// through the CrossWorkerCommunicator: called directly from threads, and
// from programs on an executor whose wrapCommunicator hook installs it, run
// with Executor::run and resident (LoadedProgram) alike.
//
//===----------------------------------------------------------------------===//

#include "runtime/multiworker/CrossWorkerCommunicator.h"
#include "runtime/multiworker/ForkedWorkers.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/executor/LoadedProgram.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <thread>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;
using testing::makeTempDirectory;
using testing::runForkedWorkers;

/// Worker `rank` of `size`, meeting the others in `dir`.
auto connect(const std::string &dir, int rank, int size) {
  WorkerGroupOptions o;
  o.rank = rank;
  o.size = size;
  o.rendezvousDirectory = dir;
  return WorkerGroup::connect(o);
}

/// Runs `fn(local, comm)` on `cores` threads of one worker.
std::string onCores(CrossWorkerCommunicator &comm, int cores,
                    const std::function<std::string(int)> &fn) {
  std::vector<std::string> errors(cores);
  std::vector<std::thread> threads;
  for (int c = 0; c < cores; ++c)
    threads.emplace_back([&, c] { errors[c] = fn(c); });
  for (auto &t : threads)
    t.join();
  for (auto &e : errors)
    if (!e.empty())
      return e;
  return "";
}

TEST(CrossWorkerCommunicatorTest, AllReduceSpansCoresAndWorkers) {
  std::string dir = makeTempDirectory("torus-cwc");
  const int workers = 3, cores = 3;
  auto outcomes = runForkedWorkers(workers, [&](int w) -> std::string {
    auto group = connect(dir, w, workers);
    if (!group.ok())
      return std::string(group.status().ToString());
    auto local = InProcessCommunicator::create(cores);
    if (!local.ok())
      return std::string(local.status().ToString());
    CrossWorkerCommunicator comm(**local, *group);
    if (comm.numGlobalReplicas() != workers * cores)
      return "wrong global replica count";
    return onCores(comm, cores, [&](int c) -> std::string {
      const int global = w * cores + c;
      for (uint64_t step = 0; step < 5; ++step) {
        std::vector<double> x(1000);
        for (size_t i = 0; i < x.size(); ++i)
          x[i] = global * 1000.0 + static_cast<double>(i) + step;
        // in place, every replica of every worker
        absl::Status s = comm.allReduce({0, 0, step}, c, {}, ReduceKind::Sum,
                                        DType::F64, x.size(), x.data(),
                                        x.data(), absl::Seconds(20));
        if (!s.ok())
          return std::string(s.ToString());
        const int R = workers * cores;
        for (size_t i = 0; i < x.size(); ++i) {
          double expected = 1000.0 * (R * (R - 1) / 2) +
                            R * (static_cast<double>(i) + step);
          if (x[i] != expected)
            return fmt::format("core {} step {} element {}: {} != {}", c,
                               step, i, x[i], expected);
        }
      }
      // Groups that leave out some of a worker's cores cannot span workers.
      float f = 1;
      absl::Status s = comm.allReduce({0, 1, 0}, c, {{0}, {1, 2}},
                                      ReduceKind::Sum, DType::F32, 1, &f, &f,
                                      absl::Seconds(5));
      if (s.code() != absl::StatusCode::kUnimplemented)
        return "subset groups: " + std::string(s.ToString());
      // Global collectives need the worker's replicas in order.
      absl::Status g = comm.allGather({0, 2, 0}, c, {{2, 1, 0}}, DType::F32,
                                      {1}, 0, &f, &f, absl::Seconds(5));
      if (g.message() !=
          "all-gather over replica groups {{2,1,0}} across 3 workers: the "
          "group must list the worker's replicas in order")
        return "all-gather: " + std::string(g.ToString());
      return "";
    });
  });
  for (int w = 0; w < workers; ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

constexpr int64_t kLength = 4;

// inputs: total f32[4] (carried from output 0), x f32[4]
// output: total + all_reduce_sum(x)
void accumulateEntry(void **buffers) {
  const float *total = static_cast<const float *>(buffers[0]);
  const float *x = static_cast<const float *>(buffers[1]);
  float *out = static_cast<float *>(buffers[2]);
  __torus_collective(0, x, out);
  for (int64_t i = 0; i < kLength; ++i)
    out[i] += total[i];
}

Program accumulate(int64_t cores) {
  Program p;
  p.spec.name = "accumulate";
  p.spec.numReplicas = cores;
  TensorSpec vec{DType::F32, {kLength}};
  p.spec.inputs = {vec, vec};
  p.spec.outputs = {vec};
  CollectiveSpec c;
  c.operand = vec;
  c.result = vec;
  p.spec.collectives = {c};
  p.entry = &accumulateEntry;
  return p;
}

TEST(CrossWorkerCommunicatorTest, ProgramsReduceAcrossWorkers) {
  std::string dir = makeTempDirectory("torus-cwc-programs");
  const int workers = 2, cores = 2;
  // Device (w, c) contributes w * cores + c + 1: 1 + 2 + 3 + 4 in all, where
  // a worker alone would sum only its own cores' values (3 or 7).
  const float everyone = 10;
  auto outcomes = runForkedWorkers(workers, [&](int w) -> std::string {
    auto group = connect(dir, w, workers);
    if (!group.ok())
      return std::string(group.status().ToString());
    ExecutorOptions options;
    options.numCores = cores;
    options.collectiveTimeout = absl::Seconds(20);
    options.wrapCommunicator = [peers = *group](InProcessCommunicator &local)
        -> absl::StatusOr<std::unique_ptr<Communicator>> {
      return std::make_unique<CrossWorkerCommunicator>(local, peers);
    };
    auto executor = Executor::create(options);
    if (!executor.ok())
      return std::string(executor.status().ToString());
    auto x = [&](int64_t c) {
      return HostTensor::fromVector<float>(
          {kLength}, std::vector<float>(kLength, float(w * cores + c + 1)));
    };
    auto zeros = HostTensor::fromVector<float>(
        {kLength}, std::vector<float>(kLength, 0.0f));

    // Executor::run.
    auto run =
        (*executor)->run(accumulate(cores), {{zeros, x(0)}, {zeros, x(1)}});
    if (!run.ok())
      return "run: " + std::string(run.status().ToString());
    for (int64_t c = 0; c < cores; ++c)
      if (float got = (*run)[c][0].data<float>()[0]; got != everyone)
        return fmt::format("run, core {}: {} != {}", c, got, everyone);

    // Resident: three steps, the total carried.
    RunOptions carry;
    carry.carried = {{0, 0}};
    auto loaded = LoadedProgram::load(**executor, accumulate(cores),
                                      {{zeros, x(0)}, {zeros, x(1)}}, carry);
    if (!loaded.ok())
      return "load: " + std::string(loaded.status().ToString());
    absl::Status stepped = (*loaded)->step(3);
    if (!stepped.ok())
      return "step: " + std::string(stepped.ToString());
    HostTensor total = zeros;
    for (int64_t c = 0; c < cores; ++c) {
      absl::Status copied = (*loaded)->copyOutput(c, 0, total);
      if (!copied.ok())
        return std::string(copied.ToString());
      for (float got : total.data<float>())
        if (got != 3 * everyone)
          return fmt::format("resident, core {}: {} != {}", c, got,
                             3 * everyone);
    }
    return "";
  });
  for (int w = 0; w < workers; ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

} // namespace
} // namespace torus::rt
