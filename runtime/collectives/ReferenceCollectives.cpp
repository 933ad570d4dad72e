//===- ReferenceCollectives.cpp - Obviously correct collectives -----------===//

#include "runtime/collectives/ReferenceCollectives.h"

#include "support/DTypeDispatch.h"

#include "runtime/collectives/HalfFloat.h"

#include <cassert>
#include <cstring>
#include <type_traits>

namespace torus::rt {

namespace {

template <typename T> T loadAt(const Bytes &b, int64_t i) {
  T v;
  std::memcpy(&v, b.data() + i * sizeof(T), sizeof(T));
  return v;
}
template <typename T> void storeAt(Bytes &b, int64_t i, T v) {
  std::memcpy(b.data() + i * sizeof(T), &v, sizeof(T));
}

template <typename T> T combine(ReduceKind kind, T a, T b) {
  if constexpr (IsComplex<T>) {
    // Complex numbers reduce by sum and product only (checkReducible).
    return kind == ReduceKind::Product ? a * b : a + b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = WrappingUnsigned<T>;
    switch (kind) {
    case ReduceKind::Sum:
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    case ReduceKind::Product:
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    case ReduceKind::Max:
      return a > b ? a : b;
    case ReduceKind::Min:
      return a < b ? a : b;
    }
  } else {
    switch (kind) {
    case ReduceKind::Sum:
      return a + b;
    case ReduceKind::Product:
      return a * b;
    case ReduceKind::Max: // NaN wins
      if (a != a)
        return a;
      if (b != b)
        return b;
      return a > b ? a : b;
    case ReduceKind::Min:
      if (a != a)
        return a;
      if (b != b)
        return b;
      return a < b ? a : b;
    }
  }
  return a;
}

/// Element `i` of `acc` becomes acc[i] (op) x[i], in the element type.
void combineElement(ReduceKind kind, DType dtype, Bytes &acc, int64_t i,
                    const Bytes &x, int64_t j) {
  switch (dtype) {
  case DType::F32:
    return storeAt(acc, i,
                   combine(kind, loadAt<float>(acc, i), loadAt<float>(x, j)));
  case DType::F64:
    return storeAt(acc, i,
                   combine(kind, loadAt<double>(acc, i), loadAt<double>(x, j)));
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
  case DType::C64:
  case DType::C128:
    visitDType(dtype, [&]<typename T>(T) {
      if constexpr (!std::is_same_v<T, bool>)
        storeAt(acc, i, combine(kind, loadAt<T>(acc, i), loadAt<T>(x, j)));
    });
    return;
  case DType::BF16:
    return storeAt(acc, i,
                   floatToBf16(combine(kind,
                                       bf16ToFloat(loadAt<uint16_t>(acc, i)),
                                       bf16ToFloat(loadAt<uint16_t>(x, j)))));
  case DType::F16:
    return storeAt(acc, i,
                   floatToF16(combine(kind, f16ToFloat(loadAt<uint16_t>(acc, i)),
                                      f16ToFloat(loadAt<uint16_t>(x, j)))));
  case DType::I1:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    break;
  }
  assert(false && "reference reduction of an unsupported type");
}

void copyElement(size_t width, Bytes &to, int64_t i, const Bytes &from,
                 int64_t j) {
  std::memcpy(to.data() + i * width, from.data() + j * width, width);
}

/// Row-major linear index and its inverse.
int64_t linearIndex(const Shape &shape, const std::vector<int64_t> &index) {
  int64_t at = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    at = at * shape[d] + index[d];
  return at;
}
std::vector<int64_t> multiIndex(const Shape &shape, int64_t at) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = at % shape[d];
    at /= shape[d];
  }
  return index;
}

/// The result of member `rank` of `members` (participant ids).
Bytes resultOf(const CollectiveOp &op, const std::vector<int64_t> &members,
               int64_t rank, const std::vector<Bytes> &inputs) {
  const int64_t n = static_cast<int64_t>(members.size());
  const size_t width = byteWidth(op.dtype);
  const Shape result = op.resultShape(n);
  const int64_t count = numElements(result);
  Bytes out(count * width, 0);
  auto input = [&](int64_t memberRank) -> const Bytes & {
    return inputs[members[memberRank]];
  };
  const bool indexed = op.kind == CollectiveOpKind::AllGather ||
                       op.kind == CollectiveOpKind::ReduceScatter ||
                       op.kind == CollectiveOpKind::AllToAll;
  for (int64_t i = 0; i < count; ++i) {
    std::vector<int64_t> index;
    if (indexed)
      index = multiIndex(result, i);
    switch (op.kind) {
    case CollectiveOpKind::AllReduce:
      copyElement(width, out, i, input(0), i);
      for (int64_t q = 1; q < n; ++q)
        combineElement(op.reduce, op.dtype, out, i, input(q), i);
      break;
    case CollectiveOpKind::AllGather: {
      // Member q's operand sits at [q * size, (q + 1) * size) of the dim.
      const int64_t size = op.shape[op.dimension];
      int64_t q = index[op.dimension] / size;
      index[op.dimension] %= size;
      copyElement(width, out, i, input(q), linearIndex(op.shape, index));
      break;
    }
    case CollectiveOpKind::ReduceScatter: {
      // Member `rank` gets block `rank` of the dim, reduced over members.
      index[op.dimension] += rank * result[op.dimension];
      int64_t from = linearIndex(op.shape, index);
      copyElement(width, out, i, input(0), from);
      for (int64_t q = 1; q < n; ++q)
        combineElement(op.reduce, op.dtype, out, i, input(q), from);
      break;
    }
    case CollectiveOpKind::AllToAll: {
      // Member q sent us block `rank` of its split dim; the blocks of the
      // members are concatenated in group order along the concat dim.
      const int64_t block = op.shape[op.splitDimension] / n;
      int64_t q;
      if (op.splitDimension == op.concatDimension) {
        q = index[op.concatDimension] / block;
        index[op.splitDimension] =
            rank * block + index[op.concatDimension] % block;
      } else {
        const int64_t size = op.shape[op.concatDimension];
        q = index[op.concatDimension] / size;
        index[op.concatDimension] %= size;
        index[op.splitDimension] += rank * block;
      }
      copyElement(width, out, i, input(q), linearIndex(op.shape, index));
      break;
    }
    case CollectiveOpKind::CollectivePermute: {
      // Pairs name participant ids; `members` is every participant.
      for (const auto &[source, target] : op.pairs)
        if (target == members[rank])
          copyElement(width, out, i, inputs[source], i);
      break; // no source: stays zero
    }
    case CollectiveOpKind::Broadcast:
      copyElement(width, out, i, input(op.root), i);
      break;
    }
  }
  return out;
}

} // namespace

std::vector<Bytes> referenceCollective(const CollectiveOp &op,
                                       const ReplicaGroups &groups,
                                       const std::vector<Bytes> &inputs) {
  const int64_t numParticipants = static_cast<int64_t>(inputs.size());
  ReplicaGroups effective = groups;
  if (effective.empty() || op.kind == CollectiveOpKind::CollectivePermute) {
    effective.assign(1, {});
    for (int64_t id = 0; id < numParticipants; ++id)
      effective[0].push_back(id);
  }
  std::vector<Bytes> outputs(numParticipants);
  for (const std::vector<int64_t> &members : effective)
    for (size_t rank = 0; rank < members.size(); ++rank)
      outputs[members[rank]] =
          resultOf(op, members, static_cast<int64_t>(rank), inputs);
  return outputs;
}

} // namespace torus::rt
