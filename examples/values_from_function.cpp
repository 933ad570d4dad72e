//===- values_from_function.cpp - experimental_distribute_values_from_function
//
// The examples of experimental_distribute_values_from_function and of run
// on the strategy pages:
//   1. a constant per replica           -> (1.0,)
//   2. values from an array by replica  -> (3.0,)
//   3. num_replicas_in_sync             -> (1,)
//   4. values placed on the TPU workers -> one 1.0 per TPU core
// then strategy.run on distributed values: input * 2 (TPUStrategy page; 8
// replicas of a v3-8 each return 16) and the all-reduce of replica ids
// (MirroredStrategy on two devices: 1 on each).
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"

#include <cstdio>

using namespace torus::distribute;
using torus::DType;
using torus::HostTensor;
using torus::Shape;
using torus::Tensor;

namespace {

std::string tuple(const std::vector<HostTensor> &values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + values[i].toString();
  return s + (values.size() == 1 ? ",)" : ")");
}

absl::Status examples() {
  TORUS_ASSIGN_OR_RETURN(MirroredStrategy strategy, MirroredStrategy::create());

  // 1. Return constant value per replica.
  TORUS_ASSIGN_OR_RETURN(
      PerReplica constant,
      strategy.experimentalDistributeValuesFromFunction(
          [](const ValueContext &) -> absl::StatusOr<HostTensor> {
            return HostTensor::scalar(1.0f);
          }));
  std::printf("1. %s\n", tuple(strategy.experimentalLocalResults(constant)).c_str());

  // 2. Distribute values in array based on replica_id.
  std::vector<float> arrayValue = {3, 2, 1};
  TORUS_ASSIGN_OR_RETURN(
      PerReplica fromArray,
      strategy.experimentalDistributeValuesFromFunction(
          [&](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
            return HostTensor::scalar(arrayValue[ctx.replicaIdInSyncGroup()]);
          }));
  std::printf("2. %s\n", tuple(strategy.experimentalLocalResults(fromArray)).c_str());

  // 3. Specify values using num_replicas_in_sync.
  TORUS_ASSIGN_OR_RETURN(
      PerReplica count,
      strategy.experimentalDistributeValuesFromFunction(
          [](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
            return HostTensor::scalar<int32_t>(
                static_cast<int32_t>(ctx.numReplicasInSync()));
          }));
  std::printf("3. %s\n", tuple(strategy.experimentalLocalResults(count)).c_str());

  // 4. Place values on devices and distribute (TPUStrategy).
  TORUS_ASSIGN_OR_RETURN(TPUStrategy tpu, TPUStrategy::create());
  std::vector<std::string> workerDevices = tpu.extended().workerDevices();
  std::vector<HostTensor> multipleValues;
  for (int64_t i = 0; i < tpu.numReplicasInSync(); ++i)
    multipleValues.push_back(HostTensor::scalar(1.0f));
  TORUS_ASSIGN_OR_RETURN(
      PerReplica placed,
      tpu.experimentalDistributeValuesFromFunction(
          [&](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
            return multipleValues[ctx.replicaIdInSyncGroup()];
          }));
  std::printf("4. %zu values, replica 7 on %s: %s\n", placed.size(),
              workerDevices[7].c_str(), placed[7].toString().c_str());

  // strategy.run with distributed values (TPUStrategy page).
  TORUS_ASSIGN_OR_RETURN(
      PerReplica distributedValues,
      tpu.experimentalDistributeValuesFromFunction(
          [](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
            return HostTensor::scalar<int32_t>(
                static_cast<int32_t>(ctx.numReplicasInSync()));
          }));
  Function replicaFn("replica_fn", [](const std::vector<Tensor> &input) {
    return std::vector<Tensor>{input[0] * 2};
  });
  TORUS_ASSIGN_OR_RETURN(auto result, tpu.run(replicaFn, {distributedValues}));
  std::printf("run: %s\n", result[0].toString().c_str());
  for (const HostTensor &r : result[0].values())
    if (r.data<int32_t>()[0] != 16)
      return absl::InternalError("expected 16 on every replica");

  // Use ReplicaContext to all-reduce values (MirroredStrategy, 2 devices).
  TORUS_ASSIGN_OR_RETURN(MirroredStrategy two,
                         MirroredStrategy::create({"gpu:0", "gpu:1"}));
  TORUS_ASSIGN_OR_RETURN(
      PerReplica ids, two.experimentalDistributeValuesFromFunction(
                          [](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
                            return HostTensor::scalar<int32_t>(
                                static_cast<int32_t>(ctx.replicaIdInSyncGroup()));
                          }));
  Function allReduce("replica_fn", [](const std::vector<Tensor> &input) {
    return std::vector<Tensor>{getReplicaContext()->allReduce("sum", input[0])};
  });
  TORUS_ASSIGN_OR_RETURN(auto summed, two.run(allReduce, {ids}));
  std::printf("all_reduce: %s\n", summed[0].toString().c_str());
  for (const HostTensor &r : summed[0].values())
    if (r.data<int32_t>()[0] != 1)
      return absl::InternalError("expected 1 on every replica");
  return absl::OkStatus();
}

} // namespace

int main() {
  absl::Status status = examples();
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\nFAILED\n", status.ToString().c_str());
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
