//===- TraceOps.cpp - Helpers shared by the traced operations -------------===//

#include "ir/trace/TraceOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace torus {

//===----------------------------------------------------------------------===//
// dtype promotion: JAX's lattice on Torus's dtypes, with weak scalars
//===----------------------------------------------------------------------===//

namespace {
/// Lattice nodes: the dtypes plus JAX's weak `i*` and `f*`.
enum Node : int {
  B1, IW, I8, I16, I32, I64, U8, U16, U32, U64, FW, F8E4M3FN, F8E5M2, BF16,
  F16, F32, F64, C64, C128, kNumNodes
};

/// Bit set of the nodes at or above `n` (its upper bounds).
unsigned upperBounds(Node n) {
  static const std::vector<std::vector<Node>> edges = {
      /*B1*/ {IW},       /*IW*/ {U8, I8},    /*I8*/ {I16},
      /*I16*/ {I32},     /*I32*/ {I64},      /*I64*/ {FW},
      /*U8*/ {I16, U16}, /*U16*/ {I32, U32}, /*U32*/ {I64, U64},
      /*U64*/ {FW},      /*FW*/ {F8E4M3FN, F8E5M2, BF16, F16},
      /*F8E4M3FN*/ {F32}, /*F8E5M2*/ {F32}, /*BF16*/ {F32},
      /*F16*/ {F32},     /*F32*/ {F64, C64}, /*F64*/ {C128},
      /*C64*/ {C128},    /*C128*/ {}};
  unsigned set = 1u << n;
  std::vector<Node> work = {n};
  while (!work.empty()) {
    Node m = work.back();
    work.pop_back();
    for (Node next : edges[m])
      if (!(set & (1u << next))) {
        set |= 1u << next;
        work.push_back(next);
      }
  }
  return set;
}

/// The least upper bound of `a` and `b`.
Node join(Node a, Node b) {
  unsigned common = upperBounds(a) & upperBounds(b);
  for (int n = 0; n < kNumNodes; ++n)
    if ((common & (1u << n)) &&
        (upperBounds(static_cast<Node>(n)) & common) == common)
      return static_cast<Node>(n);
  return C128;
}

Node nodeOf(DType d) {
  switch (d) {
  case DType::I1:
    return B1;
  case DType::I8:
    return I8;
  case DType::I16:
    return I16;
  case DType::I32:
    return I32;
  case DType::I64:
    return I64;
  case DType::U8:
    return U8;
  case DType::U16:
    return U16;
  case DType::U32:
    return U32;
  case DType::U64:
    return U64;
  case DType::BF16:
    return BF16;
  case DType::F16:
    return F16;
  case DType::F32:
    return F32;
  case DType::F64:
    return F64;
  case DType::C64:
    return C64;
  case DType::C128:
    return C128;
  case DType::F8E4M3FN:
    return F8E4M3FN;
  case DType::F8E5M2:
    return F8E5M2;
  }
  return F32;
}

/// Weak types materialize as the default int and float, i32 and f32.
DType dtypeOf(Node n) {
  switch (n) {
  case B1:
    return DType::I1;
  case IW:
  case I32:
    return DType::I32;
  case I64:
    return DType::I64;
  case I8:
    return DType::I8;
  case I16:
    return DType::I16;
  case U8:
    return DType::U8;
  case U16:
    return DType::U16;
  case U32:
    return DType::U32;
  case U64:
    return DType::U64;
  case FW:
  case F32:
    return DType::F32;
  case BF16:
    return DType::BF16;
  case F16:
    return DType::F16;
  case F8E4M3FN:
    return DType::F8E4M3FN;
  case F8E5M2:
    return DType::F8E5M2;
  case F64:
    return DType::F64;
  case C64:
    return DType::C64;
  case C128:
  case kNumNodes:
    return DType::C128;
  }
  return DType::F32;
}

Node nodeOf(const TensorLike &v) {
  switch (v.kind()) {
  case TensorLike::Kind::Tensor:
    return nodeOf(v.tensor().dtype());
  case TensorLike::Kind::Bool:
    return B1;
  case TensorLike::Kind::Int:
    return IW;
  case TensorLike::Kind::Float:
    return FW;
  }
  return FW;
}
} // namespace

