//===- LoweringUtils.cpp - Shared pieces of torus-to-linalg ---------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::torus {

Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type) {
  return b.create<tensor::EmptyOp>(loc, type.getShape(),
                                   type.getElementType());
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type, Value value) {
  return b.create<linalg::FillOp>(loc, value, emptyLike(b, loc, type))
      .getResult(0);
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type,
             TypedAttr value) {
  return filled(b, loc, type, b.create<arith::ConstantOp>(loc, value));
}

Value identityValue(OpBuilder &b, Location loc, ReduceKind kind, Type t) {
  if (isa<ComplexType>(t))
    return scalarConstant(b, loc, t, kind == ReduceKind::product ? 1.0 : 0.0);
  return b.create<arith::ConstantOp>(loc, reduceIdentity(kind, t));
}

Value extractScalar(OpBuilder &b, Location loc, Value tensor0d) {
  return b.create<tensor::ExtractOp>(loc, tensor0d, ValueRange{});
}

Value toIndex(OpBuilder &b, Location loc, Value integer) {
  if (integer.getType().isUnsignedInteger())
    return b.create<arith::IndexCastUIOp>(loc, b.getIndexType(), integer);
  return b.create<arith::IndexCastOp>(loc, b.getIndexType(), integer);
}

Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, ScalarBodyFn body) {
  int64_t rank = resultType.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value in : inputs) {
    bool scalar = cast<RankedTensorType>(in.getType()).getRank() == 0;
    maps.push_back(scalar && rank > 0 ? AffineMap::get(rank, 0, {}, ctx)
                                      : b.getMultiDimIdentityMap(rank));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = b.create<linalg::GenericOp>(
      loc, resultType, inputs, emptyLike(b, loc, resultType), maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        nb.create<linalg::YieldOp>(nl, body(nb, nl, args.drop_back()));
      });
  return generic.getResult(0);
}

Value buildPad(OpBuilder &b, Location loc, Value operand, Value value,
               ArrayRef<int64_t> low, ArrayRef<int64_t> high,
               ArrayRef<int64_t> interior) {
  auto inType = cast<RankedTensorType>(operand.getType());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> padded, insertAt, strides, cropAt, result;
  bool crop = false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = inType.getDimSize(d);
    int64_t dilated = size == 0 ? 0 : (size - 1) * (interior[d] + 1) + 1;
    int64_t lo = std::max<int64_t>(low[d], 0);
    int64_t hi = std::max<int64_t>(high[d], 0);
    padded.push_back(lo + dilated + hi);
    insertAt.push_back(lo);
    strides.push_back(interior[d] + 1);
    cropAt.push_back(lo - low[d]);
    result.push_back(low[d] + dilated + high[d]);
    crop |= low[d] < 0 || high[d] < 0;
  }
  auto paddedType = RankedTensorType::get(padded, inType.getElementType());
  Value full = filled(b, loc, paddedType, value);
  Value inserted = b.create<tensor::InsertSliceOp>(
      loc, operand, full, ValueRange{}, ValueRange{}, ValueRange{},
      b.getDenseI64ArrayAttr(insertAt),
      b.getDenseI64ArrayAttr(inType.getShape()),
      b.getDenseI64ArrayAttr(strides));
  if (!crop)
    return inserted;
  auto resultType = RankedTensorType::get(result, inType.getElementType());
  return b.create<tensor::ExtractSliceOp>(
      loc, resultType, inserted, ValueRange{}, ValueRange{}, ValueRange{},
      b.getDenseI64ArrayAttr(cropAt), b.getDenseI64ArrayAttr(result),
      b.getDenseI64ArrayAttr(SmallVector<int64_t>(rank, 1)));
}

SmallVector<Value> inlineScalarComputation(OpBuilder &b, Location loc,
                                           Region &region, ValueRange args) {
  Block &block = region.front();
  IRMapping map;
  for (auto [arg, v] : llvm::zip(block.getArguments(), args))
    map.map(arg, v);
  for (Operation &op : block) {
    if (auto ret = dyn_cast<ReturnOp>(op))
      return llvm::map_to_vector(ret.getResults(),
                                 [&](Value v) { return map.lookup(v); });
    Type et = cast<RankedTensorType>(op.getResult(0).getType()).getElementType();
    if (auto c = dyn_cast<ConstantOp>(op)) {
      auto value = cast<ElementsAttr>(c.getValue()).getValues<TypedAttr>()[0];
      map.map(c.getResult(), b.create<arith::ConstantOp>(loc, value));
      continue;
    }
    auto scalar = cast<ScalarOpInterface>(op);
    SmallVector<Value> xs;
    for (Value operand : op.getOperands()) {
      Value x = map.lookup(operand);
      xs.push_back(scalar.widensHalfFloats() ? widenHalf(b, loc, x) : x);
    }
    Value r = scalar.buildScalar(b, op.getLoc(), xs);
    map.map(op.getResult(0),
            scalar.widensHalfFloats() ? narrowTo(b, loc, r, et) : r);
  }
  llvm_unreachable("a verified scalar computation ends in torus.return");
}

SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> shape) {
  SmallVector<Value> idx(shape.size());
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value q = stride == 1 ? linear
                          : b.create<arith::DivUIOp>(
                                loc, linear,
                                b.create<arith::ConstantIndexOp>(loc, stride));
    idx[d] = b.create<arith::RemUIOp>(
        loc, q, b.create<arith::ConstantIndexOp>(loc, shape[d]));
    stride *= shape[d];
  }
  return idx;
}

} // namespace mlir::torus
