//===- Dataset.cpp - tf.data in the small ---------------------------------===//

#include "distribute/DatasetNode.h"
#include "distribute/HostOps.h"
#include "distribute/PyRepr.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <random>
#include <string>

namespace torus::distribute {

using Node = Dataset::Node;
using NodePtr = std::shared_ptr<const Node>;
using detail::NodeIterator;

//===----------------------------------------------------------------------===//
// Specs
//===----------------------------------------------------------------------===//

bool PartialTensorSpec::isFullyDefined() const {
  return std::none_of(shape.begin(), shape.end(),
                      [](int64_t d) { return d < 0; });
}

bool PartialTensorSpec::isCompatibleWith(const TensorSpec &other) const {
  if (other.dtype != dtype || other.shape.size() != shape.size())
    return false;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] >= 0 && shape[i] != other.shape[i])
      return false;
  return true;
}

std::string PartialTensorSpec::toString() const {
  return "TensorSpec(shape=" + detail::pyShape(shape) +
         ", dtype=tf." + detail::tfDtypeName(dtype) + ", name=None)";
}

std::string elementSpecToString(const ElementSpec &spec) {
  if (spec.size() == 1)
    return spec[0].toString();
  std::string s = "(";
  for (size_t i = 0; i < spec.size(); ++i)
    s += (i ? ", " : "") + spec[i].toString();
  return s + (spec.size() == 1 ? ",)" : ")");
}

namespace {

PartialTensorSpec specOf(const HostTensor &t) {
  return {t.dtype(), t.shape()};
}

int64_t mulCardinality(int64_t n, int64_t times) {
  if (times == 0 || n == 0)
    return 0;
  if (n == kUnknownCardinality)
    return n;
  if (times < 0 || n == kInfiniteCardinality)
    return kInfiniteCardinality;
  return n * times;
}

std::shared_ptr<Node> derive(const Dataset &d, Node::Kind kind) {
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->input = d.node();
  n->spec = d.node()->spec;
  n->cardinality = d.node()->cardinality;
  return n;
}

} // namespace

std::string Node::opName() const {
  switch (kind) {
  case Kind::TensorSlices:
    return "TensorSliceDataset";
  case Kind::Tensors:
    return "TensorDataset";
  case Kind::Range:
    return "RangeDataset";
  case Kind::Repeat:
    return "RepeatDataset";
  case Kind::Batch:
    return "BatchDatasetV2";
  case Kind::Unbatch:
    return "UnbatchDataset";
  case Kind::Rebatch:
    return "RebatchDatasetV2";
  case Kind::LegacyRebatch:
    return "RebatchDataset";
  case Kind::Shard:
    return "ShardDataset";
  case Kind::Shuffle:
    return "ShuffleDatasetV3";
  case Kind::Map:
    return "MapDataset";
  case Kind::Prefetch:
    return "PrefetchDataset";
  case Kind::Take:
    return "TakeDataset";
  case Kind::Skip:
    return "SkipDataset";
  case Kind::Options:
    return "OptionsDataset";
  case Kind::TextLine:
    return "TextLineDataset";
  }
  return "Dataset";
}

//===----------------------------------------------------------------------===//
// Iterators
//===----------------------------------------------------------------------===//

absl::StatusOr<int64_t> NodeIterator::skip(int64_t n) {
  Element dropped;
  for (int64_t i = 0; i < n; ++i) {
    TORUS_ASSIGN_OR_RETURN(bool more, next(dropped));
    if (!more)
      return i;
  }
  return n;
}

