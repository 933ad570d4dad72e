//===- WorkerConnection.cpp - A MWMS worker's link to its peers -----------===//

#include "distribute/WorkerConnection.h"
#include "distribute/PyRepr.h"

#include <atomic>
#include <cstdlib>

#ifdef TORUS_HAVE_GLOO
#include "runtime/multiworker/CrossWorkerCommunicator.h"
#include "runtime/multiworker/WorkerGroup.h"
#endif

namespace torus::distribute::detail {

namespace {

std::string envOr(const char *name, const std::string &fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

/// Each group this process joins gets the next number: the same sequence on
/// every worker.
std::atomic<int> nextGroup{0};

} // namespace

absl::StatusOr<double> secondsFrom(std::optional<double> given,
                                   const char *env, double fallback) {
  if (given) {
    if (!(*given > 0))
      return absl::InvalidArgumentError(
          std::string("a multi-worker timeout must be positive, got ") +
          pyFloat(*given));
    return *given;
  }
  const char *v = std::getenv(env);
  if (!v || !*v)
    return fallback;
  char *end = nullptr;
  double seconds = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(seconds > 0))
    return absl::InvalidArgumentError(std::string("$") + env + "='" + v +
                                      "' is not a positive number of seconds");
  return seconds;
}

absl::StatusOr<WorkerConnectionOptions>
rendezvousOptions(const MultiWorkerOptions &options, int size,
                  const std::string &strategy) {
  WorkerConnectionOptions o;
  o.size = size;
  o.rendezvousAddress = options.rendezvousAddress.empty()
                            ? envOr("TORUS_RENDEZVOUS", "")
                            : options.rendezvousAddress;
  if (o.rendezvousAddress.empty())
    o.rendezvousDirectory = options.rendezvousDirectory.empty()
                                ? envOr("TORUS_RENDEZVOUS_DIR", "")
                                : options.rendezvousDirectory;
  if (o.rendezvousAddress.empty() && o.rendezvousDirectory.empty())
    return absl::InvalidArgumentError(
        strategy + " with " + std::to_string(size) +
        " workers needs a rendezvous every worker can reach: set "
        "$TORUS_RENDEZVOUS=redis://host:port (or "
        "MultiWorkerOptions::rendezvousAddress), or $TORUS_RENDEZVOUS_DIR "
        "(or MultiWorkerOptions::rendezvousDirectory) to a directory they "
        "share");
  std::string jobId = options.jobId.empty() ? envOr("TORUS_JOB_ID", "torus-job")
                                            : options.jobId;
  o.prefix = jobId + "-" + std::to_string(nextGroup.fetch_add(1));
  TORUS_ASSIGN_OR_RETURN(double connectSeconds,
                         secondsFrom(options.connectTimeoutSeconds,
                                     "TORUS_CONNECT_TIMEOUT", 60.0));
  o.connectTimeout = absl::Seconds(connectSeconds);
  return o;
}

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
                               std::shared_ptr<rt::WorkerGroup> group,
                               bool globalIds) {
  // With global ids the programs already count every worker's devices.
  options.numWorkers = globalIds ? 1 : group->size();
  const rt::ParticipantIds ids =
      globalIds ? rt::ParticipantIds::Global : rt::ParticipantIds::PerWorker;
  options.wrapCommunicator =
      [group = std::move(group), ids](rt::InProcessCommunicator &local)
      -> absl::StatusOr<std::unique_ptr<rt::Communicator>> {
    return std::make_unique<rt::CrossWorkerCommunicator>(local, group, ids);
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
                               std::shared_ptr<rt::WorkerGroup>, bool) {}

absl::Status sumAcrossWorkers(rt::WorkerGroup &, HostTensor &) {
  return absl::UnimplementedError("built without Gloo");
}

int workerGroupSize(const rt::WorkerGroup &) { return 1; }

#endif

} // namespace torus::distribute::detail