DType promoteTypes(DType a, DType b) {
  return dtypeOf(join(nodeOf(a), nodeOf(b)));
}

namespace impl {

DType resultDType(std::initializer_list<const TensorLike *> operands) {
  std::optional<Node> node;
  for (const TensorLike *op : operands)
    node = node ? join(*node, nodeOf(*op)) : nodeOf(*op);
  return dtypeOf(node.value_or(F32));
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

TraceContext *traceOf(std::initializer_list<const Tensor *> operands) {
  for (const Tensor *t : operands)
    if (t->context())
      return t->context();
  return TraceContext::current();
}

namespace {
bool checkOne(TraceContext *ctx, const Loc &loc, const char *opName,
              const Tensor &t) {
  if (t.context() && t.context() != ctx) {
    ctx->fail(loc, opName, "operands come from different traces");
    return false;
  }
  if (!t.valid()) {
    // An invalid operand made by a failed op: its error is already there.
    if (!ctx->error())
      ctx->fail(loc, opName,
                "an operand is an uninitialized Tensor (default-constructed, "
                "or from Variable::read() outside a replica function)");
    return false;
  }
  if (!ctx->visible(t)) {
    ctx->fail(loc, opName,
              fmt::format("operand {} was made inside a loop, branch or "
                          "called function that has ended; return it from "
                          "there instead",
                          specString(t)));
    return false;
  }
  return true;
}
} // namespace

bool checkOperands(TraceContext *ctx, const Loc &loc, const char *opName,
                   std::initializer_list<const Tensor *> operands) {
  if (!ctx)
    return false; // Not tracing: there is nowhere to report.
  for (const Tensor *t : operands)
    if (!checkOne(ctx, loc, opName, *t))
      return false;
  return true;
}

bool checkOperands(TraceContext *ctx, const Loc &loc, const char *opName,
                   const std::vector<Tensor> &operands) {
  if (!ctx)
    return false;
  for (const Tensor &t : operands)
    if (!checkOne(ctx, loc, opName, t))
      return false;
  return true;
}

std::string specString(const Tensor &t) { return t.spec().toString(); }

std::string specsString(const std::vector<Tensor> &ts) {
  std::vector<std::string> specs;
  for (const Tensor &t : ts)
    specs.push_back(specString(t));
  return fmt::format("{}", fmt::join(specs, ", "));
}

mlir::RankedTensorType typeOf(TraceContext *ctx, DType dtype,
                              const Shape &shape) {
  return toMlirType(ctx->mlirContext(), TensorSpec{dtype, shape});
}

std::optional<std::vector<int64_t>>
normalizeAxes(TraceContext *ctx, const Loc &loc, const char *opName,
              const Tensor &t, std::vector<int64_t> axes) {
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
    ctx->fail(loc, opName,
              fmt::format("repeated axis in [{}]", fmt::join(axes, ",")));
    return std::nullopt;
  }
  return axes;
}

std::optional<int64_t> normalizeAxis(TraceContext *ctx, const Loc &loc,
                                     const char *opName, const Tensor &t,
                                     int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    ctx->fail(loc, opName,
              fmt::format("axis {} is out of range for {}{}", axis,
                          specString(t),
                          rank != t.rank()
                              ? fmt::format(" (the result has rank {})", rank)
                              : std::string()));
    return std::nullopt;
  }
  return axis < 0 ? axis + rank : axis;
}

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

