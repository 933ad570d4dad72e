//===- central_storage_loop.cpp - The CentralStorageStrategy page's loop --===//
//
//   strategy = tf.distribute.experimental.CentralStorageStrategy()
//   ds = tf.data.Dataset.range(5).batch(2)
//   dist_dataset = strategy.experimental_distribute_dataset(ds)
//   with strategy.scope():
//     @tf.function
//     def train_step(val):
//       return val + 1
//     for x in dist_dataset:
//       strategy.run(train_step, args=(x,))
//
// With no GPU the strategy has one compute device (CPU:0), so each step
// sees the whole batch: [1 2], [3 4], [5]. On two compute devices each batch
// is split (the legacy split of in-memory data: the last batch [4] becomes
// [4] and an empty slice). Then a variable updated with SUM aggregation
// shows that variables are stored once, on the parameter device.
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

absl::Status seedLoop(const CentralStorageStrategy &strategy) {
  std::printf("CentralStorageStrategy: %lld compute device(s), variables on %s\n",
              static_cast<long long>(strategy.numReplicasInSync()),
              strategy.extended().parameterDevices()[0].c_str());
  Dataset ds = Dataset::range(5).batch(2);
  TORUS_ASSIGN_OR_RETURN(DistributedDataset distDataset,
                         strategy.experimentalDistributeDataset(ds));
  TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
  Function trainStep("train_step", [](const std::vector<Tensor> &val) {
    return std::vector<Tensor>{val[0] + 1};
  });
  TORUS_ASSIGN_OR_RETURN(DistributedIterator it, distDataset.makeIterator());
  while (true) {
    auto x = it.next();
    if (absl::IsOutOfRange(x.status()))
      break;
    TORUS_RETURN_IF_ERROR(x.status());
    TORUS_ASSIGN_OR_RETURN(auto result, strategy.run(trainStep, *x));
    std::printf("%s\n", result[0].toString().c_str());
  }
  return absl::OkStatus();
}

/// Counts examples in a SUM-aggregated variable: one copy, one update per
/// step with the sum over the compute devices.
absl::Status centralVariable(const CentralStorageStrategy &strategy) {
  TORUS_ASSIGN_OR_RETURN(DistributedDataset distDataset,
                         strategy.experimentalDistributeDataset(
                             Dataset::range(8).batch(4, /*dropRemainder=*/true)));
  TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
  TORUS_ASSIGN_OR_RETURN(
      Variable seen, Variable::create(HostTensor::scalar<int64_t>(0),
                                      {.name = "examples_seen",
                                       .aggregation = VariableAggregation::Sum}));
  Function count("count", [&](const std::vector<Tensor> &val) {
    seen.assignAdd(torus::full({}, static_cast<double>(val[0].dim(0)), DType::I64));
    return std::vector<Tensor>{};
  });
  TORUS_ASSIGN_OR_RETURN(DistributedIterator it, distDataset.makeIterator());
  while (true) {
    auto x = it.next();
    if (absl::IsOutOfRange(x.status()))
      break;
    TORUS_RETURN_IF_ERROR(x.status());
    TORUS_RETURN_IF_ERROR(strategy.run(count, *x).status());
  }
  TORUS_ASSIGN_OR_RETURN(HostTensor total, seen.value());
  std::printf("%s %s = %s, stored in %zu copy\n", seen.typeName().c_str(),
              seen.name().c_str(), total.toString().c_str(),
              seen.components().size());
  if (total.data<int64_t>()[0] != 8 || seen.components().size() != 1)
    return absl::InternalError("expected 8 examples in one copy");
  return absl::OkStatus();
}

} // namespace

int main() {
  absl::Status status = [] {
    TORUS_ASSIGN_OR_RETURN(CentralStorageStrategy one,
                           CentralStorageStrategy::create());
    TORUS_RETURN_IF_ERROR(seedLoop(one));
    TORUS_ASSIGN_OR_RETURN(CentralStorageStrategy two,
                           CentralStorageStrategy::create({"GPU:0", "GPU:1"}));
    TORUS_RETURN_IF_ERROR(seedLoop(two));
    return centralVariable(two);
  }();
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\nFAILED\n", status.ToString().c_str());
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
