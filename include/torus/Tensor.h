//===- Tensor.h - Traced tensors and the ops on them ------------*- C++ -*-===//
//
// A torus::Tensor is a symbolic value inside a function being traced by
// torus::trace (Trace.h): every operation on it records an op of the torus
// dialect instead of computing. Shapes are static and known while tracing,
// so misuse (mismatched shapes, a bad axis) is caught at the line that does
// it: the trace records the first error, with the operation and the shapes
// involved, and torus::trace returns it as a Status. Operations on a tensor
// that came from a failed operation do nothing further.
//
// Broadcasting follows NumPy: shapes are aligned at their last dimension and
// a dimension of size 1 stretches. Operands of binary operations must have
// the same dtype; a C++ number combined with a tensor takes the tensor's
// dtype.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TENSOR_H
#define TORUS_TENSOR_H

#include "torus/HostTensor.h"
#include "torus/Types.h"

#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <vector>

namespace torus {

class TraceContext;

/// A symbolic tensor in a function being traced.
class Tensor {
public:
  /// An invalid tensor; using it records an error.
  Tensor() = default;

  /// False for a default-constructed tensor or the result of a failed op.
  bool valid() const { return ctx_ != nullptr && id_ >= 0; }
  DType dtype() const;
  Shape shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  int64_t dim(int64_t axis) const;
  TensorSpec spec() const { return {dtype(), shape()}; }

  /// Internal: the trace and value index this tensor refers to.
  TraceContext *context() const { return ctx_; }
  int64_t id() const { return id_; }
  Tensor(TraceContext *ctx, int64_t id) : ctx_(ctx), id_(id) {}

private:
  TraceContext *ctx_ = nullptr;
  int64_t id_ = -1;
};

using Loc = std::source_location;

//===--- Creating tensors -------------------------------------------------===//

/// A constant holding `value`'s contents.
Tensor constant(const HostTensor &value, Loc loc = Loc::current());
/// A tensor of `shape` filled with `value`, converted to `dtype`.
Tensor full(const Shape &shape, double value, DType dtype = DType::F32,
            Loc loc = Loc::current());
/// A scalar constant of `dtype`.
Tensor scalar(double value, DType dtype = DType::F32, Loc loc = Loc::current());

//===--- Elementwise ------------------------------------------------------===//

Tensor add(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor subtract(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor multiply(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor divide(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor maximum(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor minimum(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor negate(const Tensor &a, Loc loc = Loc::current());
Tensor exp(const Tensor &a, Loc loc = Loc::current());
Tensor log(const Tensor &a, Loc loc = Loc::current());
Tensor square(const Tensor &a, Loc loc = Loc::current());
Tensor relu(const Tensor &a, Loc loc = Loc::current());
/// Elementwise conversion to `dtype` (HLO `convert`).
Tensor astype(const Tensor &a, DType dtype, Loc loc = Loc::current());

/// Comparisons yield i1 tensors of the broadcast shape.
Tensor equal(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor notEqual(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor less(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor lessEqual(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor greater(const Tensor &a, const Tensor &b, Loc loc = Loc::current());
Tensor greaterEqual(const Tensor &a, const Tensor &b,
                    Loc loc = Loc::current());
/// `cond ? a : b` elementwise, all three broadcast together.
Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b,
             Loc loc = Loc::current());

Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a);
Tensor operator+(const Tensor &a, double b);
Tensor operator-(const Tensor &a, double b);
Tensor operator*(const Tensor &a, double b);
Tensor operator/(const Tensor &a, double b);
Tensor operator+(double a, const Tensor &b);
Tensor operator-(double a, const Tensor &b);
Tensor operator*(double a, const Tensor &b);
Tensor operator/(double a, const Tensor &b);

//===--- Shapes -----------------------------------------------------------===//

/// NumPy `broadcast_to`.
Tensor broadcastTo(const Tensor &a, const Shape &shape,
                   Loc loc = Loc::current());
/// HLO `broadcast_in_dim`: operand dimension i becomes result dimension
/// dims[i].
Tensor broadcastInDim(const Tensor &a, const Shape &shape,
                      const std::vector<int64_t> &dims,
                      Loc loc = Loc::current());
/// Row-major reshape; one entry may be -1 and is inferred.
Tensor reshape(const Tensor &a, const Shape &shape, Loc loc = Loc::current());
/// Result dimension i is operand dimension perm[i]; empty reverses them.
Tensor transpose(const Tensor &a, const std::vector<int64_t> &perm = {},
                 Loc loc = Loc::current());

//===--- Linear algebra ---------------------------------------------------===//

struct DotDims {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
};
/// HLO `dot_general`.
Tensor dotGeneral(const Tensor &a, const Tensor &b, const DotDims &dims,
                  Loc loc = Loc::current());
/// NumPy `matmul` for rank >= 1 operands (batch dimensions must match).
Tensor matmul(const Tensor &a, const Tensor &b, Loc loc = Loc::current());

//===--- Reductions (axes may be negative; empty = all axes) ------------===//

Tensor sum(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());
Tensor mean(const Tensor &a, const std::vector<int64_t> &axes = {},
            bool keepdims = false, Loc loc = Loc::current());
Tensor max(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());
Tensor min(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());

//===--- Replicas and collectives ----------------------------------------===//

enum class ReduceOp { Sum, Product, Max, Min };
using ReplicaGroups = std::vector<std::vector<int64_t>>;

/// The executing replica's index, an i32 scalar (HLO `replica-id`).
Tensor replicaId(Loc loc = Loc::current());
/// HLO `all-reduce`; empty `groups` means all replicas form one group.
Tensor allReduce(const Tensor &a, ReduceOp op = ReduceOp::Sum,
                 const ReplicaGroups &groups = {}, Loc loc = Loc::current());

} // namespace torus

#endif // TORUS_TENSOR_H