namespace {

class SlicesIterator : public NodeIterator {
public:
  explicit SlicesIterator(const Node &n) : n_(n) {}
  absl::StatusOr<bool> next(Element &out) override {
    if (i_ >= n_.cardinality)
      return false;
    out.clear();
    for (const HostTensor &t : n_.tensors)
      out.push_back(detail::row(t, i_));
    ++i_;
    return true;
  }

private:
  const Node &n_;
  int64_t i_ = 0;
};

class TensorsIterator : public NodeIterator {
public:
  explicit TensorsIterator(const Node &n) : n_(n) {}
  absl::StatusOr<bool> next(Element &out) override {
    if (done_)
      return false;
    done_ = true;
    out = n_.tensors;
    return true;
  }

private:
  const Node &n_;
  bool done_ = false;
};

class RangeIterator : public NodeIterator {
public:
  explicit RangeIterator(const Node &n) : n_(n), value_(n.a) {}
  absl::StatusOr<bool> next(Element &out) override {
    if ((n_.c > 0 && value_ >= n_.b) || (n_.c < 0 && value_ <= n_.b))
      return false;
    out = {HostTensor::scalar<int64_t>(value_)};
    value_ += n_.c;
    return true;
  }

private:
  const Node &n_;
  int64_t value_;
};

class RepeatIterator : public NodeIterator {
public:
  explicit RepeatIterator(const Node &n) : n_(n) {}
  absl::StatusOr<bool> next(Element &out) override {
    while (true) {
      if (n_.a >= 0 && epoch_ >= n_.a)
        return false;
      if (!input_) {
        TORUS_ASSIGN_OR_RETURN(input_, detail::makeNodeIterator(n_.input));
        producedThisEpoch_ = 0;
      }
      TORUS_ASSIGN_OR_RETURN(bool more, input_->next(out));
      if (more) {
        ++producedThisEpoch_;
        return true;
      }
      input_.reset();
      ++epoch_;
      // An empty input repeated forever is empty (TensorFlow stops too).
      if (producedThisEpoch_ == 0)
        return false;
    }
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
  int64_t epoch_ = 0;
  int64_t producedThisEpoch_ = 0;
};

class BatchIterator : public NodeIterator {
public:
  BatchIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    std::vector<Element> rows;
    Element e;
    while (static_cast<int64_t>(rows.size()) < n_.a) {
      TORUS_ASSIGN_OR_RETURN(bool more, input_->next(e));
      if (!more)
        break;
      if (!rows.empty())
        for (size_t c = 0; c < e.size(); ++c)
          if (e[c].shape() != rows[0][c].shape())
            return absl::InvalidArgumentError(
                "Cannot batch tensors with different shapes in component " +
                std::to_string(c) + ". First element had shape " +
                shapeToString(rows[0][c].shape()) + " and element " +
                std::to_string(rows.size()) + " had shape " +
                shapeToString(e[c].shape()) + ".");
      rows.push_back(std::move(e));
    }
    if (rows.empty() ||
        (n_.flag && static_cast<int64_t>(rows.size()) < n_.a))
      return false;
    out.clear();
    for (size_t c = 0; c < rows[0].size(); ++c) {
      std::vector<HostTensor> parts;
      parts.reserve(rows.size());
      for (Element &r : rows)
        parts.push_back(std::move(r[c]));
      out.push_back(detail::stack(parts));
    }
    return true;
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
};

/// Rows of the current input batch, consumed front to back (unbatch and the
/// modern rebatch).
class RowSource {
public:
  explicit RowSource(std::unique_ptr<NodeIterator> input)
      : input_(std::move(input)) {}
  /// Up to `n` rows per component, possibly spanning input batches; the
  /// count taken is returned.
  absl::StatusOr<int64_t> take(int64_t n, std::vector<std::vector<HostTensor>> &parts) {
    int64_t taken = 0;
    while (taken < n) {
      if (offset_ >= rows_) {
        if (done_)
          break;
        TORUS_ASSIGN_OR_RETURN(bool more, input_->next(current_));
        if (!more) {
          done_ = true;
          break;
        }
        if (current_.empty() || current_[0].shape().empty())
          return absl::InvalidArgumentError(
              "Cannot rebatch dataset: All components must have at least one "
              "dimension. Perhaps your input dataset is not batched?");
        rows_ = current_[0].shape()[0];
        offset_ = 0;
        continue;
      }
      if (parts.size() < current_.size())
        parts.resize(current_.size());
      int64_t k = std::min(n - taken, rows_ - offset_);
      for (size_t c = 0; c < current_.size(); ++c)
        parts[c].push_back(detail::sliceRows(current_[c], offset_, offset_ + k));
      offset_ += k;
      taken += k;
    }
    return taken;
  }
  bool exhausted() const { return done_ && offset_ >= rows_; }
  const Element &current() const { return current_; }

private:
  std::unique_ptr<NodeIterator> input_;
  Element current_;
  int64_t rows_ = 0, offset_ = 0;
  bool done_ = false;
};

class UnbatchIterator : public NodeIterator {
public:
  explicit UnbatchIterator(std::unique_ptr<NodeIterator> input)
      : input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    while (offset_ >= rows_) {
      TORUS_ASSIGN_OR_RETURN(bool more, input_->next(current_));
      if (!more)
        return false;
      rows_ = current_.empty() ? 0 : current_[0].shape()[0];
      offset_ = 0;
    }
    out.clear();
    for (const HostTensor &t : current_)
      out.push_back(detail::row(t, offset_));
    ++offset_;
    return true;
  }

private:
  std::unique_ptr<NodeIterator> input_;
  Element current_;
  int64_t rows_ = 0, offset_ = 0;
};

/// An empty batch (first dimension 0) of `spec`, with unknown inner
/// dimensions taken from `like` when given, else 0.
Element emptyBatch(const ElementSpec &spec, const Element *like) {
  Element out;
  for (size_t c = 0; c < spec.size(); ++c) {
    Shape shape;
    for (size_t d = 0; d < spec[c].shape.size(); ++d) {
      int64_t dim = spec[c].shape[d];
      if (d == 0)
        dim = 0;
      else if (dim < 0)
        dim = like && c < like->size() ? (*like)[c].shape()[d] : 0;
      shape.push_back(dim);
    }
    out.emplace_back(spec[c].dtype, shape);
  }
  return out;
}

class RebatchIterator : public NodeIterator {
public:
  RebatchIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), rows_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    int64_t size = n_.sizes[k_ % n_.sizes.size()];
    ++k_;
    if (size == 0) {
      if (rows_.exhausted())
        return false;
      out = emptyBatch(n_.spec, rows_.current().empty() ? nullptr
                                                        : &rows_.current());
      return true;
    }
    std::vector<std::vector<HostTensor>> parts;
    TORUS_ASSIGN_OR_RETURN(int64_t taken, rows_.take(size, parts));
    if (taken == 0 || (n_.flag && taken < size))
      return false;
    out.clear();
    for (auto &p : parts)
      out.push_back(p.size() == 1 ? std::move(p[0]) : detail::concatRows(p));
    return true;
  }

