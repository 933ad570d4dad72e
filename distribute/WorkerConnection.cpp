//===- WorkerConnection.cpp - A MWMS worker's link to its peers -----------===//

#include "distribute/WorkerConnection.h"

#ifdef TORUS_HAVE_GLOO
#include "runtime/multiworker/CrossWorkerCommunicator.h"
#include "runtime/multiworker/WorkerGroup.h"
#endif

namespace torus::distribute::detail {

#ifdef TORUS_HAVE_GLOO

absl::StatusOr<std::shared_ptr<rt::WorkerGroup>>
connectWorkers(const WorkerConnectionOptions &options) {
  rt::WorkerGroupOptions o;
  o.rank = options.rank;
  o.size = options.size;
  o.names = options.names;
  o.rendezvousDirectory = options.rendezvousDirectory;
  o.rendezvousAddress = options.rendezvousAddress;
  o.prefix = options.prefix;
  o.hostname = options.hostname;
  o.connectTimeout = options.connectTimeout;
  o.timeout = options.timeout;
  return rt::WorkerGroup::connect(o);
}

void useCrossWorkerCollectives(rt::ExecutorOptions &options,
                               std::shared_ptr<rt::WorkerGroup> group) {
  options.numWorkers = group->size();
  options.wrapCommunicator =
      [group = std::move(group)](rt::InProcessCommunicator &local)
      -> absl::StatusOr<std::unique_ptr<rt::Communicator>> {
    return std::make_unique<rt::CrossWorkerCommunicator>(local, group);
  };
}

absl::Status sumAcrossWorkers(rt::WorkerGroup &group, HostTensor &value) {
  return group.allReduce(value.rawData(), value.dtype(), value.numElements(),
                         rt::ReduceKind::Sum);
}

int workerGroupSize(const rt::WorkerGroup &group) { return group.size(); }

#else

absl::StatusOr<std::shared_ptr<rt::WorkerGroup>>
connectWorkers(const WorkerConnectionOptions &) {
  return absl::UnimplementedError(
      "this Torus was built without Gloo (libgloo-dev), so "
      "MultiWorkerMirroredStrategy cannot span worker processes");
}

void useCrossWorkerCollectives(rt::ExecutorOptions &,
                               std::shared_ptr<rt::WorkerGroup>) {}

absl::Status sumAcrossWorkers(rt::WorkerGroup &, HostTensor &) {
  return absl::UnimplementedError("built without Gloo");
}

int workerGroupSize(const rt::WorkerGroup &) { return 1; }

#endif

} // namespace torus::distribute::detail
