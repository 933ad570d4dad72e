//===- DistributedInput.h - Distributing datasets over replicas -*- C++ -*-===//
//
// experimental_distribute_dataset and distribute_datasets_from_function
// (spec §3): per input worker, the rebatch (§3.2–§3.5) and auto-shard
// (§3.6) rewrites, then round-robin feeding of the worker's replicas with
// partial-batch handling (§3.8) and the TPU data reorder (§3.10).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_DISTRIBUTEDINPUT_H
#define TORUS_DISTRIBUTE_DISTRIBUTEDINPUT_H

#include "distribute/StrategyState.h"
#include "torus/distribute/DistributedDataset.h"
#include "torus/distribute/Strategy.h"

#include <memory>
#include <optional>
#include <vector>

namespace torus::distribute {

struct DistributedDataset::Impl {
  std::shared_ptr<detail::StrategyState> strategy;
  /// One pipeline per input worker, and how many replicas it feeds.
  std::vector<Dataset> workerDatasets;
  std::vector<int64_t> replicasPerWorker;
  ElementSpec elementSpec;
  /// Whether next() pads missing replicas with dummy batches.
  bool partialBatchHandling = false;
  /// Replica j takes the j-th element of this order (empty: identity).
  std::vector<int64_t> replicaOrder;
  int64_t cardinality = kUnknownCardinality;
};

namespace detail {

/// distribute.compute_batch_size: the global batch size, or -1.
int64_t computeBatchSize(const Dataset &dataset);
// batchSizesForWorker and autoShardDataset are public (Dataset.h).

absl::StatusOr<DistributedDataset>
distributeDataset(const std::shared_ptr<StrategyState> &state,
                  const Dataset &dataset, std::optional<InputOptions> options);
absl::StatusOr<DistributedDataset>
distributeDatasetsFromFunction(const std::shared_ptr<StrategyState> &state,
                               const Strategy::DatasetFn &datasetFn,
                               std::optional<InputOptions> options);

} // namespace detail
} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_DISTRIBUTEDINPUT_H
