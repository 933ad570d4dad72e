//===- Autodiff.cpp - Reverse-mode differentiation of torus IR ------------===//

#include "passes/Autodiff.h"
#include "ir/GradBuilder.h"
#include "passes/VJPRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::torus {

namespace {
/// Float or complex elements: the values gradients flow through (JAX's
/// inexact types).
bool isFloatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType, ComplexType>(t.getElementType());
}
} // namespace

FailureOr<SmallVector<Value>> buildGradients(OpBuilder &builder, Location loc,
                                             Value output, Value cotangent,
                                             ArrayRef<Value> wrt) {
  auto outType = dyn_cast<RankedTensorType>(output.getType());
  if (!isFloatTensor(output))
    return emitError(loc) << "cannot differentiate a non-floating-point "
                             "output of type "
                          << output.getType();
  if (!cotangent && outType.getRank() != 0)
    return emitError(loc) << "the gradient of a non-scalar output of type "
                          << outType << " needs a cotangent";
  if (cotangent && cotangent.getType() != outType)
    return emitError(loc) << "cotangent type " << cotangent.getType()
                          << " differs from the output type " << outType;
  for (Value w : wrt)
    if (!isFloatTensor(w))
      return emitError(loc) << "cannot differentiate with respect to a value "
                               "of type "
                            << w.getType()
                            << "; only floating-point tensors have gradients";

  Block *block = builder.getInsertionBlock();
  GradBuilder gb(builder, loc);

  // Values depending on some `wrt`, in program order, and the ops between.
  llvm::SetVector<Value> active(wrt.begin(), wrt.end());
  SmallVector<Operation *> tape;
  for (Operation &op : llvm::make_range(block->begin(),
                                        builder.getInsertionPoint())) {
    bool usesActive = false;
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        usesActive |= active.contains(operand);
    });
    if (!usesActive)
      continue;
    tape.push_back(&op);
    for (Value result : op.getResults())
      if (isFloatTensor(result))
        active.insert(result);
  }

  // Walk back from the output, summing cotangents per value.
  llvm::DenseMap<Value, Value> cotangents;
  cotangents[output] = cotangent ? cotangent : gb.splat(outType, 1.0);
  auto accumulate = [&](Value v, Value ct) {
    auto [it, inserted] = cotangents.try_emplace(v, ct);
    if (!inserted)
      it->second = gb.add(it->second, ct);
  };
  for (Operation *op : llvm::reverse(tape)) {
    SmallVector<Value> resultCts;
    bool any = false;
    for (Value r : op->getResults()) {
      Value ct = cotangents.lookup(r);
      resultCts.push_back(ct);
      any |= static_cast<bool>(ct);
    }
    if (!any)
      continue;
    // Results nothing depends on still need a (zero) cotangent for the rule.
    for (unsigned i = 0, e = resultCts.size(); i < e; ++i)
      if (!resultCts[i] && isFloatTensor(op->getResult(i)))
        resultCts[i] = gb.zerosLike(op->getResult(i));
    SmallVector<Value> operandCts;
    if (failed(buildVJP(gb, op, resultCts, operandCts)))
      return failure();
    for (auto [operand, ct] : llvm::zip(op->getOperands(), operandCts))
      if (ct && active.contains(operand))
        accumulate(operand, ct);
  }

  SmallVector<Value> grads;
  for (Value w : wrt) {
    Value ct = cotangents.lookup(w);
    grads.push_back(ct ? ct : gb.zerosLike(w));
  }
  return grads;
}

} // namespace mlir::torus
