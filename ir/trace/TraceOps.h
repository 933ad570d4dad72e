//===- TraceOps.h - Helpers shared by the traced operations -----*- C++ -*-===//
//
// Internal to ir/trace/: how a traced operation finds its trace, checks its
// operands, promotes and broadcasts them and emits torus ops. The public
// operations are implemented one family per file (ElementwiseOps.cpp,
// ShapeOps.cpp, ...), all on top of these.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_TRACE_TRACEOPS_H
#define TORUS_IR_TRACE_TRACEOPS_H

#include "ir/ShapeRules.h"
#include "ir/TorusOps.h"
#include "ir/trace/TraceContext.h"
#include "ir/trace/TracedFunctionImpl.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <string>
#include <vector>

namespace torus::impl {

namespace t = mlir::torus;
using I64s = llvm::ArrayRef<int64_t>;

/// The trace an operation belongs to: the first tensor operand's, else the
/// one running on this thread.
TraceContext *traceOf(std::initializer_list<const Tensor *> operands);

/// Checks the operands are valid tensors of `ctx` that are visible at the
/// insertion point (not made inside a finished loop or branch); returns
/// false after recording an error (unless an operand already carries one).
bool checkOperands(TraceContext *ctx, const Loc &loc, const char *opName,
                   std::initializer_list<const Tensor *> operands);
bool checkOperands(TraceContext *ctx, const Loc &loc, const char *opName,
                   const std::vector<Tensor> &operands);

/// `f32[2,3]`.
std::string specString(const Tensor &t);
std::string specsString(const std::vector<Tensor> &ts);

mlir::RankedTensorType typeOf(TraceContext *ctx, DType dtype,
                              const Shape &shape);
inline Shape toShape(llvm::ArrayRef<int64_t> s) { return Shape(s.begin(), s.end()); }

/// Creates `OpTy` at the trace's insertion point with `loc`.
template <typename OpTy, typename... Args>
OpTy create(TraceContext *ctx, const Loc &loc, Args &&...args) {
  return ctx->builder().create<OpTy>(ctx->location(loc),
                                     std::forward<Args>(args)...);
}
/// Creates a single-result `OpTy` and wraps its result.
template <typename OpTy, typename... Args>
Tensor emit(TraceContext *ctx, const Loc &loc, Args &&...args) {
  return ctx->wrap(
      create<OpTy>(ctx, loc, std::forward<Args>(args)...)->getResult(0));
}

/// Normalizes possibly-negative `axes` of a rank-`rank` tensor (sorted,
/// distinct); empty means all axes. Records an error and returns nullopt
/// for a bad axis.
std::optional<std::vector<int64_t>>
normalizeAxes(TraceContext *ctx, const Loc &loc, const char *opName,
              const Tensor &t, std::vector<int64_t> axes);
std::optional<int64_t> normalizeAxis(TraceContext *ctx, const Loc &loc,
                                     const char *opName, const Tensor &t,
                                     int64_t axis, int64_t rank);

/// NumPy broadcast of two shapes, or nullopt.
std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b);
/// Broadcasts `t` (already known to be compatible) to `shape`.
Tensor broadcastValid(TraceContext *ctx, const Loc &loc, const Tensor &t,
                      const Shape &shape);
/// Brings tensors to one broadcast shape (dtypes untouched).
std::optional<std::vector<Tensor>>
broadcastTensors(TraceContext *ctx, const Loc &loc, const char *opName,
                 std::vector<Tensor> operands);

/// Converts `t` to `dtype` (no-op if it has it).
Tensor convertTo(TraceContext *ctx, const Loc &loc, const Tensor &t,
                 DType dtype);
/// A constant of `dtype` and `shape` filled with `value`.
Tensor filled(TraceContext *ctx, const Loc &loc, const Shape &shape,
              double value, DType dtype);

/// The dtype operands combine to, under promoteTypes with weak scalars.
DType resultDType(std::initializer_list<const TensorLike *> operands);

/// Operands of an elementwise op, promoted to one dtype (or `forceDType`)
/// and broadcast to one shape, scalars materialized.
struct Operands {
  TraceContext *ctx = nullptr;
  std::vector<Tensor> values;
  DType dtype = DType::F32;
  Shape shape;
};
std::optional<Operands>
prepareOperands(const Loc &loc, const char *opName,
                std::initializer_list<const TensorLike *> operands,
                std::optional<DType> forceDType = std::nullopt);

/// `t` as a float tensor for float-only functions: integers and i1 become
/// f32 (JAX's rule).
Tensor toFloat(TraceContext *ctx, const Loc &loc, const Tensor &t);

/// The dialect's reduction kind of `op`; records an error of `opName` and
/// returns nullopt for ReduceOp::Mean (tf.distribute's, not a reducer).
std::optional<t::ReduceKind> toReduceKind(TraceContext *ctx, const Loc &loc,
                                          const char *opName, ReduceOp op);

/// `groups` as a replica_groups attribute (null when empty); records an
/// error and returns failure for ragged or overlapping groups.
mlir::FailureOr<mlir::DenseIntElementsAttr>
groupsAttr(TraceContext *ctx, const Loc &loc, const char *opName,
           const ReplicaGroups &groups);

/// Checks that `got` matches `want` tensor for tensor (dtype and shape);
/// `what` names the values in the message.
bool sameSpecs(TraceContext *ctx, const Loc &loc, const char *opName,
               const TensorList &got, const TensorList &want,
               const std::string &what);
/// The MLIR types and values of `ts`.
llvm::SmallVector<mlir::Type> typesOf(TraceContext *ctx, const TensorList &ts);
llvm::SmallVector<mlir::Value> valuesOf(TraceContext *ctx,
                                        const TensorList &ts);
/// The results of `op` as tensors.
TensorList wrapResults(TraceContext *ctx, mlir::Operation *op);

using RegionFn = std::function<std::optional<TensorList>(const TensorList &)>;

/// Traces `fn` into a new block of `region` taking `argTypes` and ends it
/// with torus.return (or func.return when `funcReturn`): the user's lambda
/// runs once with the insertion point inside the region. Returns what fn
/// returned, or nullopt after an error.
std::optional<TensorList> traceRegion(TraceContext *ctx, const Loc &loc,
                                      const char *opName, mlir::Region &region,
                                      mlir::TypeRange argTypes,
                                      const RegionFn &fn,
                                      bool funcReturn = false);

/// The (low, high) padding of one spatial dimension for `padding`.
std::pair<int64_t, int64_t> spatialPadding(const Padding &padding,
                                           size_t spatialIndex, int64_t input,
                                           int64_t window, int64_t stride,
                                           int64_t dilation);

} // namespace torus::impl

#endif // TORUS_IR_TRACE_TRACEOPS_H
