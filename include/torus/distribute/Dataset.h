//===- Dataset.h - tf.data in the small -------------------------*- C++ -*-===//
//
// An input pipeline on the host, as tf.data.Dataset: an immutable chain of
// transformations over elements, each element a tuple of HostTensors (one
// per component, e.g. features and labels).
//
//   auto ds = Dataset::fromTensorSlices({x, y});   // StatusOr<Dataset>
//   Dataset batches = ds->repeat().batch(8, /*dropRemainder=*/true);
//   auto it = batches.makeIterator();
//   while (auto e = it->next(); e.ok() && e->has_value()) { ... }
//
// Shapes in an element spec may be unknown (-1, Python's None): `batch`
// without dropRemainder leaves the batch dimension unknown, as in
// TensorFlow. Errors that TensorFlow raises when building a transformation
// (a non-positive batch size, ...) are returned by makeIterator() here.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_DATASET_H
#define TORUS_DISTRIBUTE_DATASET_H

#include "torus/HostTensor.h"
#include "torus/Status.h"
#include "torus/distribute/Enums.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torus::distribute {

/// One component's type: a dtype and a shape whose dimensions may be
/// unknown (-1). tf.TensorSpec.
struct PartialTensorSpec {
  /// Element type of the component.
  DType dtype = DType::F32;
  /// Dimensions, -1 where unknown.
  std::vector<int64_t> shape;

  /// Whether no dimension is unknown.
  bool isFullyDefined() const;
  /// Whether `spec` is an instance of this (unknown dimensions match any).
  bool isCompatibleWith(const TensorSpec &spec) const;
  /// "TensorSpec(shape=(None, 5), dtype=tf.float32, name=None)".
  std::string toString() const;
  /// Same dtype and shape (unknown dimensions compare as -1).
  friend bool operator==(const PartialTensorSpec &,
                         const PartialTensorSpec &) = default;
};

/// The spec of every component of an element.
using ElementSpec = std::vector<PartialTensorSpec>;
/// One element: a HostTensor per component.
using Element = std::vector<HostTensor>;

/// "(TensorSpec(...), TensorSpec(...))", or the single spec.
std::string elementSpecToString(const ElementSpec &spec);

/// tf.data.Options, the part that distribution reads
/// (`options.experimental_distribute.auto_shard_policy`).
struct DatasetOptions {
  /// experimental_distribute.auto_shard_policy; nullopt: not set (AUTO).
  std::optional<AutoShardPolicy> autoShardPolicy;
};

///@{
/// tf.data.INFINITE_CARDINALITY and tf.data.UNKNOWN_CARDINALITY.
inline constexpr int64_t kInfiniteCardinality = -1;
inline constexpr int64_t kUnknownCardinality = -2;
///@}
/// tf.data.experimental.SHARD_HINT, for `shard(kShardHint, kShardHint)`
/// under AutoShardPolicy::Hint.
inline constexpr int64_t kShardHint = -1;

class Dataset;

/// A pass over a dataset. next() gives the next element, nullopt at the
/// end (Python's StopIteration), or the error that stopped it.
class DatasetIterator {
public:
  ///@{
  /// Move-only; the iterator owns its pass over the dataset.
  DatasetIterator(DatasetIterator &&) noexcept;
  DatasetIterator &operator=(DatasetIterator &&) noexcept;
  ~DatasetIterator();
  ///@}

  /// The next element; nullopt at the end; an error from the pipeline (e.g.
  /// InvalidArgument "Cannot batch tensors with different shapes in component
  /// 0. ...", or a map function's error) stops the pass.
  absl::StatusOr<std::optional<Element>> next();

  /// Internal: the pass's state.
  struct Impl;
  /// Internal: use Dataset::makeIterator().
  explicit DatasetIterator(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl_;
};

/// tf.data.Dataset on the host: an immutable pipeline of HostTensor elements,
/// cheap to copy (transformations share their input). Transformations never
/// fail themselves: a bad argument (batch size <= 0, shard index out of range,
/// ...) is recorded, with TensorFlow's text as InvalidArgument, and returned by
/// makeIterator(), toVector() and the strategies' distribute functions.
class Dataset {
public:
  /// A host function from one element to another, for map(); its error stops
  /// the pass.
  using MapFn = std::function<absl::StatusOr<Element>(const Element &)>;

  /// Slices every component along its first dimension (they must agree).
  static absl::StatusOr<Dataset>
  /// InvalidArgument "from_tensor_slices needs a tensor", "Unbatching a tensor
  /// is only supported for rank >= 1", "Dimensions 4 and 3 are not compatible".
  fromTensorSlices(std::vector<HostTensor> components);
  /// One element holding `components`.
  static Dataset fromTensors(std::vector<HostTensor> components);
  ///@{
  /// int64 scalars start, start + step, ... before stop.
  static Dataset range(int64_t stop);
  static Dataset range(int64_t start, int64_t stop, int64_t step = 1);
  ///@}

