//===- ImportShapeOps.cpp - HLO shape ops to torus ------------------------===//
//
// iota, broadcast, transpose, reverse, slice, dynamic-slice,
// dynamic-update-slice, concatenate and pad: each reads its attributes into
// the torus op's. reshape has none and is created generically.
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