private:
  const Node &n_;
  RowSource rows_;
  int64_t k_ = 0;
};

class LegacyRebatchIterator : public NodeIterator {
public:
  LegacyRebatchIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    if (slice_ >= n_.a) {
      TORUS_ASSIGN_OR_RETURN(bool more, input_->next(current_));
      if (!more)
        return false;
      for (const HostTensor &t : current_)
        if (t.shape().empty())
          return absl::InvalidArgumentError(
              "Cannot rebatch dataset: All components must have at least one "
              "dimension. Perhaps your input dataset is not batched?");
      slice_ = 0;
    }
    out.clear();
    for (const HostTensor &t : current_) {
      int64_t b = t.shape()[0];
      int64_t interval = (b + n_.a - 1) / n_.a;
      int64_t begin = std::min(slice_ * interval, b);
      int64_t end = std::min((slice_ + 1) * interval, b);
      out.push_back(detail::sliceRows(t, begin, end));
    }
    ++slice_;
    return true;
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
  Element current_;
  int64_t slice_ = 1 << 30;
};

/// TextLineDataset: the lines of each file its input names (indices into
/// `files`), without their "\n" or "\r\n"; a last line without a newline
/// counts, an empty file gives none.
class TextLineIterator : public NodeIterator {
public:
  TextLineIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    while (true) {
      if (!in_.is_open()) {
        Element index;
        TORUS_ASSIGN_OR_RETURN(bool more, input_->next(index));
        if (!more)
          return false;
        name_ = n_.files[static_cast<size_t>(index[0].data<int64_t>()[0])];
        in_.open(name_, std::ios::binary);
        if (!in_.is_open())
          return absl::NotFoundError(name_ + "; No such file or directory");
      }
      std::string line;
      if (std::getline(in_, line)) {
        if (!line.empty() && line.back() == '\r')
          line.pop_back();
        out = {HostTensor::fromVector<uint8_t>(
            {static_cast<int64_t>(line.size())},
            std::vector<uint8_t>(line.begin(), line.end()))};
        return true;
      }
      if (in_.bad())
        return absl::DataLossError("reading a line of " + name_ + " failed");
      in_.close();
      in_.clear();
    }
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
  std::ifstream in_;
  std::string name_;
};

