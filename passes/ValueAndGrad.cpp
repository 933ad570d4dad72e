//===- ValueAndGrad.cpp - Loss functions to loss-and-gradient functions ---===//

#include "passes/Passes.h"
#include "ir/TorusOps.h"
#include "passes/Autodiff.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSVALUEANDGRAD
#include "passes/Passes.h.inc"

namespace {

bool isScalarFloat(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.getRank() == 0 &&
         isa<FloatType>(tensor.getElementType());
}

struct ValueAndGradPass : impl::TorusValueAndGradBase<ValueAndGradPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> losses;
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn.isPublic() && !fn.isExternal() && fn.getNumResults() == 1 &&
          isScalarFloat(fn.getResultTypes()[0]))
        losses.push_back(fn);

    for (func::FuncOp loss : losses) {
      auto fn = cast<func::FuncOp>(loss->clone());
      fn.setName((loss.getName() + "_value_and_grad").str());
      symbols.insert(fn);
      Block &body = fn.getBody().front();
      auto ret = cast<func::ReturnOp>(body.getTerminator());
      SmallVector<Value> wrt;
      for (BlockArgument arg : body.getArguments())
        if (isa<FloatType>(
                cast<RankedTensorType>(arg.getType()).getElementType()))
          wrt.push_back(arg);
      OpBuilder b(ret);
      auto grads = buildGradients(b, ret.getLoc(), ret.getOperand(0),
                                  /*cotangent=*/Value(), wrt);
      if (failed(grads))
        return signalPassFailure();
      SmallVector<Value> results = {ret.getOperand(0)};
      results.append(grads->begin(), grads->end());
      b.create<func::ReturnOp>(ret.getLoc(), results);
      ret.erase();
      fn.setFunctionType(b.getFunctionType(
          fn.getArgumentTypes(), ValueRange(results).getTypes()));
    }
  }
};

} // namespace
} // namespace mlir::torus
