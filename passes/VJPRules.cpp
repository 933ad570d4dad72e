//===- VJPRules.cpp - Vector-Jacobian products of torus ops ---------------===//
//
// Each op carries its own rule (VJPOpInterface, ir/VJPOpInterface.td) or
// says it has no gradient (NoGradient); this asks it.
//
//===----------------------------------------------------------------------===//

#include "passes/VJPRules.h"
#include "ir/TorusOps.h"

namespace mlir::torus {

namespace {
bool touchesComplex(Operation *op) {
  auto isComplex = [](Type t) {
    auto st = dyn_cast<ShapedType>(t);
    return st && isa<ComplexType>(st.getElementType());
  };
  return llvm::any_of(op->getOperandTypes(), isComplex) ||
         llvm::any_of(op->getResultTypes(), isComplex);
}

/// Ops whose rule holds for complex numbers as JAX defines their gradients
/// (linear in the operands with real coefficients, or holomorphic with the
/// rule written without conjugates, or the part ops' own rules). The others
/// (exp, abs, dot_general ...) refuse complex operands rather than give
/// gradients nobody checked.
bool complexGradientImplemented(Operation *op) {
  return isa<RealOp, ImagOp, ComplexOp, ConvertOp, AddOp, SubtractOp,
             NegateOp, MultiplyOp, ReshapeOp, TransposeOp, BroadcastInDimOp,
             SliceOp, ConcatenateOp, ReverseOp, SelectOp, FftOp>(op);
}
} // namespace

LogicalResult buildVJP(GradBuilder &gb, Operation *op,
                       ArrayRef<Value> resultCotangents,
                       SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.assign(op->getNumOperands(), Value());
  if (op->hasTrait<NoGradient>())
    return success();
  if (touchesComplex(op) && !complexGradientImplemented(op))
    return op->emitOpError(
        "cannot be differentiated on complex numbers: gradients of complex "
        "values are implemented only for real, imag, complex, convert, add, "
        "subtract, negate, multiply, fft and the ops that move elements");
  if (auto vjp = dyn_cast<VJPOpInterface>(op))
    return vjp.buildVJP(gb, resultCotangents, operandCotangents);
  return op->emitOpError("cannot be differentiated: no gradient rule for "
                         "this op");
}

} // namespace mlir::torus
