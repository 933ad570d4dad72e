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
#include "torus/Status.h"

#include "absl/time/time.h"

#include <memory>
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

/// Joins the job (rt::WorkerGroup::connect); Unimplemented when Torus was
/// built without Gloo.
absl::StatusOr<std::shared_ptr<rt::WorkerGroup>>
connectWorkers(const WorkerConnectionOptions &options);

/// Makes the executor's runs span the group's workers.
void useCrossWorkerCollectives(rt::ExecutorOptions &options,
                               std::shared_ptr<rt::WorkerGroup> group);

/// `value` becomes the element-wise sum over every worker's `value`.
absl::Status sumAcrossWorkers(rt::WorkerGroup &group, HostTensor &value);

int workerGroupSize(const rt::WorkerGroup &group);

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_WORKERCONNECTION_H