class ShardIterator : public NodeIterator {
public:
  ShardIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), input_(std::move(input)) {}
  // TensorFlow's ShardDataset iterator (shard_dataset_op.cc), including the
  // require_non_empty check of auto-sharding.
  absl::StatusOr<bool> next(Element &out) override {
    if (!input_)
      return false;
    int64_t numShards = n_.a, index = n_.b;
    int64_t toSkip = ((index - nextIndex_) % numShards + numShards) % numShards;
    TORUS_ASSIGN_OR_RETURN(int64_t skipped, input_->skip(toSkip));
    nextIndex_ += skipped;
    if (skipped < toSkip) {
      input_.reset();
      return false;
    }
    TORUS_ASSIGN_OR_RETURN(bool more, input_->next(out));
    if (!more) {
      input_.reset();
      return false;
    }
    ++nextIndex_;
    if (n_.flag && nextIndex_ < numShards) {
      int64_t want = numShards - nextIndex_;
      TORUS_ASSIGN_OR_RETURN(int64_t got, input_->skip(want));
      if (got < want)
        return absl::InvalidArgumentError(
            "Could not apply FILE based sharding: the dataset only has " +
            std::to_string(nextIndex_) +
            " file(s), which is not enough for the required " +
            std::to_string(numShards) +
            " shards/workers. If you are using datasets with distribution "
            "strategy, consider setting the auto sharding policy to either "
            "DATA or OFF using the `experimental_distribute.auto_shard_policy` "
            "option of `tf.data.Options()`.");
      nextIndex_ = numShards;
    }
    return true;
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
  int64_t nextIndex_ = 0;
};

class ShuffleIterator : public NodeIterator {
public:
  ShuffleIterator(const Node &n, std::unique_ptr<NodeIterator> input,
                  uint64_t seed)
      : n_(n), input_(std::move(input)), gen_(seed) {}
  absl::StatusOr<bool> next(Element &out) override {
    while (!done_ && static_cast<int64_t>(buffer_.size()) < n_.a) {
      Element e;
      TORUS_ASSIGN_OR_RETURN(bool more, input_->next(e));
      if (!more) {
        done_ = true;
        break;
      }
      buffer_.push_back(std::move(e));
    }
    if (buffer_.empty())
      return false;
    std::uniform_int_distribution<size_t> pick(0, buffer_.size() - 1);
    size_t i = pick(gen_);
    out = std::move(buffer_[i]);
    buffer_[i] = std::move(buffer_.back());
    buffer_.pop_back();
    return true;
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
  std::mt19937_64 gen_;
  std::vector<Element> buffer_;
  bool done_ = false;
};

class MapIterator : public NodeIterator {
public:
  MapIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    Element e;
    TORUS_ASSIGN_OR_RETURN(bool more, input_->next(e));
    if (!more)
      return false;
    TORUS_ASSIGN_OR_RETURN(out, n_.fn(e));
    return true;
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
};

class TakeIterator : public NodeIterator {
public:
  TakeIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    if (n_.a >= 0 && taken_ >= n_.a)
      return false;
    TORUS_ASSIGN_OR_RETURN(bool more, input_->next(out));
    taken_ += more;
    return more;
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
  int64_t taken_ = 0;
};

class SkipIterator : public NodeIterator {
public:
  SkipIterator(const Node &n, std::unique_ptr<NodeIterator> input)
      : n_(n), input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override {
    if (!skipped_) {
      skipped_ = true;
      int64_t n = n_.a < 0 ? INT64_MAX : n_.a;
      TORUS_ASSIGN_OR_RETURN(int64_t got, input_->skip(n));
      (void)got;
    }
    return input_->next(out);
  }

private:
  const Node &n_;
  std::unique_ptr<NodeIterator> input_;
  bool skipped_ = false;
};

class PassThroughIterator : public NodeIterator {
public:
  explicit PassThroughIterator(std::unique_ptr<NodeIterator> input)
      : input_(std::move(input)) {}
  absl::StatusOr<bool> next(Element &out) override { return input_->next(out); }
  absl::StatusOr<int64_t> skip(int64_t n) override { return input_->skip(n); }

private:
  std::unique_ptr<NodeIterator> input_;
};

} // namespace

