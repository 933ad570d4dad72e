//===- CollectiveOp.cpp - What one collective call asks for ---------------===//

#include "runtime/collectives/CollectiveOp.h"

#include "runtime/collectives/IdSet.h"
#include "runtime/collectives/Reduction.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace torus::rt {

std::string_view collectiveOpKindName(CollectiveOpKind kind) {
  switch (kind) {
  case CollectiveOpKind::AllReduce:
    return "all-reduce";
  case CollectiveOpKind::AllGather:
    return "all-gather";
  case CollectiveOpKind::ReduceScatter:
    return "reduce-scatter";
  case CollectiveOpKind::AllToAll:
    return "all-to-all";
  case CollectiveOpKind::CollectivePermute:
    return "collective-permute";
  case CollectiveOpKind::Broadcast:
    return "broadcast";
  }
  return "?";
}

std::string formatIdList(const std::vector<int64_t> &ids) {
  constexpr size_t kShown = 16;
  if (ids.size() <= kShown)
    return fmt::format("{{{}}}", fmt::join(ids, ","));
  std::vector<int64_t> head(ids.begin(), ids.begin() + kShown - 2);
  return fmt::format("{{{},...,{},{}}} ({} ids)", fmt::join(head, ","),
                     ids[ids.size() - 2], ids.back(), ids.size());
}

namespace {

TensorSpec specOf(const CollectiveOp &op) {
  return TensorSpec{op.dtype, op.shape};
}

absl::Status checkDimension(const CollectiveOp &op, int64_t dim,
                            std::string_view what) {
  const int64_t rank = static_cast<int64_t>(op.shape.size());
  if (dim < 0 || dim >= rank)
    return absl::InvalidArgumentError(fmt::format(
        "{}: {} {} is out of range for an operand of rank {} ({})",
        collectiveOpKindName(op.kind), what, dim, rank,
        specOf(op).toString()));
  return absl::OkStatus();
}

} // namespace

absl::Status validateSourceTargetPairs(const SourceTargetPairs &pairs,
                                       int64_t numParticipants) {
  IdSet sources(numParticipants), targets(numParticipants);
  for (size_t p = 0; p < pairs.size(); ++p) {
    const auto [source, target] = pairs[p];
    for (int64_t id : {source, target})
      if (id < 0 || id >= numParticipants)
        return absl::InvalidArgumentError(fmt::format(
            "collective-permute: pair {{{},{}}} names replica {}, outside "
            "[0, {})",
            source, target, id, numParticipants));
    // The earlier pair sharing the source or the target, for the message.
    auto earlier = [&](auto same) {
      return *std::find_if(pairs.begin(), pairs.begin() + p, same);
    };
    if (sources.contains(source))
      return absl::InvalidArgumentError(fmt::format(
          "collective-permute: replica {} is the source of two pairs "
          "({{{},{}}} and {{{},{}}})",
          source, source,
          earlier([&](const auto &q) { return q.first == source; }).second,
          source, target));
    if (targets.contains(target))
      return absl::InvalidArgumentError(fmt::format(
          "collective-permute: replica {} is the target of two pairs "
          "({{{},{}}} and {{{},{}}})",
          target,
          earlier([&](const auto &q) { return q.second == target; }).first,
          target, source, target));
    sources.insert(source);
    targets.insert(target);
  }
  return absl::OkStatus();
}

absl::Status CollectiveOp::check(int64_t groupSize,
                                 int64_t numParticipants) const {
  for (int64_t d : shape)
    if (d < 0)
      return absl::InvalidArgumentError(
          fmt::format("{}: the operand {} has a negative dimension",
                      collectiveOpKindName(kind), specOf(*this).toString()));
  const std::string_view name = collectiveOpKindName(kind);
  switch (kind) {
  case CollectiveOpKind::AllReduce:
    return checkReducible(dtype, reduce);
  case CollectiveOpKind::AllGather:
    return checkDimension(*this, dimension, "all_gather_dim");
  case CollectiveOpKind::ReduceScatter:
    TORUS_RETURN_IF_ERROR(checkDimension(*this, dimension, "scatter_dimension"));
    if (shape[dimension] % groupSize != 0)
      return absl::InvalidArgumentError(fmt::format(
          "{}: dimension {} of {} (size {}) is not divisible by the {} "
          "participants of the replica group",
          name, dimension, specOf(*this).toString(), shape[dimension],
          groupSize));
    return checkReducible(dtype, reduce);
  case CollectiveOpKind::AllToAll:
    TORUS_RETURN_IF_ERROR(
        checkDimension(*this, splitDimension, "split_dimension"));
    TORUS_RETURN_IF_ERROR(
        checkDimension(*this, concatDimension, "concat_dimension"));
    if (splitCount != groupSize)
      return absl::InvalidArgumentError(fmt::format(
          "{}: split_count {} differs from the {} participants of the replica "
          "group",
          name, splitCount, groupSize));
    if (shape[splitDimension] % splitCount != 0)
      return absl::InvalidArgumentError(fmt::format(
          "{}: dimension {} of {} (size {}) is not divisible by split_count "
          "{}",
          name, splitDimension, specOf(*this).toString(),
          shape[splitDimension], splitCount));
    return absl::OkStatus();
  case CollectiveOpKind::CollectivePermute:
    return validateSourceTargetPairs(pairs, numParticipants);
  case CollectiveOpKind::Broadcast:
    if (root < 0 || root >= groupSize)
      return absl::InvalidArgumentError(fmt::format(
          "{}: root rank {} is outside the replica group of {}", name, root,
          groupSize));
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      fmt::format("unknown collective kind {}", static_cast<int32_t>(kind)));
}

