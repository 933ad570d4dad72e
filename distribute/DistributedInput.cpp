//===- DistributedInput.cpp - Distributing datasets over replicas ---------===//

#include "distribute/DistributedInput.h"
#include "distribute/DatasetNode.h"
#include "distribute/StepTrace.h"
#include "distribute/WorkerConnection.h"

#include <algorithm>

namespace torus::distribute {

using Node = Dataset::Node;
using NodePtr = std::shared_ptr<const Node>;
using detail::StrategyKind;

namespace detail {

int64_t computeBatchSize(const Dataset &dataset) {
  // Static: every component has a known, equal first dimension.
  bool allKnown = true;
  int64_t size = -2;
  bool unequal = false;
  for (const PartialTensorSpec &s : dataset.elementSpec()) {
    if (s.shape.empty() || s.shape[0] < 0) {
      allKnown = false;
      continue;
    }
    if (size == -2)
      size = s.shape[0];
    else if (size != s.shape[0])
      unequal = true;
  }
  if (allKnown && size >= 0)
    return unequal ? -1 : size;
  // Otherwise walk back to the first batching transformation through
  // transformations that keep the batch size.
  for (const Node *n = dataset.node().get(); n; n = n->input.get()) {
    switch (n->kind) {
    case Node::Kind::Prefetch:
    case Node::Kind::Options:
    case Node::Kind::Map:
    case Node::Kind::Repeat:
    case Node::Kind::Shuffle:
    case Node::Kind::Take:
    case Node::Kind::Skip:
    case Node::Kind::Shard:
      continue;
    case Node::Kind::Batch:
      return n->a;
    default:
      return -1;
    }
  }
  return -1;
}

} // namespace detail

std::vector<int64_t> batchSizesForWorker(int64_t globalBatchSize,
                                         int64_t numWorkers,
                                         int64_t numReplicasPerWorker,
                                         int64_t workerIndex) {
  const int64_t n = numWorkers * numReplicasPerWorker;
  const int64_t floor = globalBatchSize / n;
  const int64_t numCeil = globalBatchSize - n * floor;
  std::vector<int64_t> worker0;
  for (int64_t i = 0; i < n; ++i)
    worker0.push_back(i < numCeil ? floor + 1 : floor);
  std::vector<int64_t> out(worker0.begin() + workerIndex * numReplicasPerWorker,
                           worker0.end());
  out.insert(out.end(), worker0.begin(),
             worker0.begin() + workerIndex * numReplicasPerWorker);
  return out;
}

namespace {

using detail::makeLegacyRebatch;
using detail::makeShard;
using detail::withInput;

/// Rebuilds `chain` (output first) on top of `base`, recomputing the specs
/// of pass-through nodes.
NodePtr rebuild(const std::vector<const Node *> &chain, NodePtr base) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    auto n = std::const_pointer_cast<Node>(withInput(**it, base));
    if (n->kind == Node::Kind::Prefetch || n->kind == Node::Kind::Options) {
      n->spec = n->input->spec;
      n->cardinality = n->input->cardinality;
    }
    base = n;
  }
  return base;
}

bool isInMemorySource(const Node &n) {
  return n.kind == Node::Kind::TensorSlices || n.kind == Node::Kind::Tensors ||
         n.kind == Node::Kind::Range;
}

} // namespace

