//===- MultiWorkerMirroredStrategy.cpp - MWMS in one process --------------===//

#include "torus/distribute/MultiWorkerMirroredStrategy.h"
#include "distribute/PyRepr.h"
#include "distribute/StrategyState.h"

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

absl::StatusOr<MultiWorkerMirroredStrategy>
MultiWorkerMirroredStrategy::create(std::shared_ptr<ClusterResolver> resolver,
                                    CommunicationOptions communicationOptions,
                                    int64_t numLocalDevices) {
  if (!resolver)
    resolver = std::make_shared<TFConfigClusterResolver>();
  TORUS_ASSIGN_OR_RETURN(ClusterSpec spec, resolver->clusterSpec());
  if (!spec.empty()) {
    if (!resolver->taskType() || !resolver->taskId())
      return absl::InvalidArgumentError(
          "When `cluster_spec` is given, you must also specify `task_type` and "
          "`task_id`.");
    int64_t workers = 0;
    for (const char *job : {"chief", "worker"})
      if (auto it = spec.find(job); it != spec.end())
        workers += static_cast<int64_t>(it->second.size());
    if (workers == 0)
      return absl::InvalidArgumentError(
          "No `worker`, `chief` or `evaluator` tasks can be found in "
          "`cluster_spec`.");
    if (workers > 1)
      return absl::UnimplementedError(
          "MultiWorkerMirroredStrategy across " + std::to_string(workers) +
          " workers needs one process per worker, which Torus does not run "
          "yet; this build runs the single-worker strategy only");
  }
  if (numLocalDevices < 1)
    return absl::InvalidArgumentError("numLocalDevices must be >= 1");
  std::vector<std::string> devices;
  if (numLocalDevices == 1)
    devices = {"/job:localhost/replica:0/task:0/device:CPU:0"};
  else
    for (int64_t i = 0; i < numLocalDevices; ++i)
      devices.push_back("/job:localhost/replica:0/task:0/device:GPU:" +
                        std::to_string(i));
  auto state =
      detail::localState(detail::StrategyKind::MultiWorkerMirrored, devices);
  state->className = "CollectiveAllReduceStrategy";
  state->cppClass = "torus.distribute.MultiWorkerMirroredStrategy";
  state->parameterDevices = devices;
  state->variablePolicy = detail::VariablePolicy::Mirrored;
  state->enableGetNextAsOptional = true;
  state->betweenGraph = true;
  state->resolver = resolver;
  state->communicationOptions = communicationOptions;
  return MultiWorkerMirroredStrategy(state);
}

const CommunicationOptions &
MultiWorkerMirroredStrategy::communicationOptions() const {
  return state_->communicationOptions;
}

} // namespace torus::distribute
