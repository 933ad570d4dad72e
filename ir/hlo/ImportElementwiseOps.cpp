//===- ImportElementwiseOps.cpp - HLO convert, compare, reduce-precision --===//
//
// The elementwise opcodes with more to them than HloOpInterface says:
// convert (a no-op between u32 and s32, rejected where the sign's reading
// would change the value), compare (direction and type),
// reduce-precision (its two widths) and bitcast-convert (one op for the
// same width, integer ops between 32 and 64 bits). The others, unary and binary arithmetic, shifts, select, clamp,
// are created generically.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

namespace mlir::torus::hlo {

LogicalResult Importer::emitConvert(const Instruction &instr, Operands operands,
                                    HloValue &result) {
  auto in = arrays(instr, operands, 1);
  if (failed(in))
    return failure();
  result.leaves.push_back(
      b_.create<ConvertOp>(opLoc(instr), in->type, in->values[0]));
  return success();
}

LogicalResult Importer::emitCompare(const Instruction &instr, Operands operands,
                                    HloValue &result) {
  auto in = arrays(instr, operands, 2);
  if (failed(in))
    return failure();
  const Attr *dirAttr = requireAttr(instr, "direction");
  if (!dirAttr)
    return failure();
  llvm::StringRef dirText;
  if (failed(AttrParser(*dirAttr, locator_).word(dirText)))
    return failure();
  auto dir = symbolizeComparisonDirection(dirText);
  if (!dir) {
    error(dirAttr->valueLoc) << "unknown comparison direction '" << dirText
                             << "' (EQ, NE, LT, LE, GT or GE)";
    return failure();
  }
  PrimitiveType operandType = operands[0]->shape->type;
  bool totalOrder = false;
  if (const Attr *typeAttr = instr.attr("type")) {
    llvm::StringRef t;
    if (failed(AttrParser(*typeAttr, locator_).word(t)))
      return failure();
    // TOTALORDER on integers is their ordinary order.
    totalOrder = t == "TOTALORDER" && isFloat(operandType);
    bool ok =
        (t == "FLOAT" && isFloat(operandType)) ||
        (t == "SIGNED" && !isFloat(operandType) && !isUnsigned(operandType)) ||
        (t == "UNSIGNED" &&
         (isUnsigned(operandType) || operandType == PrimitiveType::Pred)) ||
        t == "TOTALORDER";
    if (!ok) {
      error(typeAttr->valueLoc)
          << "unsupported comparison type '" << t << "' for "
          << primitiveTypeName(operandType) << " operands";
      return failure();
    }
  }
  result.leaves.push_back(b_.create<CompareOp>(
      opLoc(instr), in->type, ComparisonDirectionAttr::get(ctx_, *dir),
      in->values[0], in->values[1],
      totalOrder ? b_.getUnitAttr() : UnitAttr()));
  return success();
}

LogicalResult Importer::emitReducePrecision(const Instruction &instr,
                                            Operands operands,
                                            HloValue &result) {
  auto in = arrays(instr, operands, 1);
  auto exponentBits = intAttr(instr, "exponent_bits");
  auto mantissaBits = intAttr(instr, "mantissa_bits");
  if (failed(in) || failed(exponentBits) || failed(mantissaBits))
    return failure();
  if (*exponentBits < 1 || *exponentBits > 64 || *mantissaBits < 0 ||
      *mantissaBits > 64) {
    error(instr.opcodeLoc)
        << "'reduce-precision' needs 1 <= exponent_bits <= 64 and 0 <= "
           "mantissa_bits <= 64, got "
        << *exponentBits << " and " << *mantissaBits;
    return failure();
  }
  result.leaves.push_back(b_.create<ReducePrecisionOp>(
      opLoc(instr), in->type, in->values[0], static_cast<int32_t>(*exponentBits),
      static_cast<int32_t>(*mantissaBits)));
  return success();
}

/// HLO's width-changing bitcast-convert between 32- and 64-bit elements,
/// written with integer ops: the two 32-bit elements along the last
/// dimension are the 64-bit one's bits, the least significant first (the
/// in-memory order of a little-endian machine, XLA's CPU backend's).
/// Null for other widths.
Value bitcastAcrossWidths(OpBuilder &b, Location loc, Value x,
                          RankedTensorType to) {
  auto from = cast<RankedTensorType>(x.getType());
  unsigned fromBits = from.getElementTypeBitWidth();
  unsigned toBits = to.getElementTypeBitWidth();
  if (!((fromBits == 32 && toBits == 64) || (fromBits == 64 && toBits == 32)))
    return {};
  // The narrow side has the wide side's shape and a last dimension of 2.
  RankedTensorType narrowT = fromBits == 32 ? from : to;
  RankedTensorType wideT = fromBits == 32 ? to : from;
  SmallVector<int64_t> expected(wideT.getShape());
  expected.push_back(2);
  if (narrowT.getShape() != ArrayRef<int64_t>(expected))
    return {};
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto retype = [&](Value v, Type et) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() == et)
      return v;
    return b.create<BitcastConvertOp>(loc, t.clone(et), v);
  };
  auto splat = [&](RankedTensorType t, int64_t value) -> Value {
    return b.create<ConstantOp>(
        loc, DenseElementsAttr::get(t, b.getIntegerAttr(t.getElementType(),
                                                        value)));
  };
  if (fromBits == 32) {
    // [..., 2] x 32 bits to [...] x 64 bits: lo | hi << 32.
    Value xi = retype(x, i32);
    SmallVector<int64_t> shape(from.getShape());
    int64_t last = from.getRank() - 1;
    auto wide = RankedTensorType::get(to.getShape(), i64);
    auto half = [&](int64_t k) -> Value {
      SmallVector<int64_t> start(shape.size(), 0), limit(shape),
          strides(shape.size(), 1);
      start[last] = k;
      limit[last] = k + 1;
      Value s = b.create<SliceOp>(loc, xi, start, limit, strides);
      Value r = b.create<ReshapeOp>(
          loc, RankedTensorType::get(to.getShape(), i32), s);
      return b.create<ConvertOp>(loc, wide, r); // sign-extends
    };
    Value lo = b.create<AndOp>(loc, wide, half(0), splat(wide, 0xFFFFFFFF));
    Value hi = b.create<ShiftLeftOp>(loc, wide, half(1), splat(wide, 32));
    return retype(b.create<OrOp>(loc, wide, hi, lo), to.getElementType());
  }
  // [...] x 64 bits to [..., 2] x 32 bits: the low half, then the high.
  auto wide = from.clone(i64);
  Value xi = retype(x, i64);
  SmallVector<int64_t> pieceShape(from.getShape());
  pieceShape.push_back(1);
  auto piece = [&](Value v) -> Value {
    Value n = b.create<ConvertOp>(loc, from.clone(i32), v); // truncates
    return b.create<ReshapeOp>(loc, RankedTensorType::get(pieceShape, i32), n);
  };
  Value lo = piece(xi);
  Value hi =
      piece(b.create<ShiftRightLogicalOp>(loc, wide, xi, splat(wide, 32)));
  Value both = b.create<ConcatenateOp>(loc, ValueRange{lo, hi}, from.getRank());
  return retype(both, to.getElementType());
}

LogicalResult Importer::emitBitcastConvert(const Instruction &instr,
                                           Operands operands,
                                           HloValue &result) {
  auto in = arrays(instr, operands, 1);
  if (failed(in))
    return failure();
  if (operands[0]->shape->dims != instr.shape.dims) {
    if (Value r = bitcastAcrossWidths(b_, opLoc(instr), in->values[0],
                                      in->type)) {
      result.leaves.push_back(r);
      return success();
    }
    error(instr.opcodeLoc)
        << "'bitcast-convert' from " << shapeText(*operands[0]->shape)
        << " to " << shapeText(instr.shape)
        << " is not supported: only element types of one bit width, or of "
           "32 and 64 bits";
    return failure();
  }
  result.leaves.push_back(
      b_.create<BitcastConvertOp>(opLoc(instr), in->type, in->values[0]));
  return success();
}

} // namespace mlir::torus::hlo
