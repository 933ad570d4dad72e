//===- Contexts.cpp - InputContext and ValueContext -----------------------===//

#include "torus/distribute/Contexts.h"

#include <string>

namespace torus::distribute {

absl::StatusOr<int64_t>
InputContext::getPerReplicaBatchSize(int64_t globalBatchSize) const {
  if (numReplicasInSync_ == 0 || globalBatchSize % numReplicasInSync_ != 0)
    return absl::InvalidArgumentError(
        "The `global_batch_size` " + std::to_string(globalBatchSize) +
        " is not divisible by `num_replicas_in_sync` " +
        std::to_string(numReplicasInSync_) + " ");
  return globalBatchSize / numReplicasInSync_;
}

std::string InputContext::toString() const {
  return "tf.distribute.InputContext(input pipeline id " +
         std::to_string(inputPipelineId_) + ", total: " +
         std::to_string(numInputPipelines_) + ")";
}

std::string ValueContext::toString() const {
  return "tf.distribute.ValueContext(replica id " +
         std::to_string(replicaIdInSyncGroup_) +
         ",  total replicas in sync: " + std::to_string(numReplicasInSync_) +
         ")";
}

} // namespace torus::distribute
