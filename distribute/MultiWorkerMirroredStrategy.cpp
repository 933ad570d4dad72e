//===- MultiWorkerMirroredStrategy.cpp - MWMS, one process a worker -------===//

#include "torus/distribute/MultiWorkerMirroredStrategy.h"
#include "distribute/PyRepr.h"
#include "distribute/StrategyState.h"
#include "distribute/WorkerConnection.h"
#include "runtime/mesh/ClusterResolver.h"
#include "torus/distribute/MultiWorkerUtil.h"


namespace torus::distribute {

absl::StatusOr<CommunicationOptions>
CommunicationOptions::create(int64_t bytesPerPack,
                             std::optional<double> timeoutSeconds,
                             CommunicationImplementation implementation) {
  if (bytesPerPack < 0)
    return absl::InvalidArgumentError(
        "Argument `bytes_per_pack` must be >=0, Received " +
        std::to_string(bytesPerPack) + ".");
  CommunicationOptions o;
  o.bytesPerPack_ = bytesPerPack;
  o.timeoutSeconds_ = timeoutSeconds;
  o.impl_ = implementation;
  return o;
}

CommunicationOptions
CommunicationOptions::merge(const CommunicationOptions &other) const {
  CommunicationOptions o = *this;
  if (other.bytesPerPack_ != 0)
    o.bytesPerPack_ = other.bytesPerPack_;
  if (other.timeoutSeconds_)
    o.timeoutSeconds_ = other.timeoutSeconds_;
  if (other.impl_ != CommunicationImplementation::Auto)
    o.impl_ = other.impl_;
  return o;
}

std::string CommunicationOptions::toString() const {
  return "Options(bytes_per_pack=" + std::to_string(bytesPerPack_) +
         ",timeout_seconds=" +
         (timeoutSeconds_ ? detail::pyFloat(*timeoutSeconds_) : "None") +
         ", implementation=CommunicationImplementation." +
         std::string(communicationImplementationValue(impl_)) + ")";
}

namespace {

/// What every MultiWorkerMirroredStrategy has, over its local `devices`
/// (one worker until create() says otherwise).
absl::StatusOr<std::shared_ptr<detail::StrategyState>>
mwmsState(const std::vector<std::string> &devices,
          std::shared_ptr<ClusterResolver> resolver,
          const CommunicationOptions &communicationOptions) {
  auto state =
      detail::localState(detail::StrategyKind::MultiWorkerMirrored, devices);
  state->className = "CollectiveAllReduceStrategy";
  state->cppClass = "torus.distribute.MultiWorkerMirroredStrategy";
  state->parameterDevices = devices;
  state->variablePolicy = detail::VariablePolicy::Mirrored;
  state->enableGetNextAsOptional = true;
  state->betweenGraph = true;
  state->resolver = std::move(resolver);
  state->communicationOptions = communicationOptions;
  TORUS_ASSIGN_OR_RETURN(
      double collectiveSeconds,
      detail::secondsFrom(communicationOptions.timeoutSeconds(),
                  "TORUS_COLLECTIVE_TIMEOUT", 30.0));
  state->collectiveTimeout = absl::Seconds(collectiveSeconds);
  return state;
}

} // namespace

absl::StatusOr<MultiWorkerMirroredStrategy>
MultiWorkerMirroredStrategy::create(std::shared_ptr<ClusterResolver> resolver,
                                    CommunicationOptions communicationOptions,
                                    int64_t numLocalDevices,
                                    MultiWorkerOptions multiWorker) {
  if (!resolver)
    resolver = std::make_shared<TFConfigClusterResolver>();
  TORUS_ASSIGN_OR_RETURN(ClusterSpec spec, resolver->clusterSpec());
  int numWorkers = 1, workerId = 0;
  bool isChief = true;
  std::optional<std::string> taskType;
  std::optional<int> taskId;
  if (!spec.empty()) {
    // collective_all_reduce_strategy._initialize_multi_worker.
    taskType = resolver->taskType();
    if (auto *tf = dynamic_cast<TFConfigClusterResolver *>(resolver.get())) {
      TORUS_ASSIGN_OR_RETURN(taskId, tf->taskIdOrError());
    } else {
      taskId = resolver->taskId();
    }
    if (!taskType || !taskId)
      return absl::InvalidArgumentError(
          "When `cluster_spec` is given, you must also specify `task_type` and "
          "`task_id`.");
    TORUS_ASSIGN_OR_RETURN(numWorkers,
                           multi_worker_util::workerCount(spec, *taskType));
    if (numWorkers == 0)
      return absl::InvalidArgumentError(
          "No `worker`, `chief` or `evaluator` tasks can be found in "
          "`cluster_spec`.");
    TORUS_ASSIGN_OR_RETURN(isChief,
                           multi_worker_util::isChief(spec, taskType, taskId));
    TORUS_ASSIGN_OR_RETURN(
        workerId, multi_worker_util::idInCluster(spec, *taskType, *taskId));
  }
  if (numLocalDevices < 1)
    return absl::InvalidArgumentError("numLocalDevices must be >= 1");
  // Devices: /job:localhost/... for one worker; /job:{type}/task:{id}/...
  // (the worker device, spec §5.2) otherwise.
  const std::string prefix =
      taskType ? "/job:" + *taskType + "/replica:0/task:" +
                     std::to_string(*taskId)
               : "/job:localhost/replica:0/task:0";
  std::vector<std::string> devices;
  if (numLocalDevices == 1)
    devices = {prefix + "/device:CPU:0"};
  else
    for (int64_t i = 0; i < numLocalDevices; ++i)
      devices.push_back(prefix + "/device:GPU:" + std::to_string(i));
  TORUS_ASSIGN_OR_RETURN(auto state,
                         mwmsState(devices, resolver, communicationOptions));
  state->numWorkers = numWorkers;
  state->workerId = workerId;
  state->clusterSpec = spec;
  state->taskType = taskType;
  state->taskId = taskId;
  state->isChief = isChief;
  state->multiWorkerMode = numWorkers > 1;
  if (numWorkers > 1) {
    TORUS_ASSIGN_OR_RETURN(
        detail::WorkerConnectionOptions o,
        detail::rendezvousOptions(multiWorker, numWorkers,
                                  "MultiWorkerMirroredStrategy"));
    o.rank = workerId;
    // Rank order: the chief, then the workers (id_in_cluster).
    for (int i = 0; i < multi_worker_util::numTasks(spec, "chief"); ++i)
      o.names.push_back("chief " + std::to_string(i));
    for (int i = 0; i < multi_worker_util::numTasks(spec, "worker"); ++i)
      o.names.push_back("worker " + std::to_string(i));
    if (static_cast<int>(o.names.size()) != numWorkers)
      o.names.clear(); // an evaluator group: plain names
    // Gloo listens on this task's host (the TF_CONFIG address without the
    // port: Gloo picks its own ports).
    TORUS_ASSIGN_OR_RETURN(std::string address,
                           taskAddress(spec, taskType, taskId));
    o.hostname = rt::hostOfAddress(address);
    o.timeout = *state->collectiveTimeout;
    TORUS_ASSIGN_OR_RETURN(state->workerGroup, detail::connectWorkers(o));
  }
  return MultiWorkerMirroredStrategy(state);
}

absl::StatusOr<MultiWorkerMirroredStrategy>
MultiWorkerMirroredStrategy::createWithDevices(
    const std::vector<std::string> &devices,
    std::shared_ptr<ClusterResolver> resolver,
    CommunicationOptions communicationOptions) {
  // CollectiveAllReduceExtended.__init__ / _initialize_local.
  if (resolver && !devices.empty())
    return absl::InvalidArgumentError(
        "cluster_resolver and devices cannot be set at the same time");
  if (devices.empty())
    return create(std::move(resolver), communicationOptions);
  std::vector<std::string> canonical;
  for (const std::string &d : devices) {
    TORUS_ASSIGN_OR_RETURN(std::string c, detail::canonicalizeDevice(d));
    for (const std::string &seen : canonical)
      if (seen == c)
        return absl::InvalidArgumentError("devices: '" + d +
                                          "' names the device " + c +
                                          " a second time");
    canonical.push_back(std::move(c));
  }
  TORUS_ASSIGN_OR_RETURN(
      auto state,
      mwmsState(canonical, std::make_shared<TFConfigClusterResolver>(),
                communicationOptions));
  return MultiWorkerMirroredStrategy(state);
}

int64_t MultiWorkerMirroredStrategy::numWorkers() const {
  return state_->numWorkers;
}
int64_t MultiWorkerMirroredStrategy::workerId() const {
  return state_->workerId;
}
bool MultiWorkerMirroredStrategy::isChief() const { return state_->isChief; }

const CommunicationOptions &
MultiWorkerMirroredStrategy::communicationOptions() const {
  return state_->communicationOptions;
}

} // namespace torus::distribute