int64_t CollectiveOp::resultDimension(size_t d, int64_t groupSize) const {
  int64_t size = shape[d];
  switch (kind) {
  case CollectiveOpKind::AllGather:
    if (static_cast<int64_t>(d) == dimension)
      size *= groupSize;
    break;
  case CollectiveOpKind::ReduceScatter:
    if (static_cast<int64_t>(d) == dimension)
      size /= groupSize;
    break;
  case CollectiveOpKind::AllToAll:
    if (static_cast<int64_t>(d) == splitDimension)
      size /= splitCount;
    if (static_cast<int64_t>(d) == concatDimension)
      size *= splitCount;
    break;
  default:
    break;
  }
  return size;
}

Shape CollectiveOp::resultShape(int64_t groupSize) const {
  Shape result(shape.size());
  for (size_t d = 0; d < shape.size(); ++d)
    result[d] = resultDimension(d, groupSize);
  return result;
}

int64_t CollectiveOp::operandBytes() const {
  return numElements(shape) * static_cast<int64_t>(byteWidth(dtype));
}

int64_t CollectiveOp::resultBytes(int64_t groupSize) const {
  int64_t elements = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    elements *= resultDimension(d, groupSize);
  return elements * static_cast<int64_t>(byteWidth(dtype));
}

std::string CollectiveOp::describe() const {
  const std::string spec = specOf(*this).toString();
  switch (kind) {
  case CollectiveOpKind::AllReduce: {
    int64_t count = numElements(shape);
    return fmt::format("{} {} element{} with {}", count, dtypeName(dtype),
                       count == 1 ? "" : "s", reduceKindName(reduce));
  }
  case CollectiveOpKind::AllGather:
    return fmt::format("{} along dimension {}", spec, dimension);
  case CollectiveOpKind::ReduceScatter:
    return fmt::format("{} with {} along dimension {}", spec,
                       reduceKindName(reduce), dimension);
  case CollectiveOpKind::AllToAll:
    return fmt::format("{} split along {} into {}, concatenated along {}",
                       spec, splitDimension, splitCount, concatDimension);
  case CollectiveOpKind::CollectivePermute: {
    std::string text = spec + " with pairs {";
    for (size_t i = 0; i < pairs.size() && i < 8; ++i)
      text += fmt::format("{}{{{},{}}}", i ? "," : "", pairs[i].first,
                          pairs[i].second);
    if (pairs.size() > 8)
      text += fmt::format(",... ({} pairs)", pairs.size());
    return text + "}";
  }
  case CollectiveOpKind::Broadcast:
    return fmt::format("{} from rank {}", spec, root);
  }
  return spec;
}

CollectiveOp collectiveOpFromSpec(const CollectiveSpec &spec) {
  CollectiveOp op;
  op.dtype = spec.operand.dtype;
  op.shape = spec.operand.shape;
  op.reduce = spec.reduce;
  switch (spec.kind) {
  case CollectiveKind::AllReduce:
    op.kind = CollectiveOpKind::AllReduce;
    break;
  case CollectiveKind::AllGather:
    op.kind = CollectiveOpKind::AllGather;
    op.dimension = spec.dimension;
    break;
  case CollectiveKind::ReduceScatter:
    op.kind = CollectiveOpKind::ReduceScatter;
    op.dimension = spec.dimension;
    break;
  case CollectiveKind::AllToAll:
    op.kind = CollectiveOpKind::AllToAll;
    op.splitDimension = spec.splitDimension;
    op.concatDimension = spec.concatDimension;
    op.splitCount = spec.splitCount;
    break;
  case CollectiveKind::CollectivePermute:
    op.kind = CollectiveOpKind::CollectivePermute;
    op.pairs = spec.sourceTargetPairs;
    break;
  }
  return op;
}

} // namespace torus::rt