Tensor broadcastValid(TraceContext *ctx, const Loc &loc, const Tensor &t,
                      const Shape &shape) {
  if (t.shape() == shape)
    return t;
  std::vector<int64_t> dims(t.rank());
  std::iota(dims.begin(), dims.end(),
            static_cast<int64_t>(shape.size()) - t.rank());
  return emit<t::BroadcastInDimOp>(ctx, loc, typeOf(ctx, t.dtype(), shape),
                                   ctx->value(t), I64s(dims));
}

std::optional<std::vector<Tensor>>
broadcastTensors(TraceContext *ctx, const Loc &loc, const char *opName,
                 std::vector<Tensor> operands) {
  Shape shape = operands[0].shape();
  for (size_t i = 1; i < operands.size(); ++i) {
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

Tensor convertTo(TraceContext *ctx, const Loc &loc, const Tensor &t,
                 DType dtype) {
  if (t.dtype() == dtype)
    return t;
  return emit<t::ConvertOp>(ctx, loc, typeOf(ctx, dtype, t.shape()),
                            ctx->value(t));
}

Tensor filled(TraceContext *ctx, const Loc &loc, const Shape &shape,
              double value, DType dtype) {
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
  return emit<t::ConstantOp>(
      ctx, loc, type,
      mlir::cast<mlir::ElementsAttr>(mlir::SplatElementsAttr::get(type, element)));
}

std::optional<Operands>
prepareOperands(const Loc &loc, const char *opName,
                std::initializer_list<const TensorLike *> operands,
                std::optional<DType> forceDType) {
  Operands result;
  for (const TensorLike *op : operands)
    if (op->isTensor() && op->tensor().context()) {
      result.ctx = op->tensor().context();
      break;
    }
  if (!result.ctx)
    result.ctx = TraceContext::current();
  TraceContext *ctx = result.ctx;
  if (!ctx)
    return std::nullopt;
  for (const TensorLike *op : operands)
    if (op->isTensor() && !checkOperands(ctx, loc, opName, {&op->tensor()}))
      return std::nullopt;
  result.dtype = forceDType ? *forceDType : resultDType(operands);
  std::vector<Tensor> values;
  for (const TensorLike *op : operands) {
    if (op->isTensor()) {
      values.push_back(convertTo(ctx, loc, op->tensor(), result.dtype));
      continue;
    }
    double v = op->floatValue();
    if (op->kind() == TensorLike::Kind::Int && !isFloat(result.dtype))
      v = static_cast<double>(op->intValue());
    values.push_back(filled(ctx, loc, {}, v, result.dtype));
  }
  auto broadcast = broadcastTensors(ctx, loc, opName, std::move(values));
  if (!broadcast)
    return std::nullopt;
  result.values = std::move(*broadcast);
  result.shape = result.values[0].shape();
  return result;
}

Tensor toFloat(TraceContext *ctx, const Loc &loc, const Tensor &t) {
  return isFloat(t.dtype()) || isComplex(t.dtype())
             ? t
             : convertTo(ctx, loc, t, DType::F32);
}

std::optional<t::ReduceKind> toReduceKind(TraceContext *ctx, const Loc &loc,
                                          const char *opName, ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return t::ReduceKind::sum;
  case ReduceOp::Product:
    return t::ReduceKind::product;
  case ReduceOp::Max:
    return t::ReduceKind::max;
  case ReduceOp::Min:
    return t::ReduceKind::min;
  case ReduceOp::Mean:
    break;
  }
  ctx->fail(loc, opName,
            "ReduceOp::Mean is tf.distribute's; this op reduces with Sum, "
            "Product, Max or Min (divide a Sum by the count for a mean)");
  return std::nullopt;
}

mlir::FailureOr<mlir::DenseIntElementsAttr>
groupsAttr(TraceContext *ctx, const Loc &loc, const char *opName,
           const ReplicaGroups &groups) {
  if (groups.empty())
    return mlir::DenseIntElementsAttr();
  size_t width = groups[0].size();
  std::vector<int64_t> flat;
  for (const auto &g : groups) {
    if (g.size() != width || width == 0) {
      ctx->fail(loc, opName,
                "replica groups must be non-empty and all of one size");
      return mlir::failure();
    }
    flat.insert(flat.end(), g.begin(), g.end());
  }
  std::string error;
  if (mlir::failed(t::checkReplicaGroups(flat, static_cast<int64_t>(width),
                                         error))) {
    ctx->fail(loc, opName, error);
    return mlir::failure();
  }
  auto type = mlir::RankedTensorType::get(
      {static_cast<int64_t>(groups.size()), static_cast<int64_t>(width)},
      mlir::IntegerType::get(ctx->mlirContext(), 64));
  return mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef(flat));
}

