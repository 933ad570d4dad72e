//===- WorkerConnection.h - A MWMS worker's link to its peers ---*- C++ -*-===//
//
// What MultiWorkerMirroredStrategy needs from runtime/multiworker, behind
// one header so the Strategy API builds (single-worker only) without Gloo:
// joining the other workers, routing the executor's collectives through the
// cross-worker communicator, and all-reducing host tensors across workers
// (strategy.reduce in cross-replica context).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_WORKERCONNECTION_H
#define TORUS_DISTRIBUTE_WORKERCONNECTION_H

#include "runtime/executor/Executor.h"
#include "torus/HostTensor.h"
#include "torus/distribute/MultiWorkerMirroredStrategy.h"
#include "torus/Status.h"

#include "absl/time/time.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torus::rt {
class WorkerGroup;
}

namespace torus::distribute::detail {

struct WorkerConnectionOptions {
  int rank = 0;
  int size = 1;
  /// Error names of the ranks ("chief 0", "worker 1", ...).
  std::vector<std::string> names;
  std::string rendezvousDirectory;
  std::string rendezvousAddress;
  std::string prefix;
  std::string hostname;
  absl::Duration connectTimeout;
  absl::Duration timeout;
};

/// A positive number of seconds: `given`, else $`env`, else `fallback`.
/// InvalidArgument for a value that is not positive.
absl::StatusOr<double> secondsFrom(std::optional<double> given,
                                   const char *env, double fallback);

/// Where and as what job `size` workers meet (MultiWorkerOptions and the
/// environment: a Redis server wins over a directory; the job id, with a
/// count of the groups this process joined, so each strategy gets its own;
/// the connect timeout). `strategy` names the caller in the error when no
/// rendezvous is given. rank, names, hostname and timeout are left to the
/// caller.
absl::StatusOr<WorkerConnectionOptions>
rendezvousOptions(const MultiWorkerOptions &options, int size,
                  const std::string &strategy);

/// Joins the job (rt::WorkerGroup::connect); Unimplemented when Torus was
/// built without Gloo.
absl::StatusOr<std::shared_ptr<rt::WorkerGroup>>
connectWorkers(const WorkerConnectionOptions &options);

/// Makes the executor's runs span the group's workers. `globalIds`: the
/// programs are compiled for every worker's devices and each run executes
/// this worker's share (RunOptions::firstDevice); otherwise a program is
/// one worker's replicas and its collectives over everyone span the
/// workers.
void useCrossWorkerCollectives(rt::ExecutorOptions &options,
                               std::shared_ptr<rt::WorkerGroup> group,
                               bool globalIds = false);

/// `value` becomes the element-wise sum over every worker's `value`.
absl::Status sumAcrossWorkers(rt::WorkerGroup &group, HostTensor &value);

int workerGroupSize(const rt::WorkerGroup &group);

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_WORKERCONNECTION_H
