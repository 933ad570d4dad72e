//===- BlockCopy.cpp - Copy a rectangular block between tensors -----------===//

#include "runtime/collectives/BlockCopy.h"

#include <cassert>
#include <cstring>

namespace torus::rt {

namespace {

/// Row-major strides in elements.
BlockIndex stridesOf(std::span<const int64_t> shape) {
  BlockIndex strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// The number of trailing dimensions (at least one when rank > 0) whose
/// elements form one contiguous run in every tensor: all of them but the
/// outermost must span their whole tensor dimension.
size_t contiguousTail(std::span<const int64_t> block,
                      std::initializer_list<std::span<const int64_t>> shapes) {
  size_t rank = block.size();
  size_t tail = 1;
  while (tail < rank) {
    size_t d = rank - tail; // the dimension that would join the run
    bool whole = true;
    for (auto shape : shapes)
      whole = whole && block[d] == shape[d];
    if (!whole)
      break;
    ++tail;
  }
  return tail;
}

/// Calls fn(outer index vector) over every index of dims [0, outerRank).
template <typename Fn>
void forEachOuter(std::span<const int64_t> block, size_t outerRank, Fn &&fn) {
  for (size_t d = 0; d < outerRank; ++d)
    if (block[d] == 0)
      return;
  BlockIndex index(outerRank, 0);
  for (;;) {
    fn(index);
    size_t d = outerRank;
    while (d > 0) {
      --d;
      if (++index[d] < block[d])
        break;
      index[d] = 0;
      if (d == 0)
        return;
    }
    if (outerRank == 0)
      return;
  }
}

} // namespace

void forEachRun(std::span<const int64_t> shape, std::span<const int64_t> offset,
                std::span<const int64_t> block, size_t elementBytes,
                absl::FunctionRef<void(size_t, size_t)> fn) {
  assert(shape.size() == offset.size() && shape.size() == block.size());
  const size_t rank = shape.size();
  if (rank == 0) {
    fn(0, elementBytes);
    return;
  }
  const size_t tail = contiguousTail(block, {shape});
  const size_t outerRank = rank - tail;
  int64_t runElements = 1;
  for (size_t d = outerRank; d < rank; ++d)
    runElements *= block[d];
  if (runElements == 0)
    return;
  const BlockIndex strides = stridesOf(shape);
  int64_t base = 0;
  for (size_t d = 0; d < rank; ++d)
    base += offset[d] * strides[d];
  forEachOuter(block, outerRank, [&](const BlockIndex &index) {
    int64_t at = base;
    for (size_t d = 0; d < outerRank; ++d)
      at += index[d] * strides[d];
    fn(static_cast<size_t>(at) * elementBytes,
       static_cast<size_t>(runElements) * elementBytes);
  });
}

void copyBlock(const void *src, std::span<const int64_t> srcShape,
               std::span<const int64_t> srcOffset, void *dst,
               std::span<const int64_t> dstShape,
               std::span<const int64_t> dstOffset,
               std::span<const int64_t> block, size_t elementBytes) {
  const size_t rank = block.size();
  assert(srcShape.size() == rank && dstShape.size() == rank &&
         srcOffset.size() == rank && dstOffset.size() == rank);
  const char *from = static_cast<const char *>(src);
  char *to = static_cast<char *>(dst);
  if (rank == 0) {
    std::memcpy(to, from, elementBytes);
    return;
  }
  const size_t tail = contiguousTail(block, {srcShape, dstShape});
  const size_t outerRank = rank - tail;
  int64_t runElements = 1;
  for (size_t d = outerRank; d < rank; ++d)
    runElements *= block[d];
  if (runElements == 0)
    return;
  const size_t runBytes = static_cast<size_t>(runElements) * elementBytes;
  const BlockIndex srcStrides = stridesOf(srcShape);
  const BlockIndex dstStrides = stridesOf(dstShape);
  int64_t srcBase = 0, dstBase = 0;
  for (size_t d = 0; d < rank; ++d) {
    srcBase += srcOffset[d] * srcStrides[d];
    dstBase += dstOffset[d] * dstStrides[d];
  }
  forEachOuter(block, outerRank, [&](const BlockIndex &index) {
    int64_t s = srcBase, t = dstBase;
    for (size_t d = 0; d < outerRank; ++d) {
      s += index[d] * srcStrides[d];
      t += index[d] * dstStrides[d];
    }
    std::memcpy(to + static_cast<size_t>(t) * elementBytes,
                from + static_cast<size_t>(s) * elementBytes, runBytes);
  });
}

} // namespace torus::rt