namespace detail {

absl::StatusOr<std::unique_ptr<NodeIterator>>
makeNodeIterator(const NodePtr &node) {
  const Node &n = *node;
  if (!n.error.ok())
    return n.error;
  std::unique_ptr<NodeIterator> input;
  if (n.input && n.kind != Node::Kind::Repeat) {
    TORUS_ASSIGN_OR_RETURN(input, makeNodeIterator(n.input));
  }
  switch (n.kind) {
  case Node::Kind::TensorSlices:
    return std::make_unique<SlicesIterator>(n);
  case Node::Kind::Tensors:
    return std::make_unique<TensorsIterator>(n);
  case Node::Kind::Range:
    return std::make_unique<RangeIterator>(n);
  case Node::Kind::Repeat:
    return std::make_unique<RepeatIterator>(n);
  case Node::Kind::Batch:
    return std::make_unique<BatchIterator>(n, std::move(input));
  case Node::Kind::Unbatch:
    return std::make_unique<UnbatchIterator>(std::move(input));
  case Node::Kind::Rebatch:
    return std::make_unique<RebatchIterator>(n, std::move(input));
  case Node::Kind::LegacyRebatch:
    return std::make_unique<LegacyRebatchIterator>(n, std::move(input));
  case Node::Kind::Shard:
    if (n.a == kShardHint)
      return absl::FailedPreconditionError(
          "`tf.data.Dataset.shard(SHARD_HINT, ...)` can only be used in "
          "`tf.distribute.Strategy.experimental_distribute_dataset()` with "
          "`tf.data.experimental.AutoShardPolicy.HINT` policy, or tf.data "
          "service with `tf.data.experimental.service.ShardingPolicy.HINT` "
          "processing mode.");
    return std::make_unique<ShardIterator>(n, std::move(input));
  case Node::Kind::Shuffle: {
    uint64_t epoch = n.epoch.fetch_add(1);
    uint64_t seed = n.seed ? *n.seed : std::random_device{}();
    if (n.flag)
      seed = seed * 0x9E3779B97F4A7C15ull + epoch;
    return std::make_unique<ShuffleIterator>(n, std::move(input), seed);
  }
  case Node::Kind::Map:
    return std::make_unique<MapIterator>(n, std::move(input));
  case Node::Kind::Take:
    return std::make_unique<TakeIterator>(n, std::move(input));
  case Node::Kind::Skip:
    return std::make_unique<SkipIterator>(n, std::move(input));
  case Node::Kind::Prefetch:
  case Node::Kind::Options:
    return std::make_unique<PassThroughIterator>(std::move(input));
  case Node::Kind::TextLine:
    return std::make_unique<TextLineIterator>(n, std::move(input));
  }
  return absl::InternalError("unknown dataset node");
}

NodePtr makeLegacyRebatch(NodePtr input, int64_t numReplicas) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::LegacyRebatch;
  n->spec = input->spec;
  n->a = numReplicas;
  n->cardinality = mulCardinality(input->cardinality, numReplicas);
  for (PartialTensorSpec &s : n->spec) {
    if (s.shape.empty()) {
      n->error = absl::InvalidArgumentError(
          "Invalid `input_dataset`. Expected a dataset whose elements have "
          "rank >= 1 but found a dataset whose elements are scalars. Fix the "
          "issue by adding the `batch` transformation to the dataset.");
      continue;
    }
    int64_t b = s.shape[0];
    s.shape[0] = (b >= 0 && b % numReplicas == 0) ? b / numReplicas : -1;
  }
  n->input = std::move(input);
  return n;
}

