//===- ComplexOps.cpp - Ops on complex numbers: builders and verifiers ---===//
//
// HLO's `real`, `imag`, `complex` and `abs` (whose result is real for a
// complex operand), and the checks that keep complex numbers out of the
// orders (compare LT/LE/GT/GE). What they compute is their ScalarBody
// (ir/TorusOps.td), built with the MLIR `complex` dialect.
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/ShapeRules.h"
#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

using namespace mlir;
using namespace mlir::torus;

namespace {

/// The part type of a complex element type, or `t` itself.
Type partType(Type t) {
  if (auto ct = dyn_cast<ComplexType>(t))
    return ct.getElementType();
  return t;
}

/// `type` with the part type of its element type.
RankedTensorType partTensorType(Value v) {
  RankedTensorType t = tensorType(v);
  return RankedTensorType::get(t.getShape(), partType(t.getElementType()));
}

/// The result of abs/real/imag: the operand's shape, the part type of its
/// element type.
LogicalResult verifyPartOp(Operation *op, Value operand, Type result) {
  RankedTensorType want = partTensorType(operand);
  if (result != want)
    return op->emitOpError("result type ")
           << result << " should be " << want << " (the operand's shape"
           << (isa<ComplexType>(tensorType(operand).getElementType())
                   ? ", the part type of its complex elements)"
                   : " and element type)");
  return success();
}

ParseResult parsePartOp(OpAsmParser &parser, OperationState &state) {
  OpAsmParser::UnresolvedOperand operand;
  Type type;
  if (parser.parseOperand(operand) ||
      parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
      parser.parseType(type))
    return failure();
  Type operandType = type, resultType = type;
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != 1 || fn.getNumResults() != 1)
      return parser.emitError(parser.getCurrentLocation(),
                              "expected (operand type) -> result type");
    operandType = fn.getInput(0);
    resultType = fn.getResult(0);
  }
  state.addTypes(resultType);
  return parser.resolveOperand(operand, operandType, state.operands);
}

void printPartOp(OpAsmPrinter &p, Operation *op) {
  p << ' ' << op->getOperand(0);
  p.printOptionalAttrDict(op->getAttrs());
  Type in = op->getOperand(0).getType(), out = op->getResult(0).getType();
  p << " : ";
  if (in == out)
    p << out;
  else
    p.printFunctionalType(op);
}

} // namespace

ParseResult AbsOp::parse(OpAsmParser &parser, OperationState &state) {
  return parsePartOp(parser, state);
}
void AbsOp::print(OpAsmPrinter &p) { printPartOp(p, *this); }
ParseResult RealOp::parse(OpAsmParser &parser, OperationState &state) {
  return parsePartOp(parser, state);
}
void RealOp::print(OpAsmPrinter &p) { printPartOp(p, *this); }
ParseResult ImagOp::parse(OpAsmParser &parser, OperationState &state) {
  return parsePartOp(parser, state);
}
void ImagOp::print(OpAsmPrinter &p) { printPartOp(p, *this); }

void AbsOp::build(OpBuilder &builder, OperationState &state, Value operand) {
  build(builder, state, partTensorType(operand), operand);
}
LogicalResult AbsOp::verify() {
  return verifyPartOp(*this, getOperand(), getType());
}

void RealOp::build(OpBuilder &builder, OperationState &state, Value operand) {
  build(builder, state, partTensorType(operand), operand);
}
LogicalResult RealOp::verify() {
  return verifyPartOp(*this, getOperand(), getType());
}
OpFoldResult RealOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType()) // a float is its own real part
    return getOperand();
  if (auto c = getOperand().getDefiningOp<ComplexOp>())
    return c.getLhs();
  return {};
}

void ImagOp::build(OpBuilder &builder, OperationState &state, Value operand) {
  build(builder, state, partTensorType(operand), operand);
}
LogicalResult ImagOp::verify() {
  return verifyPartOp(*this, getOperand(), getType());
}
OpFoldResult ImagOp::fold(FoldAdaptor) {
  if (auto c = getOperand().getDefiningOp<ComplexOp>())
    return c.getRhs();
  return {};
}

void ComplexOp::build(OpBuilder &builder, OperationState &state, Value lhs,
                      Value rhs) {
  RankedTensorType t = tensorType(lhs);
  build(builder, state,
        RankedTensorType::get(t.getShape(),
                              ComplexType::get(t.getElementType())),
        lhs, rhs);
}
LogicalResult ComplexOp::verify() {
  RankedTensorType t = tensorType(getLhs());
  auto want = RankedTensorType::get(t.getShape(),
                                    ComplexType::get(t.getElementType()));
  if (getType() != want)
    return emitOpError("result type ")
           << getType() << " should be " << want
           << " (the operands' shape, complex of their element type)";
  return success();
}
OpFoldResult ComplexOp::fold(FoldAdaptor) {
  // complex(real(z), imag(z)) = z
  auto re = getLhs().getDefiningOp<RealOp>();
  auto im = getRhs().getDefiningOp<ImagOp>();
  if (re && im && re.getOperand() == im.getOperand() &&
      re.getOperand().getType() == getType())
    return re.getOperand();
  return {};
}

// JAX's rule: the cotangent t of complex(x, y) gives x real(t) and y
// -imag(t).
LogicalResult ComplexOp::buildVJP(GradBuilder &gb,
                                  ArrayRef<Value> resultCotangents,
                                  SmallVectorImpl<Value> &operandCotangents) {
  Value ct = resultCotangents.front();
  OpBuilder &b = gb.builder();
  operandCotangents[0] = b.create<RealOp>(gb.location(), ct);
  operandCotangents[1] =
      gb.neg(b.create<ImagOp>(gb.location(), ct).getResult());
  return success();
}

LogicalResult CompareOp::verify() {
  ComparisonDirection dir = getComparisonDirection();
  if (isa<ComplexType>(tensorType(getLhs()).getElementType()) &&
      dir != ComparisonDirection::EQ && dir != ComparisonDirection::NE)
    return emitOpError("compares complex numbers only with EQ and NE "
                       "(complex numbers have no order), got ")
           << stringifyComparisonDirection(dir);
  return success();
}
