//===- TensorOps.cpp - The traced operations on torus::Tensor -------------===//
//
// Each function checks its operands the way NumPy or HLO would, records the
// first failure in the trace, and otherwise emits torus ops at the trace's
// insertion point with the caller's source location.
//
//===----------------------------------------------------------------------===//

#include "ir/ShapeRules.h"
#include "ir/TorusOps.h"
#include "ir/trace/TraceContext.h"
#include "ir/trace/TracedFunctionImpl.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <numeric>

namespace torus {

namespace {

using mlir::Value;

/// The trace an operation belongs to: the first operand's, else the current.
TraceContext *traceOf(std::initializer_list<const Tensor *> operands) {
  for (const Tensor *t : operands)
    if (t->context())
      return t->context();
  return TraceContext::current();
}

/// Checks the operands are valid tensors of the trace `ctx`; returns false
/// (after recording an error unless an operand already carries one).
bool checkOperands(TraceContext *ctx, const Loc &loc, const char *opName,
                   std::initializer_list<const Tensor *> operands) {
  if (!ctx)
    return false; // Not tracing: there is nowhere to report.
  for (const Tensor *t : operands) {
    if (t->context() && t->context() != ctx) {
      ctx->fail(loc, opName, "operands come from different traces");
      return false;
    }
    if (!t->valid()) {
      // An invalid operand made by a failed op: its error is already there.
      if (!ctx->error())
        ctx->fail(loc, opName, "an operand is an uninitialized Tensor");
      return false;
    }
  }
  return true;
}

std::string specString(const Tensor &t) { return t.spec().toString(); }

mlir::RankedTensorType typeOf(TraceContext *ctx, DType dtype,
                              const Shape &shape) {
  return toMlirType(ctx->mlirContext(), TensorSpec{dtype, shape});
}

template <typename OpTy, typename... Args>
Tensor emit(TraceContext *ctx, const Loc &loc, Args &&...args) {
  auto op = ctx->builder().create<OpTy>(ctx->location(loc),
                                        std::forward<Args>(args)...);
  return ctx->wrap(op.getResult());
}

/// Normalizes possibly-negative `axes` of a rank-`rank` tensor; empty means
/// all axes. Returns nullopt (after recording an error) if one is invalid.
std::optional<std::vector<int64_t>> normalizeAxes(TraceContext *ctx,
                                                  const Loc &loc,
                                                  const char *opName,
                                                  const Tensor &t,
                                                  std::vector<int64_t> axes) {
  int64_t rank = t.rank();
  if (axes.empty()) {
    axes.resize(rank);
    std::iota(axes.begin(), axes.end(), 0);
  }
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank) {
      ctx->fail(loc, opName,
                fmt::format("axis {} is out of range for {}", a,
                            specString(t)));
      return std::nullopt;
    }
    if (a < 0)
      a += rank;
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) {
    ctx->fail(loc, opName, fmt::format("repeated axis in [{}]",
                                       fmt::join(axes, ",")));
    return std::nullopt;
  }
  return axes;
}

/// NumPy broadcast of two shapes, or nullopt.
std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

/// Broadcasts `t` (already known to be compatible) to `shape`.
Tensor broadcastValid(TraceContext *ctx, const Loc &loc, const Tensor &t,
                      const Shape &shape) {
  if (t.shape() == shape)
    return t;
  std::vector<int64_t> dims(t.rank());
  std::iota(dims.begin(), dims.end(),
            static_cast<int64_t>(shape.size()) - t.rank());
  return emit<mlir::torus::BroadcastInDimOp>(
      ctx, loc, typeOf(ctx, t.dtype(), shape), ctx->value(t),
      llvm::ArrayRef<int64_t>(dims));
}