absl::StatusOr<Dataset> autoShardDataset(const Dataset &dataset,
                                         int64_t numShards, int64_t index,
                                         int64_t numReplicasInSync) {
  AutoShardPolicy policy =
      dataset.options().autoShardPolicy.value_or(AutoShardPolicy::Auto);
  if (policy == AutoShardPolicy::Off)
    return dataset;

  std::vector<const Node *> chain;
  for (const Node *n = dataset.node().get(); n; n = n->input.get())
    chain.push_back(n);

  if (policy == AutoShardPolicy::Hint) {
    // Every shard(SHARD_HINT, ...) becomes shard(W, w).
    NodePtr base = dataset.node();
    while (base->input)
      base = base->input;
    for (size_t i = chain.size() - 1; i-- > 0;) {
      const Node &n = *chain[i];
      if (n.kind == Node::Kind::Shard && n.a == kShardHint)
        base = makeShard(base, numShards, index, false);
      else
        base = rebuild({&n}, base);
    }
    return Dataset(base);
  }

  if (policy == AutoShardPolicy::File && numShards == 1 && index == 0)
    return dataset; // auto_shard.cc skips FILE on one worker
  if (policy == AutoShardPolicy::File || policy == AutoShardPolicy::Auto) {
    // ShardByFile: shard the file names a reader reads, every transformation
    // above it unchanged (no legacy rebatch rewrite).
    if (const Node *reader = detail::findFileReader(dataset)) {
      size_t at = 0;
      while (chain[at] != reader)
        ++at;
      NodePtr sharded = withInput(
          *reader, makeShard(reader->input, numShards, index,
                             /*requireNonEmpty=*/true));
      return Dataset(rebuild(std::vector<const Node *>(chain.begin(),
                                                       chain.begin() + at),
                             sharded));
    }
  }
  if (policy == AutoShardPolicy::File) {
    const Node *source = chain.back();
    if (isInMemorySource(*source))
      return absl::NotFoundError("Found an unshardable source dataset: name: \"" +
                                 source->opName() + "\"\nop: \"" +
                                 source->opName() + "\"");
    return absl::NotFoundError(
        "Did not find a shardable source, walked to a node which is not a "
        "dataset: " +
        source->opName() +
        ". Consider either turning off auto-sharding or switching the "
        "auto_shard_policy to DATA to shard this dataset. You can do this by "
        "creating a new `tf.data.Options()` object then setting "
        "`options.experimental_distribute.auto_shard_policy = "
        "AutoShardPolicy.DATA` before applying the options object to the "
        "dataset via `dataset.with_options(options)`.");
  }

  // AUTO over in-memory data (FILE finds no reader) and DATA: shard(W, w)
  // before the trailing prefetch/options, rewriting a rebatch right before
  // it into the legacy rebatch over all replicas.
  size_t k = 0;
  while (k < chain.size() && (chain[k]->kind == Node::Kind::Prefetch ||
                              chain[k]->kind == Node::Kind::Options))
    ++k;
  std::vector<const Node *> trailing(chain.begin(), chain.begin() + k);
  NodePtr point;
  if (k < chain.size()) {
    // The node at the insertion point, as a shared pointer.
    point = dataset.node();
    for (size_t i = 0; i < k; ++i)
      point = point->input;
  }
  if (!point)
    return dataset;
  if (point->kind == Node::Kind::Rebatch)
    point = makeLegacyRebatch(point->input, numReplicasInSync);
  NodePtr sharded = makeShard(point, numShards, index, /*requireNonEmpty=*/true);
  return Dataset(rebuild(trailing, sharded));
}