NodePtr makeShard(NodePtr input, int64_t numShards, int64_t index,
                  bool requireNonEmpty) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::Shard;
  n->spec = input->spec;
  n->a = numShards;
  n->b = index;
  n->flag = requireNonEmpty;
  if (numShards <= 0 && numShards != kShardHint)
    n->error = absl::InvalidArgumentError(
        "Number of shards must be greater than zero (currently num_shards = " +
        std::to_string(numShards) + ").");
  else if ((index < 0 || index >= numShards) && numShards != kShardHint)
    n->error = absl::InvalidArgumentError(
        "Index must be between 0 and " + std::to_string(numShards - 1) +
        " (currently index = " + std::to_string(index) + ").");
  int64_t c = input->cardinality;
  if (c < 0 || numShards <= 0)
    n->cardinality = c;
  else
    n->cardinality = c / numShards + (index < c % numShards ? 1 : 0);
  n->input = std::move(input);
  return n;
}

NodePtr withInput(const Node &node, NodePtr input) {
  auto n = std::make_shared<Node>();
  n->kind = node.kind;
  n->input = std::move(input);
  n->spec = node.spec;
  n->cardinality = node.cardinality;
  n->error = node.error;
  n->tensors = node.tensors;
  n->a = node.a;
  n->b = node.b;
  n->c = node.c;
  n->flag = node.flag;
  n->sizes = node.sizes;
  n->seed = node.seed;
  n->fn = node.fn;
  n->files = node.files;
  n->options = node.options;
  return n;
}

} // namespace detail

//===----------------------------------------------------------------------===//
// Dataset
//===----------------------------------------------------------------------===//

absl::StatusOr<Dataset>
Dataset::fromTensorSlices(std::vector<HostTensor> components) {
  if (components.empty())
    return absl::InvalidArgumentError("from_tensor_slices needs a tensor");
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::TensorSlices;
  for (const HostTensor &t : components) {
    if (t.shape().empty())
      return absl::InvalidArgumentError(
          "Unbatching a tensor is only supported for rank >= 1");
    if (t.shape()[0] != components[0].shape()[0])
      return absl::InvalidArgumentError(
          "Dimensions " + std::to_string(components[0].shape()[0]) + " and " +
          std::to_string(t.shape()[0]) + " are not compatible");
    n->spec.push_back(
        {t.dtype(), Shape(t.shape().begin() + 1, t.shape().end())});
  }
  n->cardinality = components[0].shape()[0];
  n->tensors = std::move(components);
  return Dataset(n);
}

Dataset Dataset::fromTensors(std::vector<HostTensor> components) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::Tensors;
  for (const HostTensor &t : components)
    n->spec.push_back(specOf(t));
  n->cardinality = 1;
  n->tensors = std::move(components);
  return Dataset(n);
}

Dataset Dataset::textLine(std::vector<std::string> filenames) {
  // TensorFlow reads filenames.flat_map(one file's reader): the file names
  // are a dataset of their own, which FILE auto-sharding shards. Here it
  // holds the indices of the names.
  Dataset names = range(static_cast<int64_t>(filenames.size()));
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::TextLine;
  n->input = names.node();
  n->spec = {{DType::U8, {-1}}};
  n->cardinality = kUnknownCardinality;
  n->files = std::move(filenames);
  return Dataset(n);
}

namespace detail {
const Node *findFileReader(const Dataset &dataset) {
  for (const Node *n = dataset.node().get(); n; n = n->input.get())
    if (n->kind == Node::Kind::TextLine)
      return n;
  return nullptr;
}
} // namespace detail

Dataset Dataset::range(int64_t stop) { return range(0, stop, 1); }

Dataset Dataset::range(int64_t start, int64_t stop, int64_t step) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::Range;
  n->spec = {{DType::I64, {}}};
  n->a = start;
  n->b = stop;
  n->c = step;
  if (step == 0) {
    n->error = absl::InvalidArgumentError("step must be a non-zero integer.");
    n->cardinality = 0;
  } else if (step > 0) {
    n->cardinality = stop > start ? (stop - start + step - 1) / step : 0;
  } else {
    n->cardinality = start > stop ? (start - stop - step - 1) / -step : 0;
  }
  return Dataset(n);
}