/// Brings the operands of an elementwise op to one shape (and checks that
/// they share a dtype unless `sameDType` is false).
std::optional<std::vector<Tensor>>
broadcastOperands(TraceContext *ctx, const Loc &loc, const char *opName,
                  std::vector<Tensor> operands, bool sameDType = true) {
  Shape shape = operands[0].shape();
  for (size_t i = 1; i < operands.size(); ++i) {
    if (sameDType && operands[i].dtype() != operands[0].dtype()) {
      ctx->fail(loc, opName,
                fmt::format("operand dtypes differ: {} and {}",
                            specString(operands[0]), specString(operands[i])));
      return std::nullopt;
    }
    auto b = broadcastShapes(shape, operands[i].shape());
    if (!b) {
      std::vector<std::string> specs;
      for (const Tensor &t : operands)
        specs.push_back(specString(t));
      ctx->fail(loc, opName,
                fmt::format("shapes {} cannot be broadcast together",
                            fmt::join(specs, " and ")));
      return std::nullopt;
    }
    shape = *b;
  }
  for (Tensor &t : operands)
    t = broadcastValid(ctx, loc, t, shape);
  return operands;
}

template <typename OpTy>
Tensor binary(const Tensor &a, const Tensor &b, const Loc &loc,
              const char *opName) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, opName, {&a, &b}))
    return Tensor();
  auto ops = broadcastOperands(ctx, loc, opName, {a, b});
  if (!ops)
    return Tensor();
  return emit<OpTy>(ctx, loc, ctx->value((*ops)[0]), ctx->value((*ops)[1]));
}

template <typename OpTy>
Tensor unary(const Tensor &a, const Loc &loc, const char *opName,
             bool floatOnly = false) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, opName, {&a}))
    return Tensor();
  if (floatOnly && !isFloat(a.dtype()))
    return ctx->fail(loc, opName,
                     fmt::format("needs a floating-point tensor, got {}",
                                 specString(a)));
  return emit<OpTy>(ctx, loc, ctx->value(a));
}

Tensor compare(const Tensor &a, const Tensor &b, const Loc &loc,
               const char *opName, mlir::torus::ComparisonDirection dir) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, opName, {&a, &b}))
    return Tensor();
  auto ops = broadcastOperands(ctx, loc, opName, {a, b});
  if (!ops)
    return Tensor();
  return emit<mlir::torus::CompareOp>(
      ctx, loc, typeOf(ctx, DType::I1, (*ops)[0].shape()), dir,
      ctx->value((*ops)[0]), ctx->value((*ops)[1]));
}

/// A scalar of `like`'s dtype in `like`'s trace, for `tensor op number`.
Tensor scalarLike(const Tensor &like, double value, const Loc &loc) {
  TraceContext *ctx = like.context();
  if (!ctx || !like.valid())
    return Tensor();
  return full({}, value, like.dtype(), loc);
}

mlir::torus::ReduceKind toReduceKind(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return mlir::torus::ReduceKind::sum;
  case ReduceOp::Product:
    return mlir::torus::ReduceKind::product;
  case ReduceOp::Max:
    return mlir::torus::ReduceKind::max;
  case ReduceOp::Min:
    return mlir::torus::ReduceKind::min;
  }
  return mlir::torus::ReduceKind::sum;
}

Tensor reduce(const Tensor &a, std::vector<int64_t> axes, bool keepdims,
              ReduceOp kind, const Loc &loc, const char *opName) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, opName, {&a}))
    return Tensor();
  auto dims = normalizeAxes(ctx, loc, opName, a, std::move(axes));
  if (!dims)
    return Tensor();
  if (a.dtype() == DType::I1 &&
      (kind == ReduceOp::Sum || kind == ReduceOp::Product))
    return ctx->fail(loc, opName,
                     "cannot sum or multiply an i1 tensor; convert it first");
  Shape reduced, kept = a.shape();
  for (int64_t d = 0; d < a.rank(); ++d) {
    if (std::find(dims->begin(), dims->end(), d) == dims->end())
      reduced.push_back(a.dim(d));
    else
      kept[d] = 1;
  }
  Tensor r = emit<mlir::torus::ReduceOp>(
      ctx, loc, typeOf(ctx, a.dtype(), reduced), toReduceKind(kind),
      ctx->value(a), llvm::ArrayRef<int64_t>(*dims));
  return keepdims ? reshape(r, kept, loc) : r;
}

} // namespace

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

