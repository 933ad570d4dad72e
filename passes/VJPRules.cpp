//===- VJPRules.cpp - Vector-Jacobian products of torus ops ---------------===//
//
// Each op carries its own rule (VJPOpInterface, ir/VJPOpInterface.td) or
// says it has no gradient (NoGradient); this asks it.
//
//===----------------------------------------------------------------------===//

#include "passes/VJPRules.h"
#include "ir/TorusOps.h"

namespace mlir::torus {

LogicalResult buildVJP(GradBuilder &gb, Operation *op,
                       ArrayRef<Value> resultCotangents,
                       SmallVectorImpl<Value> &operandCotangents) {
  operandCotangents.assign(op->getNumOperands(), Value());
  if (op->hasTrait<NoGradient>())
    return success();
  if (auto vjp = dyn_cast<VJPOpInterface>(op))
    return vjp.buildVJP(gb, resultCotangents, operandCotangents);
  return op->emitOpError("cannot be differentiated: no gradient rule for "
                         "this op");
}

} // namespace mlir::torus
