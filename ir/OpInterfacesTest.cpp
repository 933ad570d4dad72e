//===- OpInterfacesTest.cpp - Every torus op carries what it needs --------===//
//
// Each test states one property every registered op of the dialect must
// have, and fails naming the ops that lack it. Add a property with one more
// TEST calling expectEveryOp.
//
//===----------------------------------------------------------------------===//

#include "ir/TorusOps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::torus;

namespace {

/// Every op of the torus dialect, as registered.
SmallVector<RegisteredOperationName> torusOps(MLIRContext &context) {
  context.loadDialect<TorusDialect>();
  SmallVector<RegisteredOperationName> ops;
  for (RegisteredOperationName op : context.getRegisteredOperations())
    if (op.getDialect().getNamespace() == TorusDialect::getDialectNamespace())
      ops.push_back(op);
  return ops;
}

/// Fails, naming each op, for every torus op for which `holds` is false;
/// `problem` says what is wrong with such an op.
void expectEveryOp(StringRef problem,
                   function_ref<bool(RegisteredOperationName)> holds) {
  MLIRContext context;
  SmallVector<RegisteredOperationName> ops = torusOps(context);
  ASSERT_GT(ops.size(), 50u) << "the torus dialect registered too few ops";
  for (RegisteredOperationName op : ops)
    EXPECT_TRUE(holds(op)) << op.getStringRef().str() << " " << problem.str();
}

} // namespace

// ODS result constraints are not visible at run time, so every op with
// results counts as differentiable unless its definition says otherwise.
TEST(OpInterfacesTest, EveryOpWithResultsHasAGradientRule) {
  expectEveryOp("has no gradient rule (Torus_VJPOpInterface, or `let vjp` "
                "in an elementwise def) and does not say it has none "
                "(Torus_NoGradient or `let noGradient = 1`) or that its rule "
                "is missing (Torus_VJPNotImplemented)",
                [](RegisteredOperationName op) {
                  return op.hasTrait<OpTrait::ZeroResults>() ||
                         op.hasInterface<VJPOpInterface>() ||
                         op.hasTrait<NoGradient>() ||
                         op.hasTrait<VJPNotImplemented>();
                });
}

TEST(OpInterfacesTest, NoOpBothHasAGradientRuleAndSaysItHasNone) {
  expectEveryOp("has a gradient rule and also says it has none "
                "(Torus_NoGradient or Torus_VJPNotImplemented)",
                [](RegisteredOperationName op) {
                  return !op.hasInterface<VJPOpInterface>() ||
                         !(op.hasTrait<NoGradient>() ||
                           op.hasTrait<VJPNotImplemented>());
                });
}

// torus-to-linalg builds every elementwise loop from the op's ScalarBody: an
// elementwise op without one would fail to lower.
TEST(OpInterfacesTest, EveryElementwiseOpSaysWhatItComputes) {
  expectEveryOp("is Elementwise but has no ScalarBody (`let scalarBody` in "
                "its def, or the ScalarBody trait): code generation cannot "
                "lower it",
                [](RegisteredOperationName op) {
                  return !op.hasTrait<OpTrait::Elementwise>() ||
                         op.hasInterface<ScalarOpInterface>();
                });
}

