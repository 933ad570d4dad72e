//===- ImportElementwiseOps.cpp - HLO convert and compare to torus --------===//
//
// The elementwise opcodes with more to them than HloOpInterface says:
// convert (a no-op between u32 and s32, rejected where the sign's reading
// would change the value) and compare (direction and type). The others,
// unary and binary arithmetic, select, clamp, are created generically.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

namespace mlir::torus::hlo {

LogicalResult Importer::emitConvert(const Instruction &instr, Operands operands,
                                    HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (failed(checkOperandCount(instr, 1, n)))
    return failure();
  auto x = array(instr, operands, 0);
  if (failed(x))
    return failure();
  result.leaves.push_back(b_.create<ConvertOp>(loc, *type, *x));
  return success();
}

LogicalResult Importer::emitCompare(const Instruction &instr, Operands operands,
                                    HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (failed(checkOperandCount(instr, 2, n)))
    return failure();
  auto x = array(instr, operands, 0), y = array(instr, operands, 1);
  if (failed(x) || failed(y))
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
      loc, *type, ComparisonDirectionAttr::get(ctx_, *dir), *x, *y,
      totalOrder ? b_.getUnitAttr() : UnitAttr()));
  return success();
}

} // namespace mlir::torus::hlo
