//===- Reduction.h - Element-wise reduction of peer buffers -----*- C++ -*-===//
//
// The arithmetic of an all-reduce: combine the operands of every participant
// element by element, in participant order, and write the result to every
// participant's output. Combining in a fixed order makes floating-point
// results independent of thread timing and identical on every replica.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_REDUCTION_H
#define TORUS_RUNTIME_COLLECTIVES_REDUCTION_H

#include "runtime/ProgramSpec.h"
#include "torus/Status.h"
#include "torus/Types.h"

#include <cstdint>
#include <span>

namespace torus::rt {

/// OK if reduceRange supports `dtype` with `kind`: f32, f64, f16, bf16, i32
/// and i64 with sum, product, max and min. Unimplemented for i1.
absl::Status checkReducible(DType dtype, ReduceKind kind);

/// For every element i in [begin, end):
///   r = inputs[0][i] op inputs[1][i] op ... (left to right)
///   outputs[q][i] = r for every q.
/// Sum and product of integers wrap around; max and min of floats propagate
/// NaN (XLA's semantics). An output may be the very buffer of an input
/// (in-place), but must not otherwise overlap one. f16 and bf16 combine each
/// step in f32 and round back to nearest even (HalfFloat.h): the correctly
/// rounded operation in the element type. Large ranges are written with
/// streaming stores, fenced before returning. `inputs` must not be empty
/// and checkReducible(dtype, kind) must hold.
void reduceRange(ReduceKind kind, DType dtype,
                 std::span<const void *const> inputs,
                 std::span<void *const> outputs, int64_t begin, int64_t end);

/// reduceRange with the result placed elsewhere: element i of the reduction
/// (i in [begin, end)) goes to element outBegin + (i - begin) of every
/// output, as reduce-scatter needs (a member's rows sit at one offset in
/// the operands and another in its result). Unless outBegin == begin, the
/// outputs must not overlap the inputs.
void reduceRangeTo(ReduceKind kind, DType dtype,
                   std::span<const void *const> inputs, int64_t begin,
                   int64_t end, std::span<void *const> outputs,
                   int64_t outBegin);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_REDUCTION_H