namespace detail {

namespace {

absl::Status firstConstructionError(const Dataset &d) {
  for (const Node *n = d.node().get(); n; n = n->input.get())
    if (!n->error.ok())
      return n->error;
  return absl::OkStatus();
}

bool fullyDefined(const ElementSpec &spec) {
  return std::all_of(spec.begin(), spec.end(), [](const PartialTensorSpec &s) {
    return s.isFullyDefined();
  });
}

void finishImpl(DistributedDataset::Impl &impl, const StrategyState &state,
                int64_t inputCardinality) {
  impl.elementSpec = impl.workerDatasets.front().elementSpec();
  impl.partialBatchHandling = state.enableGetNextAsOptional &&
                              inputCardinality != kInfiniteCardinality &&
                              (!fullyDefined(impl.elementSpec) ||
                               state.multiWorkerMode);
  if (impl.partialBatchHandling && state.multiWorkerMode)
    for (PartialTensorSpec &s : impl.elementSpec)
      if (!s.shape.empty())
        s.shape[0] = -1;
  impl.replicaOrder = state.replicaOrder;
  impl.cardinality = inputCardinality;
}

} // namespace

absl::StatusOr<DistributedDataset>
distributeDataset(const std::shared_ptr<StrategyState> &state,
                  const Dataset &dataset, std::optional<InputOptions> options) {
  if (options && state->kind == StrategyKind::CentralStorage)
    // central_storage_strategy.py reads `experimental_replication_moden`.
    return absl::InvalidArgumentError(
        "'InputOptions' object has no attribute "
        "'experimental_replication_moden'");
  if (options &&
      options->experimentalReplicationMode == InputReplicationMode::PerReplica)
    return absl::UnimplementedError(
        state->kind == StrategyKind::TPU
            ? "InputReplicationMode.PER_REPLICA is only supported in "
              "`experimental_distribute_datasets_from_function`."
            : "InputReplicationMode.PER_REPLICA is only supported in "
              "`distribute_datasets_from_function`.");
  // Multi-worker (one process per worker): R and W span the job, and this
  // process builds only its own worker's pipeline.
  const int64_t R = state->numReplicasInSync();
  const int64_t W = state->numWorkers > 1
                        ? state->numWorkers
                        : static_cast<int64_t>(state->inputWorkerReplicas.size());
  if (R % W != 0)
    return absl::InvalidArgumentError(
        "tf.distribute expects every worker to have the same number of "
        "replicas. However, encountered `num_replicas_in_sync` (" +
        std::to_string(R) + ") that cannot be divided by `num_workers` (" +
        std::to_string(W) + ")");
  const int64_t r = R / W;

  auto impl = std::make_shared<DistributedDataset::Impl>();
  impl->strategy = state;
  for (int64_t w = 0; w < W; ++w) {
    if (state->numWorkers > 1 && w != state->workerId)
      continue;
    Dataset d = dataset;
    if (R > 1) {
      int64_t G = computeBatchSize(d);
      if (G != -1)
        d = d.rebatch(batchSizesForWorker(G, W, r, w)).prefetch(r);
      else
        d = Dataset(makeLegacyRebatch(d.node(), R)).prefetch(r);
    }
    TORUS_ASSIGN_OR_RETURN(d, autoShardDataset(d, W, w, R));
    TORUS_RETURN_IF_ERROR(firstConstructionError(d));
    impl->workerDatasets.push_back(d);
    impl->replicasPerWorker.push_back(r);
  }
  finishImpl(*impl, *state, dataset.cardinality());
  return DistributedDataset(impl);
}

absl::StatusOr<DistributedDataset>
distributeDatasetsFromFunction(const std::shared_ptr<StrategyState> &state,
                               const Strategy::DatasetFn &datasetFn,
                               std::optional<InputOptions> options) {
  InputOptions o = options.value_or(InputOptions{});
  const bool perReplica =
      o.experimentalReplicationMode == InputReplicationMode::PerReplica;
  if (!perReplica && o.experimentalPlaceDatasetOnDevice)
    return absl::InvalidArgumentError(
        "When `experimental_place_dataset_on_device` is set for dataset "
        "placement, you must also specify `PER_REPLICA` for the replication "
        "mode");
  if (perReplica && o.experimentalFetchToDevice.value_or(true) &&
      o.experimentalPlaceDatasetOnDevice)
    return absl::InvalidArgumentError(
        "`experimental_place_dataset_on_device` can not be set to True when "
        "experimental_fetch_to_device is True and replication mode is set to "
        "`PER_REPLICA`");
  if (perReplica && state->kind == StrategyKind::TPU)
    return absl::UnimplementedError(
        "InputReplicationMode.PER_REPLICA is only supported in  "
        "`experimental_distribute_datasets_from_function` of "
        "tf.distribute.MirroredStrategy");
  if (perReplica && state->kind == StrategyKind::MultiWorkerMirrored)
    return absl::UnimplementedError(
        "InputReplicationMode.PER_REPLICA is only supported in "
        "`distribute_datasets_from_function` of "
        "tf.distribute.MirroredStrategy");

  const int64_t R = state->numReplicasInSync();
  auto impl = std::make_shared<DistributedDataset::Impl>();
  impl->strategy = state;
  std::vector<InputContext> contexts;
  if (perReplica) {
    for (int64_t i = 0; i < R; ++i) {
      contexts.emplace_back(R, i, R);
      impl->replicasPerWorker.push_back(1);
    }
  } else if (state->numWorkers > 1) {
    // This process is input pipeline `workerId` of the job's workers.
    contexts.emplace_back(state->numWorkers, state->workerId, R);
    impl->replicasPerWorker.push_back(state->numReplicas);
  } else {
    const int64_t W = static_cast<int64_t>(state->inputWorkerReplicas.size());
    for (int64_t w = 0; w < W; ++w) {
      contexts.emplace_back(W, w, R);
      impl->replicasPerWorker.push_back(
          static_cast<int64_t>(state->inputWorkerReplicas[w].size()));
    }
  }
  for (const InputContext &ctx : contexts) {
    TORUS_ASSIGN_OR_RETURN(Dataset d, datasetFn(ctx));
    TORUS_RETURN_IF_ERROR(firstConstructionError(d));
    impl->workerDatasets.push_back(d);
  }
  if (impl->workerDatasets.size() != impl->replicasPerWorker.size())
    return absl::InvalidArgumentError(
        "Number of input workers (" +
        std::to_string(impl->replicasPerWorker.size()) +
        ") is not same as number of input_contexts (" +
        std::to_string(impl->workerDatasets.size()) + ")");
  finishImpl(*impl, *state, impl->workerDatasets.front().cardinality());
  return DistributedDataset(impl);
}

} // namespace detail

//===----------------------------------------------------------------------===//
// DistributedDataset and its iterator
//===----------------------------------------------------------------------===//

