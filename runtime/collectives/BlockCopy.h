//===- BlockCopy.h - Copy a rectangular block between tensors ---*- C++ -*-===//
//
// The data movement of all-gather, all-to-all and reduce-scatter: a
// rectangular block of one dense row-major tensor copied into a rectangular
// block of another, with the innermost contiguous runs merged so large
// blocks move with one memcpy per run. Neither function allocates for
// tensors of rank up to kInlineRank (their strides and indices live on the
// stack), so collectives that move blocks allocate nothing per call.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_BLOCKCOPY_H
#define TORUS_RUNTIME_COLLECTIVES_BLOCKCOPY_H

#include "torus/Types.h"

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace torus::rt {

/// Ranks up to this are handled without allocating.
inline constexpr size_t kInlineRank = 8;
/// An offset, stride, index or shape of one tensor, one entry per dimension.
using BlockIndex = absl::InlinedVector<int64_t, kInlineRank>;

/// Copies the block of shape `block` starting at `srcOffset` of a tensor of
/// shape `srcShape` at `src` to `dstOffset` of a tensor of shape `dstShape`
/// at `dst`. All four shapes/offsets have the same rank and the block lies
/// inside both tensors; the regions must not overlap.
void copyBlock(const void *src, std::span<const int64_t> srcShape,
               std::span<const int64_t> srcOffset, void *dst,
               std::span<const int64_t> dstShape,
               std::span<const int64_t> dstOffset,
               std::span<const int64_t> block, size_t elementBytes);

/// The contiguous byte runs of the block `[offset, offset + block)` of a
/// tensor of shape `shape`, as (byte offset, bytes) pairs, merged where
/// adjacent. Calls `fn(byteOffset, bytes)` for each, in memory order.
void forEachRun(std::span<const int64_t> shape, std::span<const int64_t> offset,
                std::span<const int64_t> block, size_t elementBytes,
                absl::FunctionRef<void(size_t byteOffset, size_t bytes)> fn);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_BLOCKCOPY_H