DType Tensor::dtype() const {
  return valid() ? ctx_->spec(id_).dtype : DType::F32;
}
Shape Tensor::shape() const { return valid() ? ctx_->spec(id_).shape : Shape(); }
int64_t Tensor::dim(int64_t axis) const {
  Shape s = shape();
  int64_t r = static_cast<int64_t>(s.size());
  if (axis < 0)
    axis += r;
  return axis >= 0 && axis < r ? s[axis] : -1;
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

Tensor constant(const HostTensor &value, Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  auto type = typeOf(ctx, value.dtype(), value.shape());
  llvm::ArrayRef<char> raw(static_cast<const char *>(value.rawData()),
                           value.sizeInBytes());
  mlir::DenseElementsAttr attr;
  if (value.dtype() == DType::I1) {
    auto bytes = llvm::ArrayRef<uint8_t>(
        static_cast<const uint8_t *>(value.rawData()), value.numElements());
    llvm::SmallVector<bool> bits(bytes.begin(), bytes.end());
    attr = mlir::DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
  } else {
    attr = mlir::DenseElementsAttr::getFromRawBuffer(type, raw);
  }
  return emit<mlir::torus::ConstantOp>(ctx, loc, type,
                                       mlir::cast<mlir::ElementsAttr>(attr));
}

Tensor full(const Shape &shape, double value, DType dtype, Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  for (int64_t d : shape)
    if (d < 0)
      return ctx->fail(loc, "full",
                       "negative dimension in shape " + shapeToString(shape));
  auto type = typeOf(ctx, dtype, shape);
  mlir::Type et = type.getElementType();
  mlir::Attribute element;
  if (auto ft = mlir::dyn_cast<mlir::FloatType>(et)) {
    llvm::APFloat f(value);
    bool lost;
    f.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    element = mlir::FloatAttr::get(ft, f);
  } else if (et.isInteger(1)) {
    element = mlir::IntegerAttr::get(et, value != 0 ? 1 : 0);
  } else {
    element = mlir::IntegerAttr::get(et, static_cast<int64_t>(value));
  }
  return emit<mlir::torus::ConstantOp>(
      ctx, loc, type,
      mlir::cast<mlir::ElementsAttr>(mlir::SplatElementsAttr::get(type, element)));
}

Tensor scalar(double value, DType dtype, Loc loc) {
  return full({}, value, dtype, loc);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

namespace t = mlir::torus;

Tensor add(const Tensor &a, const Tensor &b, Loc loc) {
  return binary<t::AddOp>(a, b, loc, "add");
}
Tensor subtract(const Tensor &a, const Tensor &b, Loc loc) {
  return binary<t::SubtractOp>(a, b, loc, "subtract");
}
Tensor multiply(const Tensor &a, const Tensor &b, Loc loc) {
  return binary<t::MultiplyOp>(a, b, loc, "multiply");
}
Tensor divide(const Tensor &a, const Tensor &b, Loc loc) {
  return binary<t::DivideOp>(a, b, loc, "divide");
}
Tensor maximum(const Tensor &a, const Tensor &b, Loc loc) {
  return binary<t::MaximumOp>(a, b, loc, "maximum");
}
Tensor minimum(const Tensor &a, const Tensor &b, Loc loc) {
  // min(a, b) = -max(-a, -b), exact for floats and integers alike.
  return negate(maximum(negate(a, loc), negate(b, loc), loc), loc);
}
Tensor negate(const Tensor &a, Loc loc) {
  return unary<t::NegateOp>(a, loc, "negate");
}
Tensor exp(const Tensor &a, Loc loc) {
  return unary<t::ExpOp>(a, loc, "exp", /*floatOnly=*/true);
}
Tensor log(const Tensor &a, Loc loc) {
  return unary<t::LogOp>(a, loc, "log", /*floatOnly=*/true);
}
Tensor square(const Tensor &a, Loc loc) { return multiply(a, a, loc); }
Tensor relu(const Tensor &a, Loc loc) {
  return maximum(a, scalarLike(a, 0.0, loc), loc);
}

Tensor astype(const Tensor &a, DType dtype, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "astype", {&a}))
    return Tensor();
  if (a.dtype() == dtype)
    return a;
  return emit<t::ConvertOp>(ctx, loc, typeOf(ctx, dtype, a.shape()),
                            ctx->value(a));
}

