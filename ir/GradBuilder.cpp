//===- GradBuilder.cpp - Typed emission of torus ops for VJPs -------------===//

#include "ir/GradBuilder.h"
#include "ir/ShapeRules.h"

#include <complex>

namespace mlir::torus {

Value GradBuilder::add(Value x, Value y) {
  return b.create<AddOp>(loc, x.getType(), x, y);
}
Value GradBuilder::sub(Value x, Value y) {
  return b.create<SubtractOp>(loc, x.getType(), x, y);
}
Value GradBuilder::mul(Value x, Value y) {
  return b.create<MultiplyOp>(loc, x.getType(), x, y);
}
Value GradBuilder::div(Value x, Value y) {
  return b.create<DivideOp>(loc, x.getType(), x, y);
}
Value GradBuilder::neg(Value x) {
  return b.create<NegateOp>(loc, x.getType(), x);
}
Value GradBuilder::exp(Value x) { return b.create<ExpOp>(loc, x.getType(), x); }

Value GradBuilder::select(Value pred, Value onTrue, Value onFalse) {
  return b.create<SelectOp>(loc, onTrue.getType(), pred, onTrue, onFalse);
}

Value GradBuilder::compare(ComparisonDirection dir, Value x, Value y) {
  auto type =
      RankedTensorType::get(typeOf(x).getShape(), b.getI1Type());
  return b.create<CompareOp>(loc, type, dir, x, y);
}

Value GradBuilder::convert(Value x, Type et) {
  if (typeOf(x).getElementType() == et)
    return x;
  return b.create<ConvertOp>(
      loc, RankedTensorType::get(typeOf(x).getShape(), et), x);
}

Value GradBuilder::splat(RankedTensorType type, double value) {
  Type et = type.getElementType();
  Attribute element;
  if (auto ct = dyn_cast<ComplexType>(et)) { // value + 0i
    auto ft = cast<FloatType>(ct.getElementType());
    APFloat re(value), im(0.0);
    bool lost;
    re.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    im.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    std::complex<APFloat> c(re, im);
    return b.create<ConstantOp>(
        loc, type, cast<ElementsAttr>(DenseElementsAttr::get(type, {c})));
  }
  if (auto ft = dyn_cast<FloatType>(et)) {
    APFloat f(value);
    bool lost;
    f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    element = FloatAttr::get(ft, f);
  } else {
    element = IntegerAttr::get(et, static_cast<int64_t>(value));
  }
  return b.create<ConstantOp>(
      loc, type, cast<ElementsAttr>(SplatElementsAttr::get(type, element)));
}

Value GradBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (typeOf(x).getShape() == shape)
    return x;
  return b.create<ReshapeOp>(loc, withShape(x, shape), x);
}

Value GradBuilder::transpose(Value x, ArrayRef<int64_t> perm) {
  std::string error;
  auto shape = inferTransposeShape(typeOf(x).getShape(), perm, error);
  assert(succeeded(shape) && "VJP built an invalid transpose");
  return b.create<TransposeOp>(loc, withShape(x, *shape), x, perm);
}

Value GradBuilder::broadcastInDim(Value x, ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> dims) {
  if (typeOf(x).getShape() == shape)
    return x;
  return b.create<BroadcastInDimOp>(loc, withShape(x, shape), x, dims);
}

Value GradBuilder::reduce(ReduceKind kind, Value x, ArrayRef<int64_t> dims) {
  if (dims.empty())
    return x;
  std::string error;
  auto shape = inferReduceShape(typeOf(x).getShape(), dims, error);
  assert(succeeded(shape) && "VJP built an invalid reduce");
  return b.create<ReduceOp>(loc, withShape(x, *shape), kind, x, dims);
}

Value GradBuilder::dotGeneral(Value lhs, Value rhs, ArrayRef<int64_t> lhsBatch,
                              ArrayRef<int64_t> rhsBatch,
                              ArrayRef<int64_t> lhsContract,
                              ArrayRef<int64_t> rhsContract) {
  std::string error;
  auto shape = inferDotGeneralShape(typeOf(lhs).getShape(),
                                    typeOf(rhs).getShape(), lhsBatch, rhsBatch,
                                    lhsContract, rhsContract, error);
  assert(succeeded(shape) && "VJP built an invalid dot_general");
  return b.create<DotGeneralOp>(loc, withShape(lhs, *shape), lhs, rhs,
                                lhsBatch, rhsBatch, lhsContract, rhsContract);
}

Value GradBuilder::slice(Value x, ArrayRef<int64_t> start,
                         ArrayRef<int64_t> limit, ArrayRef<int64_t> strides) {
  return b.create<SliceOp>(loc, x, start, limit, strides);
}

Value GradBuilder::padZeros(Value x, ArrayRef<int64_t> low,
                            ArrayRef<int64_t> high,
                            ArrayRef<int64_t> interior) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(interior, [](int64_t v) { return v == 0; }))
    return x;
  return b.create<PadOp>(loc, x, scalarLike(x, 0.0), low, high, interior);
}

Value GradBuilder::sumAll(Value x) {
  auto rank = typeOf(x).getRank();
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(d);
  return reduce(ReduceKind::sum, x, dims);
}

Value GradBuilder::unbroadcast(Value x, ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> dims) {
  auto xShape = typeOf(x).getShape();
  // Sum every result dimension that is new, or stretched from size 1.
  SmallVector<int64_t> summed;
  for (int64_t d = 0, e = xShape.size(); d < e; ++d) {
    const int64_t *it = llvm::find(dims, d);
    bool isNew = it == dims.end();
    bool stretched = !isNew && shape[it - dims.begin()] == 1 && xShape[d] != 1;
    if (isNew || stretched)
      summed.push_back(d);
  }
  return reshape(reduce(ReduceKind::sum, x, summed), shape);
}

} // namespace mlir::torus