  /// tf.data.TextLineDataset(filenames): the lines of each file in turn,
  /// without their "\n" (or "\r\n"). A line is a uint8 vector of its bytes
  /// (spec (uint8, [-1])): Torus has no string dtype; map() it into numbers.
  /// A file that cannot be opened is NotFound "<name>; No such file or
  /// directory" when the pass reaches it. Its file names are what FILE
  /// auto-sharding shards (autoShardDataset): each worker reads whole files.
  static Dataset textLine(std::vector<std::string> filenames);

  /// `count` passes (-1: forever).
  Dataset repeat(int64_t count = -1) const;
  /// Stacks `batchSize` consecutive elements; the last batch may be smaller
  /// unless dropRemainder.
  Dataset batch(int64_t batchSize, bool dropRemainder = false) const;
  /// Splits every element along its first dimension.
  Dataset unbatch() const;
  /// dataset.rebatch(batch_sizes): unbatch, then batch with sizes cycling
  /// through `batchSizes` (batches span input batches; 0 gives an empty
  /// batch).
  Dataset rebatch(std::vector<int64_t> batchSizes,
                  bool dropRemainder = false) const;
  /// Every numShards-th element starting at index.
  Dataset shard(int64_t numShards, int64_t index) const;
  /// TensorFlow's buffered shuffle. With a seed the order is reproducible
  /// (though not TensorFlow's: the generator differs); each pass reshuffles
  /// unless reshuffleEachIteration is false.
  Dataset shuffle(int64_t bufferSize, std::optional<uint64_t> seed = {},
                  bool reshuffleEachIteration = true) const;
  /// Applies a host function to every element. The output spec is
  /// `outputSpec`, else found by applying `fn` to zeros of the input spec.
  Dataset map(MapFn fn, std::optional<ElementSpec> outputSpec = {}) const;
  /// Declares a prefetch buffer (elements are produced on demand here).
  Dataset prefetch(int64_t bufferSize) const;
  ///@{
  /// The first `count` elements (-1: all), or all but them.
  Dataset take(int64_t count) const;
  Dataset skip(int64_t count) const;
  ///@}
  /// Dataset.with_options: merged with the options already set upstream.
  Dataset withOptions(const DatasetOptions &options) const;

  /// The merged options of the whole pipeline.
  DatasetOptions options() const;
  /// The spec of every component of an element (dimensions -1 where they vary,
  /// e.g. a last partial batch).
  const ElementSpec &elementSpec() const;
  /// Number of elements, kInfiniteCardinality or kUnknownCardinality.
  int64_t cardinality() const;

  /// Starts a pass; fails with the first construction error of the
  /// pipeline (bad batch size, bad shard index, ...).
  absl::StatusOr<DatasetIterator> makeIterator() const;
  /// Every element of one pass (at most `limit`), for tests and examples.
  absl::StatusOr<std::vector<Element>> toVector(int64_t limit = 1 << 20) const;

  /// TensorFlow's op name of the last transformation ("RangeDataset",
  /// "BatchDatasetV2", ...).
  std::string typeName() const;

  /// Internal: one transformation of the pipeline.
  struct Node;
  ///@{
  /// Internal: the last transformation of the pipeline.
  explicit Dataset(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  const std::shared_ptr<const Node> &node() const { return node_; }
  ///@}

private:
  std::shared_ptr<const Node> node_;
};

/// input_ops.auto_shard_dataset(dataset, num_shards, index,
/// num_replicas_in_sync) (spec §3.6): what experimental_distribute_dataset
/// does to worker `index` of `numShards`, by the dataset's
/// AutoShardPolicy:
/// - OFF: the dataset unchanged.
/// - FILE: a text-line dataset (Dataset::textLine) reads only files index,
///   index + numShards, ... (every worker whole files); with fewer files than
///   shards, the first element of a worker that has a file is
///   InvalidArgument "Could not apply FILE based sharding: the dataset only
///   has 1 file(s), which is not enough for the required 2 shards/workers.
///   ...", and a worker beyond the last file reads nothing. FILE with one
///   shard is the dataset unchanged; FILE over in-memory data is NotFound
///   "Found an unshardable source dataset: ...".
/// - DATA: shard(numShards, index) at the end (before a trailing prefetch),
///   a dataset.rebatch() right before it becoming the legacy split over
///   `numReplicasInSync` replicas; the same "Could not apply FILE based
///   sharding ..." error when there are fewer elements than shards.
/// - AUTO (default): FILE when the pipeline reads files, else DATA.
/// - HINT: every shard(kShardHint, kShardHint) becomes shard(numShards,
///   index).
absl::StatusOr<Dataset> autoShardDataset(const Dataset &dataset,
                                         int64_t numShards, int64_t index,
                                         int64_t numReplicasInSync = 1);

/// distribute.batch_sizes_for_worker (spec §3.3): the per-replica batch
/// sizes worker `workerIndex` cycles through to split global batches of
/// `globalBatchSize` over numWorkers x numReplicasPerWorker replicas.
std::vector<int64_t> batchSizesForWorker(int64_t globalBatchSize,
                                         int64_t numWorkers,
                                         int64_t numReplicasPerWorker,
                                         int64_t workerIndex);

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_DATASET_H
