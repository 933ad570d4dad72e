//===- ImportShapeOps.cpp - HLO shape ops to torus ------------------------===//
//
// iota, broadcast, transpose, reverse, slice, dynamic-slice,
// dynamic-update-slice, concatenate and pad: each reads its attributes into
// the torus op's. reshape has none and is created generically. bitcast, the
// one op that reads layouts, becomes the transposes and reshape that move
// the elements as its reinterpretation of memory does.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

namespace mlir::torus::hlo {

LogicalResult Importer::emitIota(const Instruction &instr, Operands operands,
                                 HloValue &result) {
  auto in = arrays(instr, operands, 0);
  auto dim = intAttr(instr, "iota_dimension");
  if (failed(in) || failed(dim))
    return failure();
  result.leaves.push_back(b_.create<IotaOp>(opLoc(instr), in->type,
                                            b_.getI64IntegerAttr(*dim)));
  return success();
}

template <typename OpTy>
LogicalResult Importer::emitWithDimensions(const Instruction &instr,
                                           Operands operands,
                                           HloValue &result, bool required) {
  auto in = arrays(instr, operands, 1);
  auto dims = listAttr(instr, "dimensions", required);
  if (failed(in) || failed(dims))
    return failure();
  result.leaves.push_back(b_.create<OpTy>(
      opLoc(instr), in->type, in->values[0], b_.getDenseI64ArrayAttr(*dims)));
  return success();
}

LogicalResult Importer::emitBroadcast(const Instruction &instr,
                                      Operands operands, HloValue &result) {
  return emitWithDimensions<BroadcastInDimOp>(instr, operands, result,
                                              /*required=*/false);
}

LogicalResult Importer::emitTranspose(const Instruction &instr,
                                      Operands operands, HloValue &result) {
  return emitWithDimensions<TransposeOp>(instr, operands, result,
                                         /*required=*/true);
}

LogicalResult Importer::emitReverse(const Instruction &instr, Operands operands,
                                    HloValue &result) {
  return emitWithDimensions<ReverseOp>(instr, operands, result,
                                       /*required=*/true);
}

// bitcast: the operand's memory read as the result's shape. Memory holds an
// array in its layout's major-to-minor order, so the result is the operand
// transposed into that order, reshaped (and its bits reinterpreted when the
// element type changes width-for-width) to the result's dimensions in its
// major-to-minor order, and transposed back to the result's logical order.
// XLA writes it for reshapes and transposes that move no bytes; each of the
// three steps is left out when it moves nothing.
LogicalResult Importer::emitBitcast(const Instruction &instr, Operands operands,
                                    HloValue &result) {
  auto in = arrays(instr, operands, 1);
  if (failed(in))
    return failure();
  const Shape &from = *operands[0]->shape;
  const Shape &to = instr.shape;
  auto count = [](const Shape &s) {
    int64_t n = 1;
    for (int64_t d : s.dims)
      n *= d;
    return n;
  };
  bool sameWidth = from.type == to.type ||
                   (bitWidth(from.type) == bitWidth(to.type) &&
                    from.type != PrimitiveType::Pred &&
                    to.type != PrimitiveType::Pred);
  if (!sameWidth || count(from) != count(to)) {
    error(instr.opcodeLoc)
        << "'bitcast' from " << shapeText(from) << " to " << shapeText(to)
        << " is not supported: Torus reads bitcasts between arrays of as "
           "many elements of one bit width (XLA writes them for reshapes, "
           "transposes and bit reinterpretations that move no bytes)";
    return failure();
  }
  Location loc = opLoc(instr);
  Value v = in->values[0];
  auto typeOf = [](Value x) { return cast<RankedTensorType>(x.getType()); };
  auto isIdentity = [](llvm::ArrayRef<int64_t> perm) {
    for (auto [i, p] : llvm::enumerate(perm))
      if (static_cast<int64_t>(i) != p)
        return false;
    return true;
  };
  // The operand in memory order.
  llvm::SmallVector<int64_t> fromOrder = from.majorToMinor();
  if (!isIdentity(fromOrder)) {
    llvm::SmallVector<int64_t> dims;
    for (int64_t d : fromOrder)
      dims.push_back(from.dims[d]);
    v = b_.create<TransposeOp>(
        loc, RankedTensorType::get(dims, typeOf(v).getElementType()), v,
        b_.getDenseI64ArrayAttr(fromOrder));
  }
  // The result's bits in memory order.
  llvm::SmallVector<int64_t> toOrder = to.majorToMinor();
  llvm::SmallVector<int64_t> physical;
  for (int64_t d : toOrder)
    physical.push_back(to.dims[d]);
  Type element = in->type.getElementType();
  if (from.type != to.type)
    v = b_.create<BitcastConvertOp>(
        loc, RankedTensorType::get(typeOf(v).getShape(), element), v);
  if (typeOf(v).getShape() != llvm::ArrayRef<int64_t>(physical))
    v = b_.create<ReshapeOp>(loc, RankedTensorType::get(physical, element), v);
  // Back to the logical order: logical dimension toOrder[i] is memory
  // dimension i.
  if (!isIdentity(toOrder)) {
    llvm::SmallVector<int64_t> inverse(toOrder.size());
    for (auto [i, d] : llvm::enumerate(toOrder))
      inverse[d] = i;
    v = b_.create<TransposeOp>(loc, in->type, v,
                               b_.getDenseI64ArrayAttr(inverse));
  }
  result.leaves.push_back(v);
  return success();
}

LogicalResult Importer::emitSlice(const Instruction &instr, Operands operands,
                                  HloValue &result) {
  auto in = arrays(instr, operands, 1);
  const Attr *s = requireAttr(instr, "slice");
  if (failed(in) || !s)
    return failure();
  llvm::SmallVector<int64_t> start, limit, stride;
  if (failed(AttrParser(*s, locator_).slice(start, limit, stride)))
    return failure();
  result.leaves.push_back(b_.create<SliceOp>(
      opLoc(instr), in->type, in->values[0], b_.getDenseI64ArrayAttr(start),
      b_.getDenseI64ArrayAttr(limit), b_.getDenseI64ArrayAttr(stride)));
  return success();
}

LogicalResult
Importer::dynamicSliceOperands(const Instruction &instr, Operands operands,
                               size_t fixed, Value &operand,
                               llvm::SmallVectorImpl<Value> &indices) {
  size_t n = operands.size();
  if (n < fixed + 1) {
    error(instr.opcodeLoc) << "'" << instr.opcode << "' needs "
                           << (fixed == 2 ? "an operand, an update"
                                          : "an operand")
                           << " and start indices, found " << n << " operand"
                           << (n == 1 ? "" : "s");
    return failure();
  }
  auto x = array(instr, operands, 0);
  if (failed(x))
    return failure();
  operand = *x;
  for (size_t i = fixed; i < n; ++i) {
    auto idx = array(instr, operands, i);
    if (failed(idx))
      return failure();
    indices.push_back(*idx);
  }
  // The old form: one vector of start indices instead of scalars.
  auto idxType = cast<RankedTensorType>(indices[0].getType());
  if (indices.size() == 1 && idxType.getRank() == 1) {
    Location loc = opLoc(instr);
    Value vector = indices[0];
    indices.clear();
    auto scalarType = RankedTensorType::get({}, idxType.getElementType());
    auto oneType = RankedTensorType::get({1}, idxType.getElementType());
    for (int64_t k = 0; k < idxType.getDimSize(0); ++k) {
      Value piece = b_.create<SliceOp>(
          loc, oneType, vector, b_.getDenseI64ArrayAttr({k}),
          b_.getDenseI64ArrayAttr({k + 1}), b_.getDenseI64ArrayAttr({1}));
      indices.push_back(b_.create<ReshapeOp>(loc, scalarType, piece));
    }
  }
  return success();
}

LogicalResult Importer::emitDynamicSlice(const Instruction &instr,
                                         Operands operands, HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  Value x;
  llvm::SmallVector<Value> indices;
  if (failed(dynamicSliceOperands(instr, operands, 1, x, indices)))
    return failure();
  auto sizes = listAttr(instr, "dynamic_slice_sizes", /*required=*/true);
  if (failed(sizes))
    return failure();
  result.leaves.push_back(b_.create<DynamicSliceOp>(
      opLoc(instr), *type, x, indices, b_.getDenseI64ArrayAttr(*sizes)));
  return success();
}

LogicalResult Importer::emitDynamicUpdateSlice(const Instruction &instr,
                                               Operands operands,
                                               HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  Value x;
  llvm::SmallVector<Value> indices;
  if (failed(dynamicSliceOperands(instr, operands, 2, x, indices)))
    return failure();
  auto u = array(instr, operands, 1);
  if (failed(u))
    return failure();
  result.leaves.push_back(
      b_.create<DynamicUpdateSliceOp>(opLoc(instr), *type, x, *u, indices));
  return success();
}

LogicalResult Importer::emitConcatenate(const Instruction &instr,
                                        Operands operands, HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (n == 0)
    return checkOperandCount(instr, 1, 0);
  llvm::SmallVector<Value> inputs;
  for (size_t i = 0; i < n; ++i) {
    auto v = array(instr, operands, i);
    if (failed(v))
      return failure();
    inputs.push_back(*v);
  }
  auto dims = listAttr(instr, "dimensions", /*required=*/true);
  if (failed(dims))
    return failure();
  if (dims->size() != 1) {
    error(instr.attr("dimensions")->valueLoc)
        << "'concatenate' takes one dimension";
    return failure();
  }
  result.leaves.push_back(b_.create<ConcatenateOp>(
      loc, *type, inputs, b_.getI64IntegerAttr((*dims)[0])));
  return success();
}

LogicalResult Importer::emitPad(const Instruction &instr, Operands operands,
                                HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (failed(checkOperandCount(instr, 2, n)))
    return failure();
  auto x = array(instr, operands, 0), v = array(instr, operands, 1);
  const Attr *p = requireAttr(instr, "padding");
  if (failed(x) || failed(v) || !p)
    return failure();
  llvm::SmallVector<int64_t> low, high, interior;
  if (failed(AttrParser(*p, locator_).padding(low, high, interior)))
    return failure();
  result.leaves.push_back(b_.create<PadOp>(
      loc, *type, *x, *v, b_.getDenseI64ArrayAttr(low),
      b_.getDenseI64ArrayAttr(high), b_.getDenseI64ArrayAttr(interior)));
  return success();
}

} // namespace mlir::torus::hlo