Dataset Dataset::repeat(int64_t count) const {
  auto n = derive(*this, Node::Kind::Repeat);
  n->a = count;
  n->cardinality = mulCardinality(node_->cardinality, count);
  return Dataset(n);
}

Dataset Dataset::batch(int64_t batchSize, bool dropRemainder) const {
  auto n = derive(*this, Node::Kind::Batch);
  n->a = batchSize;
  n->flag = dropRemainder;
  if (batchSize <= 0)
    n->error = absl::InvalidArgumentError("batch_size must be greater than zero.");
  for (PartialTensorSpec &s : n->spec)
    s.shape.insert(s.shape.begin(), dropRemainder ? batchSize : -1);
  int64_t c = node_->cardinality;
  if (c >= 0 && batchSize > 0)
    n->cardinality = dropRemainder ? c / batchSize
                                   : (c + batchSize - 1) / batchSize;
  return Dataset(n);
}

Dataset Dataset::unbatch() const {
  auto n = derive(*this, Node::Kind::Unbatch);
  for (PartialTensorSpec &s : n->spec) {
    if (s.shape.empty()) {
      n->error = absl::InvalidArgumentError(
          "Cannot unbatch an input with scalar components.");
      continue;
    }
    s.shape.erase(s.shape.begin());
  }
  n->cardinality = node_->cardinality == kInfiniteCardinality
                       ? kInfiniteCardinality
                       : kUnknownCardinality;
  return Dataset(n);
}

Dataset Dataset::rebatch(std::vector<int64_t> batchSizes,
                         bool dropRemainder) const {
  auto n = derive(*this, Node::Kind::Rebatch);
  n->flag = dropRemainder;
  bool allEqual = !batchSizes.empty() &&
                  std::all_of(batchSizes.begin(), batchSizes.end(),
                              [&](int64_t s) { return s == batchSizes[0]; });
  if (batchSizes.empty())
    n->error = absl::InvalidArgumentError(
        "`batch_sizes` must be a non-empty list of integers.");
  for (int64_t s : batchSizes)
    if (s < 0)
      n->error = absl::InvalidArgumentError(
          "`batch_sizes` must be non-negative.");
  for (PartialTensorSpec &s : n->spec) {
    if (s.shape.empty()) {
      n->error = absl::InvalidArgumentError(
          "Cannot rebatch dataset: All components must have at least one "
          "dimension. Perhaps your input dataset is not batched?");
      continue;
    }
    s.shape[0] = (allEqual && dropRemainder) ? batchSizes[0] : -1;
  }
  n->sizes = std::move(batchSizes);
  n->cardinality = node_->cardinality == kInfiniteCardinality
                       ? kInfiniteCardinality
                       : kUnknownCardinality;
  return Dataset(n);
}

Dataset Dataset::shard(int64_t numShards, int64_t index) const {
  return Dataset(detail::makeShard(node_, numShards, index,
                                   /*requireNonEmpty=*/false));
}

Dataset Dataset::shuffle(int64_t bufferSize, std::optional<uint64_t> seed,
                         bool reshuffleEachIteration) const {
  auto n = derive(*this, Node::Kind::Shuffle);
  n->a = bufferSize;
  n->seed = seed;
  n->flag = reshuffleEachIteration;
  if (bufferSize <= 0)
    n->error = absl::InvalidArgumentError(
        "buffer_size must be greater than zero.");
  return Dataset(n);
}