std::pair<int64_t, int64_t> spatialPadding(const Padding &padding,
                                           size_t spatialIndex, int64_t input,
                                           int64_t window, int64_t stride,
                                           int64_t dilation) {
  switch (padding.kind()) {
  case Padding::Kind::Valid:
    return {0, 0};
  case Padding::Kind::Explicit:
    return spatialIndex < padding.pairs().size()
               ? padding.pairs()[spatialIndex]
               : std::pair<int64_t, int64_t>{0, 0};
  case Padding::Kind::Same: {
    // TensorFlow: output ceil(input / stride); the odd pad goes at the end.
    int64_t out = (input + stride - 1) / stride;
    int64_t dilated = (window - 1) * dilation + 1;
    int64_t total = std::max<int64_t>((out - 1) * stride + dilated - input, 0);
    return {total / 2, total - total / 2};
  }
  }
  return {0, 0};
}

bool sameSpecs(TraceContext *ctx, const Loc &loc, const char *opName,
               const TensorList &got, const TensorList &want,
               const std::string &what) {
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i)
    same = got[i].spec() == want[i].spec();
  if (!same)
    ctx->fail(loc, opName,
              fmt::format("{} must match: got ({}) but expected ({})", what,
                          specsString(got), specsString(want)));
  return same;
}

llvm::SmallVector<mlir::Type> typesOf(TraceContext *ctx, const TensorList &ts) {
  llvm::SmallVector<mlir::Type> types;
  for (const Tensor &t : ts)
    types.push_back(ctx->value(t).getType());
  return types;
}

llvm::SmallVector<mlir::Value> valuesOf(TraceContext *ctx,
                                        const TensorList &ts) {
  llvm::SmallVector<mlir::Value> values;
  for (const Tensor &t : ts)
    values.push_back(ctx->value(t));
  return values;
}

TensorList wrapResults(TraceContext *ctx, mlir::Operation *op) {
  TensorList results;
  for (mlir::Value r : op->getResults())
    results.push_back(ctx->wrap(r));
  return results;
}

std::optional<TensorList> traceRegion(TraceContext *ctx, const Loc &loc,
                                      const char *opName, mlir::Region &region,
                                      mlir::TypeRange argTypes,
                                      const RegionFn &fn, bool funcReturn) {
  mlir::OpBuilder &b = ctx->builder();
  mlir::OpBuilder::InsertionGuard guard(b);
  llvm::SmallVector<mlir::Location> locs(argTypes.size(), ctx->location(loc));
  mlir::Block *block = b.createBlock(&region, {}, argTypes, locs);
  TensorList args;
  for (mlir::Value arg : block->getArguments())
    args.push_back(ctx->wrap(arg));
  std::optional<TensorList> results = fn(args);
  if (!results || ctx->error())
    return std::nullopt;
  if (!checkOperands(ctx, loc, opName, *results))
    return std::nullopt;
  llvm::SmallVector<mlir::Value> values;
  for (const Tensor &t : *results)
    values.push_back(ctx->value(t));
  if (funcReturn)
    create<mlir::func::ReturnOp>(ctx, loc, values);
  else
    create<t::ReturnOp>(ctx, loc, values);
  return results;
}

} // namespace impl
} // namespace torus
