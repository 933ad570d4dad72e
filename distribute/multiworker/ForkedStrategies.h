//===- ForkedStrategies.h - MWMS tests over forked workers ------*- C++ -*-===//
//
// Helpers of the multi-worker strategy tests: each forked process
// (runtime/multiworker/ForkedWorkers.h) creates the
// MultiWorkerMirroredStrategy of its task, runs the test's function and
// compares its result with what that task must see.
//
//   expectPerWorker(cluster, /*replicas=*/2, "dataset",
//                   [](MultiWorkerMirroredStrategy &s, int task) {...},
//                   {"task 0's result", "task 1's result"});
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_MULTIWORKER_FORKEDSTRATEGIES_H
#define TORUS_DISTRIBUTE_MULTIWORKER_FORKEDSTRATEGIES_H

#include "distribute/TestUtil.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "torus/distribute/Distribute.h"
#include "torus/distribute/SimpleClusterResolver.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace torus::distribute::testing {

/// `n` workers (no chief) at placeholder loopback addresses: the file
/// store, not the addresses, brings them together.
inline ClusterSpec workers(int n) {
  ClusterSpec c;
  for (int i = 0; i < n; ++i)
    c["worker"].push_back("127.0.0.1:" + std::to_string(i + 1));
  return c;
}

/// The strategy of task `position` of `cluster` (the chief first, when
/// there is one, then the workers), `replicas` local replicas, joined
/// through the file store `dir` as job `jobId`.
inline absl::StatusOr<MultiWorkerMirroredStrategy>
strategyForTask(const ClusterSpec &cluster, int position, int replicas,
                const std::string &dir, const std::string &jobId) {
  const bool hasChief = cluster.count("chief") > 0;
  SimpleClusterResolverOptions o;
  if (hasChief && position == 0) {
    o.taskType = "chief";
    o.taskId = 0;
  } else {
    o.taskType = "worker";
    o.taskId = hasChief ? position - 1 : position;
  }
  MultiWorkerOptions mw;
  mw.rendezvousDirectory = dir;
  mw.jobId = jobId;
  return MultiWorkerMirroredStrategy::create(
      std::make_shared<SimpleClusterResolver>(cluster, o), {}, replicas, mw);
}

/// Runs `fn` in one process per task of `cluster`, each with the strategy
/// of its task (`replicas` local replicas, job `jobId`); task i's result
/// must be `expected[i]`. A strategy that cannot be made is its task's
/// result.
inline void expectPerWorker(
    const ClusterSpec &cluster, int replicas, const std::string &jobId,
    const std::function<std::string(MultiWorkerMirroredStrategy &, int)> &fn,
    const std::vector<std::string> &expected) {
  int n = 0;
  for (const auto &[job, tasks] : cluster)
    n += static_cast<int>(tasks.size());
  std::string dir = rt::testing::makeTempDirectory("torus-mw-" + jobId);
  auto outcomes = rt::testing::runForkedWorkers(n, [&](int position) {
    auto s = strategyForTask(cluster, position, replicas, dir, jobId);
    std::string got =
        s.ok() ? fn(*s, position) : std::string(s.status().ToString());
    return got == expected[position]
               ? std::string()
               : "got " + got + "\nwant " + expected[position];
  });
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(outcomes[i].result, "") << "task " << i;
}

/// Every step's per-replica elements of component 0, `([0,1] [2])` for a
/// step whose two replicas got 0,1 and 2, until OutOfRange (at most 20
/// steps), or the error. With `asOptional`, read through
/// getNextAsOptional() instead of next().
inline std::string iterate(absl::StatusOr<DistributedDataset> dist,
                           bool asOptional = false) {
  if (!dist.ok())
    return std::string(dist.status().ToString());
  auto it = dist->makeIterator();
  if (!it.ok())
    return std::string(it.status().ToString());
  std::ostringstream out;
  for (int s = 0; s < 20; ++s) {
    Values v;
    if (asOptional) {
      auto next = it->getNextAsOptional();
      if (!next.ok())
        return std::string(next.status().ToString());
      if (!*next)
        break;
      v = std::move(**next);
    } else {
      auto next = it->next();
      if (!next.ok()) {
        if (next.status().code() != absl::StatusCode::kOutOfRange)
          return std::string(next.status().ToString());
        break;
      }
      v = std::move(*next);
    }
    out << "(";
    auto replicas = perReplicaInts({v})[0];
    for (size_t r = 0; r < replicas.size(); ++r) {
      out << (r ? " " : "") << "[";
      for (size_t i = 0; i < replicas[r].size(); ++i)
        out << (i ? "," : "") << replicas[r][i];
      out << "]";
    }
    out << ")";
  }
  return out.str();
}

} // namespace torus::distribute::testing

#endif // TORUS_DISTRIBUTE_MULTIWORKER_FORKEDSTRATEGIES_H