Tensor equal(const Tensor &a, const Tensor &b, Loc loc) {
  return compare(a, b, loc, "equal", t::ComparisonDirection::EQ);
}
Tensor notEqual(const Tensor &a, const Tensor &b, Loc loc) {
  return compare(a, b, loc, "not_equal", t::ComparisonDirection::NE);
}
Tensor less(const Tensor &a, const Tensor &b, Loc loc) {
  return compare(a, b, loc, "less", t::ComparisonDirection::LT);
}
Tensor lessEqual(const Tensor &a, const Tensor &b, Loc loc) {
  return compare(a, b, loc, "less_equal", t::ComparisonDirection::LE);
}
Tensor greater(const Tensor &a, const Tensor &b, Loc loc) {
  return compare(a, b, loc, "greater", t::ComparisonDirection::GT);
}
Tensor greaterEqual(const Tensor &a, const Tensor &b, Loc loc) {
  return compare(a, b, loc, "greater_equal", t::ComparisonDirection::GE);
}

Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b, Loc loc) {
  TraceContext *ctx = traceOf({&cond, &a, &b});
  if (!checkOperands(ctx, loc, "where", {&cond, &a, &b}))
    return Tensor();
  if (cond.dtype() != DType::I1)
    return ctx->fail(loc, "where",
                     "condition must be i1, got " + specString(cond));
  if (a.dtype() != b.dtype())
    return ctx->fail(loc, "where",
                     fmt::format("operand dtypes differ: {} and {}",
                                 specString(a), specString(b)));
  auto ops = broadcastOperands(ctx, loc, "where", {cond, a, b},
                               /*sameDType=*/false);
  if (!ops)
    return Tensor();
  return emit<t::SelectOp>(ctx, loc, ctx->value((*ops)[0]),
                           ctx->value((*ops)[1]), ctx->value((*ops)[2]));
}

Tensor operator+(const Tensor &a, const Tensor &b) { return add(a, b, Loc()); }
Tensor operator-(const Tensor &a, const Tensor &b) {
  return subtract(a, b, Loc());
}
Tensor operator*(const Tensor &a, const Tensor &b) {
  return multiply(a, b, Loc());
}
Tensor operator/(const Tensor &a, const Tensor &b) {
  return divide(a, b, Loc());
}
Tensor operator-(const Tensor &a) { return negate(a, Loc()); }
Tensor operator+(const Tensor &a, double b) {
  return add(a, scalarLike(a, b, Loc()), Loc());
}
Tensor operator-(const Tensor &a, double b) {
  return subtract(a, scalarLike(a, b, Loc()), Loc());
}
Tensor operator*(const Tensor &a, double b) {
  return multiply(a, scalarLike(a, b, Loc()), Loc());
}
Tensor operator/(const Tensor &a, double b) {
  return divide(a, scalarLike(a, b, Loc()), Loc());
}
Tensor operator+(double a, const Tensor &b) {
  return add(scalarLike(b, a, Loc()), b, Loc());
}
Tensor operator-(double a, const Tensor &b) {
  return subtract(scalarLike(b, a, Loc()), b, Loc());
}
Tensor operator*(double a, const Tensor &b) {
  return multiply(scalarLike(b, a, Loc()), b, Loc());
}
Tensor operator/(double a, const Tensor &b) {
  return divide(scalarLike(b, a, Loc()), b, Loc());
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

Tensor broadcastTo(const Tensor &a, const Shape &shape, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "broadcast_to", {&a}))
    return Tensor();
  auto b = broadcastShapes(a.shape(), shape);
  if (!b || *b != shape)
    return ctx->fail(loc, "broadcast_to",
                     fmt::format("cannot broadcast {} to shape {}",
                                 specString(a), shapeToString(shape)));
  return broadcastValid(ctx, loc, a, shape);
}

