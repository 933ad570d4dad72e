//===- DatasetNode.h - The transformations behind a Dataset -----*- C++ -*-===//
//
// A Dataset is a chain of immutable nodes, each a transformation of its
// input (or a source). Distribution rewrites the chain (rebatching,
// auto-sharding) by building new nodes on top of or in place of the
// trailing ones, as tf.data's graph rewrites do.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_DATASETNODE_H
#define TORUS_DISTRIBUTE_DATASETNODE_H

#include "torus/distribute/Dataset.h"

#include <atomic>
#include <memory>

namespace torus::distribute {

struct Dataset::Node {
  enum class Kind {
    TensorSlices,
    Tensors,
    Range,
    Repeat,
    Batch,
    Unbatch,
    Rebatch,       // RebatchDatasetV2 (dataset.rebatch)
    LegacyRebatch, // RebatchDataset (the legacy split)
    Shard,
    Shuffle,
    Map,
    Prefetch,
    Take,
    Skip,
    Options,
    TextLine, // its input: the indices into `files` it reads, in order
  };

  Kind kind = Kind::Tensors;
  std::shared_ptr<const Node> input;
  ElementSpec spec;
  int64_t cardinality = kUnknownCardinality;
  /// An error TensorFlow raises when building this transformation; returned
  /// by makeIterator().
  absl::Status error;

  std::vector<HostTensor> tensors; // TensorSlices, Tensors
  int64_t a = 0, b = 0, c = 0;     // range start/stop/step, counts, sizes
  bool flag = false;               // dropRemainder, reshuffle, requireNonEmpty
  std::vector<int64_t> sizes;      // Rebatch
  std::optional<uint64_t> seed;    // Shuffle
  MapFn fn;                        // Map
  DatasetOptions options;          // Options
  std::vector<std::string> files;  // TextLine
  /// Passes started over this node (reshuffling per epoch).
  mutable std::atomic<uint64_t> epoch{0};

  /// TensorFlow's op name, e.g. "TensorSliceDataset".
  std::string opName() const;
};

namespace detail {

/// One pass over a node.
class NodeIterator {
public:
  virtual ~NodeIterator() = default;
  /// Fills `out` and returns true, or returns false at the end.
  virtual absl::StatusOr<bool> next(Element &out) = 0;
  /// Skips up to n elements; returns how many were skipped.
  virtual absl::StatusOr<int64_t> skip(int64_t n);
};

absl::StatusOr<std::unique_ptr<NodeIterator>>
makeNodeIterator(const std::shared_ptr<const Dataset::Node> &node);

/// Builders used by Dataset and by the distribution rewrites.
std::shared_ptr<const Dataset::Node>
makeLegacyRebatch(std::shared_ptr<const Dataset::Node> input,
                  int64_t numReplicas);
/// The text-line reader at the bottom of a pipeline's chain of
/// transformations, if any (what FILE auto-sharding shards).
const Dataset::Node *findFileReader(const Dataset &dataset);
std::shared_ptr<const Dataset::Node>
makeShard(std::shared_ptr<const Dataset::Node> input, int64_t numShards,
          int64_t index, bool requireNonEmpty);
/// A copy of `node` on top of a different input.
std::shared_ptr<const Dataset::Node>
withInput(const Dataset::Node &node, std::shared_ptr<const Dataset::Node> input);

} // namespace detail

struct DatasetIterator::Impl {
  std::unique_ptr<detail::NodeIterator> it;
  std::shared_ptr<const Dataset::Node> keepAlive;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_DATASETNODE_H