DistributedDataset::DistributedDataset(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}

const ElementSpec &DistributedDataset::elementSpec() const {
  return impl_->elementSpec;
}
int64_t DistributedDataset::cardinality() const { return impl_->cardinality; }

struct DistributedIterator::Impl {
  std::shared_ptr<const DistributedDataset::Impl> dataset;
  std::vector<DatasetIterator> iterators;

  absl::StatusOr<std::optional<Values>> next(bool partial);
};

absl::StatusOr<DistributedIterator> DistributedDataset::makeIterator() const {
  auto impl = std::make_unique<DistributedIterator::Impl>();
  impl->dataset = impl_;
  for (const Dataset &d : impl_->workerDatasets) {
    TORUS_ASSIGN_OR_RETURN(DatasetIterator it, d.makeIterator());
    impl->iterators.push_back(std::move(it));
  }
  return DistributedIterator(std::move(impl));
}

DistributedIterator::DistributedIterator(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
DistributedIterator::DistributedIterator(DistributedIterator &&) noexcept =
    default;
DistributedIterator &
DistributedIterator::operator=(DistributedIterator &&) noexcept = default;
DistributedIterator::~DistributedIterator() = default;

const ElementSpec &DistributedIterator::elementSpec() const {
  return impl_->dataset->elementSpec;
}

absl::StatusOr<std::optional<Values>>
DistributedIterator::Impl::next(bool partial) {
  if (detail::StepTrace::current())
    return absl::InvalidArgumentError(
        "next(iterator) should be called from outside of replica_fn. e.g. "
        "strategy.run(replica_fn, args=(next(iterator),))");
  const DistributedDataset::Impl &ds = *dataset;
  const detail::StrategyState &state = *ds.strategy;
  std::vector<std::optional<Element>> fed;
  for (size_t w = 0; w < iterators.size(); ++w)
    for (int64_t k = 0; k < ds.replicasPerWorker[w]; ++k) {
      TORUS_ASSIGN_OR_RETURN(std::optional<Element> e, iterators[w].next());
      if (!e && !partial)
        return std::optional<Values>();
      fed.push_back(std::move(e));
    }
  int64_t withValues = std::count_if(
      fed.begin(), fed.end(), [](const auto &e) { return e.has_value(); });
  // input_lib.py: across worker processes num_replicas_with_values is
  // summed over the workers (one small all-reduce per step, in the same
  // order on every worker), so a worker whose shard ran out feeds dummy
  // batches while the others have data, and all end at the same step. An
  // infinite dataset never ends: TensorFlow skips the agreement there.
  if (partial && ds.cardinality != kInfiniteCardinality &&
      state.numWorkers > 1 && state.workerGroup) {
    HostTensor count = HostTensor::scalar<int64_t>(withValues);
    TORUS_RETURN_IF_ERROR(detail::sumAcrossWorkers(*state.workerGroup, count));
    withValues = count.data<int64_t>()[0];
  }
  if (withValues == 0)
    return std::optional<Values>();
  // Replicas without data get a dummy batch: zeros with batch dimension 0.
  for (auto &e : fed)
    if (!e) {
      Element dummy;
      for (const PartialTensorSpec &s : ds.elementSpec) {
        Shape shape;
        for (size_t d = 0; d < s.shape.size(); ++d)
          shape.push_back(d == 0 ? 0 : std::max<int64_t>(s.shape[d], 0));
        dummy.emplace_back(s.dtype, shape);
      }
      e = std::move(dummy);
    }
  std::vector<Element> replicas;
  if (ds.replicaOrder.empty()) {
    for (auto &e : fed)
      replicas.push_back(std::move(*e));
  } else {
    for (int64_t i : ds.replicaOrder)
      replicas.push_back(*fed[i]);
  }
  Values out;
  const size_t components = replicas.front().size();
  for (size_t c = 0; c < components; ++c) {
    std::vector<HostTensor> values;
    for (Element &e : replicas)
      values.push_back(std::move(e[c]));
    out.emplace_back(PerReplica(std::move(values)));
  }
  return std::optional<Values>(std::move(out));
}

absl::StatusOr<Values> DistributedIterator::next() {
  TORUS_ASSIGN_OR_RETURN(std::optional<Values> v,
                         impl_->next(impl_->dataset->partialBatchHandling));
  if (!v)
    return absl::OutOfRangeError("End of sequence");
  return std::move(*v);
}

absl::StatusOr<std::optional<Values>> DistributedIterator::getNextAsOptional() {
  return impl_->next(/*partial=*/true);
}

} // namespace torus::distribute