Dataset Dataset::map(MapFn fn, std::optional<ElementSpec> outputSpec) const {
  auto n = derive(*this, Node::Kind::Map);
  n->fn = std::move(fn);
  if (outputSpec) {
    n->spec = std::move(*outputSpec);
    return Dataset(n);
  }
  // Infer the output spec by applying fn to zeros of the input spec: with
  // unknown dimensions as 1 and as 2, so output dimensions that follow them
  // stay unknown.
  auto dummy = [&](int64_t unknown) {
    Element e;
    for (const PartialTensorSpec &s : node_->spec) {
      Shape shape;
      for (int64_t d : s.shape)
        shape.push_back(d < 0 ? unknown : d);
      e.emplace_back(s.dtype, shape);
    }
    return e;
  };
  auto one = n->fn(dummy(1));
  if (!one.ok()) {
    n->error = absl::InvalidArgumentError(
        "map: cannot infer the output spec (pass outputSpec): " +
        std::string(one.status().message()));
    return Dataset(n);
  }
  n->spec.clear();
  for (const HostTensor &t : *one)
    n->spec.push_back(specOf(t));
  bool fullyDefined = std::all_of(
      node_->spec.begin(), node_->spec.end(),
      [](const PartialTensorSpec &s) { return s.isFullyDefined(); });
  if (!fullyDefined) {
    auto two = n->fn(dummy(2));
    if (two.ok() && two->size() == one->size())
      for (size_t c = 0; c < two->size(); ++c)
        for (size_t d = 0; d < n->spec[c].shape.size() &&
                           d < (*two)[c].shape().size();
             ++d)
          if ((*two)[c].shape()[d] != n->spec[c].shape[d])
            n->spec[c].shape[d] = -1;
  }
  return Dataset(n);
}

Dataset Dataset::prefetch(int64_t bufferSize) const {
  auto n = derive(*this, Node::Kind::Prefetch);
  n->a = bufferSize;
  return Dataset(n);
}

Dataset Dataset::take(int64_t count) const {
  auto n = derive(*this, Node::Kind::Take);
  n->a = count;
  int64_t c = node_->cardinality;
  if (count >= 0)
    n->cardinality = c == kInfiniteCardinality ? count
                     : c < 0                   ? kUnknownCardinality
                                               : std::min(c, count);
  return Dataset(n);
}

Dataset Dataset::skip(int64_t count) const {
  auto n = derive(*this, Node::Kind::Skip);
  n->a = count;
  int64_t c = node_->cardinality;
  if (c >= 0)
    n->cardinality = count < 0 ? 0 : std::max<int64_t>(0, c - count);
  return Dataset(n);
}

Dataset Dataset::withOptions(const DatasetOptions &options) const {
  auto n = derive(*this, Node::Kind::Options);
  n->options = options;
  return Dataset(n);
}

DatasetOptions Dataset::options() const {
  DatasetOptions merged;
  for (const Node *n = node_.get(); n; n = n->input.get())
    if (n->kind == Node::Kind::Options && !merged.autoShardPolicy)
      merged.autoShardPolicy = n->options.autoShardPolicy;
  return merged;
}

const ElementSpec &Dataset::elementSpec() const { return node_->spec; }
int64_t Dataset::cardinality() const { return node_->cardinality; }
std::string Dataset::typeName() const { return node_->opName(); }

absl::StatusOr<DatasetIterator> Dataset::makeIterator() const {
  auto impl = std::make_unique<DatasetIterator::Impl>();
  TORUS_ASSIGN_OR_RETURN(impl->it, detail::makeNodeIterator(node_));
  impl->keepAlive = node_;
  return DatasetIterator(std::move(impl));
}

absl::StatusOr<std::vector<Element>> Dataset::toVector(int64_t limit) const {
  TORUS_ASSIGN_OR_RETURN(DatasetIterator it, makeIterator());
  std::vector<Element> out;
  while (static_cast<int64_t>(out.size()) < limit) {
    TORUS_ASSIGN_OR_RETURN(std::optional<Element> e, it.next());
    if (!e)
      break;
    out.push_back(std::move(*e));
  }
  return out;
}

//===----------------------------------------------------------------------===//
// DatasetIterator
//===----------------------------------------------------------------------===//

DatasetIterator::DatasetIterator(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
DatasetIterator::DatasetIterator(DatasetIterator &&) noexcept = default;
DatasetIterator &DatasetIterator::operator=(DatasetIterator &&) noexcept = default;
DatasetIterator::~DatasetIterator() = default;

absl::StatusOr<std::optional<Element>> DatasetIterator::next() {
  Element e;
  TORUS_ASSIGN_OR_RETURN(bool more, impl_->it->next(e));
  if (!more)
    return std::optional<Element>();
  return std::optional<Element>(std::move(e));
}

} // namespace torus::distribute
