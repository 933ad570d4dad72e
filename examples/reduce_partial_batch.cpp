//===- reduce_partial_batch.cpp - reduce with a last partial batch --------===//
//
// The reduce docstring: a global batch of 8 on 2 replicas puts examples
// [0, 1, 2, 3] on replica 0 and [4, 5, 6, 7] on replica 1. reduce(SUM,
// axis=None) adds across replicas ([4 6 8 10]); axis=0 also sums the batch
// (28). When the last batch has 6 examples, split [8, 9, 10, 11] and
// [12, 13], axis=None fails on the mismatched shapes, and MEAN with axis=0
// divides by the true count 6 — unlike the mean of the per-replica means,
// which weighs examples 1/8 and 1/4.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"

#include <cmath>
#include <cstdio>

using namespace torus::distribute;
using torus::DType;
using torus::HostTensor;
using torus::Shape;
using torus::Tensor;

namespace {

absl::Status example() {
  TORUS_ASSIGN_OR_RETURN(MirroredStrategy strategy,
                         MirroredStrategy::create({"GPU:0", "GPU:1"}));
  // 14 examples in global batches of 8; the split the docstring describes
  // is the one of AutoShardPolicy.OFF (spec §3.4).
  Dataset ds = Dataset::range(14)
                   .map([](const Element &e) -> absl::StatusOr<Element> {
                     return Element{HostTensor::scalar(
                         static_cast<float>(e[0].data<int64_t>()[0]))};
                   })
                   .batch(8)
                   .withOptions({AutoShardPolicy::Off});
  TORUS_ASSIGN_OR_RETURN(DistributedDataset dist,
                         strategy.experimentalDistributeDataset(ds));
  TORUS_ASSIGN_OR_RETURN(DistributedIterator it, dist.makeIterator());
  Function perExample("per_example", [](const std::vector<Tensor> &x) {
    return std::vector<Tensor>{x[0], mean(x[0])};
  });

  int step = 0;
  bool ok = true;
  while (true) {
    auto x = it.next();
    if (absl::IsOutOfRange(x.status()))
      break;
    TORUS_RETURN_IF_ERROR(x.status());
    TORUS_ASSIGN_OR_RETURN(auto out, strategy.run(perExample, *x));
    const PerReplica &values = out[0];
    std::printf("step %d: %s\n", ++step, values.toString().c_str());
    auto sumNone = strategy.reduce("sum", values, std::nullopt);
    std::printf("  reduce(SUM, axis=None) = %s\n",
                sumNone.ok() ? sumNone->toString().c_str()
                             : sumNone.status().ToString().c_str());
    TORUS_ASSIGN_OR_RETURN(HostTensor sum0, strategy.reduce("sum", values, 0));
    TORUS_ASSIGN_OR_RETURN(HostTensor mean0, strategy.reduce(ReduceOp::Mean, values, 0));
    TORUS_ASSIGN_OR_RETURN(HostTensor meanOfMeans,
                           strategy.reduce(ReduceOp::Mean, out[1], std::nullopt));
    std::printf("  reduce(SUM, axis=0) = %s\n", sum0.toString().c_str());
    std::printf("  reduce(MEAN, axis=0) = %s   (mean of the replicas' means: %s)\n",
                mean0.toString().c_str(), meanOfMeans.toString().c_str());
    if (step == 1)
      ok = ok && sumNone.ok() && sum0.data<float>()[0] == 28 &&
           mean0.data<float>()[0] == 3.5f;
    if (step == 2)
      ok = ok && !sumNone.ok() && sum0.data<float>()[0] == 63 &&
           mean0.data<float>()[0] == 10.5f &&
           std::abs(meanOfMeans.data<float>()[0] - 11.0f) < 1e-6;
  }
  if (step != 2 || !ok)
    return absl::InternalError("the reductions differ from the docstring");
  return absl::OkStatus();
}

} // namespace

int main() {
  absl::Status status = example();
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\nFAILED\n", status.ToString().c_str());
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