Tensor broadcastInDim(const Tensor &a, const Shape &shape,
                      const std::vector<int64_t> &dims, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "broadcast_in_dim", {&a}))
    return Tensor();
  std::string error;
  if (mlir::failed(mlir::torus::checkBroadcastInDim(a.shape(), shape, dims,
                                                    error)))
    return ctx->fail(loc, "broadcast_in_dim", error);
  return emit<t::BroadcastInDimOp>(ctx, loc, typeOf(ctx, a.dtype(), shape),
                                   ctx->value(a),
                                   llvm::ArrayRef<int64_t>(dims));
}

Tensor reshape(const Tensor &a, const Shape &shape, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "reshape", {&a}))
    return Tensor();
  Shape target = shape;
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1 && inferred < 0) {
      inferred = static_cast<int64_t>(i);
    } else if (target[i] < 0) {
      return ctx->fail(loc, "reshape",
                       "invalid target shape " + shapeToString(shape));
    } else {
      known *= target[i];
    }
  }
  int64_t count = a.spec().numElements();
  if (inferred >= 0 && known != 0 && count % known == 0)
    target[inferred] = count / known;
  if (numElements(target) != count || (inferred >= 0 && known == 0))
    return ctx->fail(loc, "reshape",
                     fmt::format("cannot reshape {} ({} elements) to {}",
                                 specString(a), count, shapeToString(shape)));
  if (target == a.shape())
    return a;
  return emit<t::ReshapeOp>(ctx, loc, typeOf(ctx, a.dtype(), target),
                            ctx->value(a));
}

Tensor transpose(const Tensor &a, const std::vector<int64_t> &perm, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "transpose", {&a}))
    return Tensor();
  std::vector<int64_t> p = perm;
  if (p.empty())
    for (int64_t d = a.rank() - 1; d >= 0; --d)
      p.push_back(d);
  std::string error;
  auto shape = mlir::torus::inferTransposeShape(a.shape(), p, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "transpose", error);
  return emit<t::TransposeOp>(
      ctx, loc, typeOf(ctx, a.dtype(), Shape(shape->begin(), shape->end())),
      ctx->value(a), llvm::ArrayRef<int64_t>(p));
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

Tensor dotGeneral(const Tensor &a, const Tensor &b, const DotDims &dims,
                  Loc loc) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, "dot_general", {&a, &b}))
    return Tensor();
  if (a.dtype() != b.dtype())
    return ctx->fail(loc, "dot_general",
                     fmt::format("operand dtypes differ: {} and {}",
                                 specString(a), specString(b)));
  std::string error;
  auto shape = mlir::torus::inferDotGeneralShape(
      a.shape(), b.shape(), dims.lhsBatch, dims.rhsBatch, dims.lhsContracting,
      dims.rhsContracting, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "dot_general", error);
  using A = llvm::ArrayRef<int64_t>;
  return emit<t::DotGeneralOp>(
      ctx, loc, typeOf(ctx, a.dtype(), Shape(shape->begin(), shape->end())),
      ctx->value(a), ctx->value(b), A(dims.lhsBatch), A(dims.rhsBatch),
      A(dims.lhsContracting), A(dims.rhsContracting));
}

