//===- HostOps.h - Arithmetic and reshaping of host tensors -----*- C++ -*-===//
//
// What the cross-replica side of the Strategy API computes on the host:
// slicing and stacking batches for datasets, and the element-wise sums and
// means of reduce() and of distributed variables. Floats are accumulated in
// their own type, in replica order (TensorFlow's add_n), so results are
// reproducible bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_HOSTOPS_H
#define TORUS_DISTRIBUTE_HOSTOPS_H

#include "torus/HostTensor.h"
#include "torus/Status.h"

#include <cstdint>
#include <vector>

namespace torus::distribute::detail {

/// Rows [begin, end) along dimension 0.
HostTensor sliceRows(const HostTensor &t, int64_t begin, int64_t end);
/// Elements [begin, end) along dimension `axis` (0 <= axis < rank).
HostTensor sliceAxis(const HostTensor &t, int64_t axis, int64_t begin,
                     int64_t end);
/// Row i along dimension 0 (one rank less).
HostTensor row(const HostTensor &t, int64_t i);
/// Stacks equally shaped tensors along a new first dimension.
HostTensor stack(const std::vector<HostTensor> &parts);
/// Concatenates along dimension 0 (inner shapes equal).
HostTensor concatRows(const std::vector<HostTensor> &parts);
/// Bitwise equality of spec and contents.
bool identical(const HostTensor &a, const HostTensor &b);
/// Whether every element is zero.
bool allZero(const HostTensor &t);

/// Element-wise a + b, a - b (same spec).
absl::StatusOr<HostTensor> add(const HostTensor &a, const HostTensor &b);
absl::StatusOr<HostTensor> subtract(const HostTensor &a, const HostTensor &b);
/// a / n in a's dtype (integers divide toward zero).
absl::StatusOr<HostTensor> divideBy(const HostTensor &a, double n);
/// a * s in a's dtype.
absl::StatusOr<HostTensor> scaleBy(const HostTensor &a, double s);
/// Sum over `axes` (already normalised, distinct).
absl::StatusOr<HostTensor> reduceSum(const HostTensor &a,
                                     const std::vector<int64_t> &axes);
/// Element-wise conversion (C++ casts; to i1 is `!= 0`).
HostTensor cast(const HostTensor &a, DType dtype);
/// A scalar of `dtype` holding `value`.
HostTensor scalarOf(DType dtype, double value);
/// Element i as a double.
double elementAsDouble(const HostTensor &t, int64_t i);

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_HOSTOPS_H