Tensor matmul(const Tensor &a, const Tensor &b, Loc loc) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, "matmul", {&a, &b}))
    return Tensor();
  if (a.rank() == 0 || b.rank() == 0)
    return ctx->fail(loc, "matmul",
                     fmt::format("operands must have rank >= 1, got {} and {}",
                                 specString(a), specString(b)));
  int64_t k = a.dim(-1), kb = b.rank() == 1 ? b.dim(0) : b.dim(-2);
  if (k != kb)
    return ctx->fail(
        loc, "matmul",
        fmt::format("contracting dimensions differ: {} has {} columns but {} "
                    "has {} rows",
                    specString(a), k, specString(b), kb));
  // NumPy: a 1-D lhs is a row, a 1-D rhs a column, removed afterwards.
  if (a.rank() == 1 || b.rank() == 1) {
    Tensor lhs = a.rank() == 1 ? reshape(a, {1, k}, loc) : a;
    Tensor rhs = b.rank() == 1 ? reshape(b, {k, 1}, loc) : b;
    Tensor r = matmul(lhs, rhs, loc);
    Shape s = r.shape();
    if (b.rank() == 1)
      s.pop_back();
    if (a.rank() == 1)
      s.erase(s.end() - (b.rank() == 1 ? 1 : 2));
    return reshape(r, s, loc);
  }
  if (b.rank() == 2) // Batch dimensions of `a` act as extra rows.
    return dotGeneral(a, b, {{}, {}, {a.rank() - 1}, {0}}, loc);
  // Both batched: broadcast the batch dimensions to one shape.
  Shape batchA(a.shape().begin(), a.shape().end() - 2);
  Shape batchB(b.shape().begin(), b.shape().end() - 2);
  auto batch = broadcastShapes(batchA, batchB);
  if (!batch)
    return ctx->fail(loc, "matmul",
                     fmt::format("batch dimensions of {} and {} cannot be "
                                 "broadcast together",
                                 specString(a), specString(b)));
  Shape sa = *batch, sb = *batch;
  sa.insert(sa.end(), {a.dim(-2), a.dim(-1)});
  sb.insert(sb.end(), {b.dim(-2), b.dim(-1)});
  Tensor lhs = broadcastTo(a, sa, loc), rhs = broadcastTo(b, sb, loc);
  int64_t nb = static_cast<int64_t>(batch->size());
  std::vector<int64_t> bd(nb);
  std::iota(bd.begin(), bd.end(), 0);
  return dotGeneral(lhs, rhs, {bd, bd, {nb + 1}, {nb}}, loc);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Tensor sum(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduce(a, axes, keepdims, ReduceOp::Sum, loc, "sum");
}
Tensor max(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduce(a, axes, keepdims, ReduceOp::Max, loc, "max");
}
Tensor min(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduce(a, axes, keepdims, ReduceOp::Min, loc, "min");
}
Tensor mean(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
            Loc loc) {
  Tensor s = sum(a, axes, keepdims, loc);
  if (!s.valid())
    return s;
  int64_t count = a.spec().numElements() /
                  std::max<int64_t>(1, s.spec().numElements());
  return divide(s, full({}, static_cast<double>(count), a.dtype(), loc), loc);
}

//===----------------------------------------------------------------------===//
// Replicas and collectives
//===----------------------------------------------------------------------===//

Tensor replicaId(Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  return emit<t::ReplicaIdOp>(ctx, loc, typeOf(ctx, DType::I32, {}));
}

Tensor allReduce(const Tensor &a, ReduceOp op, const ReplicaGroups &groups,
                 Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "all_reduce", {&a}))
    return Tensor();
  if (a.dtype() == DType::I1)
    return ctx->fail(loc, "all_reduce", "cannot all-reduce an i1 tensor");
  mlir::DenseIntElementsAttr groupsAttr;
  if (!groups.empty()) {
    size_t width = groups[0].size();
    std::vector<int64_t> flat;
    for (const auto &g : groups) {
      if (g.size() != width)
        return ctx->fail(loc, "all_reduce",
                         "replica groups must all have the same size");
      flat.insert(flat.end(), g.begin(), g.end());
    }
    std::string error;
    if (mlir::failed(mlir::torus::checkReplicaGroups(
            flat, static_cast<int64_t>(width), error)))
      return ctx->fail(loc, "all_reduce", error);
    auto type = mlir::RankedTensorType::get(
        {static_cast<int64_t>(groups.size()), static_cast<int64_t>(width)},
        mlir::IntegerType::get(ctx->mlirContext(), 64));
    groupsAttr = mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef(flat));
  }
  return emit<t::AllReduceOp>(ctx, loc, ctx->value(a).getType(),
                              toReduceKind(op), ctx->value(a), groupsAttr);
}

} // namespace torus
