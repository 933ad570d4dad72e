//===- ShardingRulesTest.cpp - Every op's sharding rule -------------------===//
//
// Sharding propagation and the SPMD partitioner learn what an op does to a
// tiling only from its ShardingRuleOpInterface: an elementwise op without
// it would silently block propagation and run on whole tensors. These tests
// check that every elementwise op has the rule, and spot-check a few rules.
//
//===----------------------------------------------------------------------===//

#include "ir/ShardingRuleOpInterface.h"
#include "ir/TorusDialect.h"
#include "ir/TorusOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::torus;

namespace {

TEST(ShardingRules, EveryElementwiseOpHasARule) {
  MLIRContext ctx;
  ctx.loadDialect<TorusDialect>();
  int checked = 0;
  for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "torus" ||
        !name.hasTrait<OpTrait::Elementwise>())
      continue;
    ++checked;
    EXPECT_TRUE(name.hasInterface<ShardingRuleOpInterface>())
        << name.getStringRef().str()
        << " is elementwise but has no sharding rule: list "
           "Torus_ShardingRuleOpInterface in its ODS traits";
  }
  EXPECT_GT(checked, 30);
}

/// The rule of the op defining the function's result, for operand
/// `operand`.
std::optional<SmallVector<int64_t>> ruleOf(MLIRContext &ctx, StringRef text,
                                           unsigned operand) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module)
    return std::nullopt;
  auto fn = *module->getOps<func::FuncOp>().begin();
  Operation *ret = fn.getBody().front().getTerminator();
  auto rule =
      dyn_cast<ShardingRuleOpInterface>(ret->getOperand(0).getDefiningOp());
  if (!rule)
    return std::nullopt;
  return rule.getOperandDimMap(operand, 0);
}

TEST(ShardingRules, DimensionMaps) {
  MLIRContext ctx;
  ctx.loadDialect<TorusDialect, func::FuncDialect>();
  // Transpose: operand dim perm[i] is result dim i.
  EXPECT_EQ(ruleOf(ctx, R"(
    func.func @f(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
      %y = torus.transpose %x, permutation = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
      return %y : tensor<4x2x3xf32>
    })", 0),
            (SmallVector<int64_t>{1, 2, 0}));
  // Dot: batch, then lhs free, then rhs free; contracting dims map nowhere.
  EXPECT_EQ(ruleOf(ctx, R"(
    func.func @f(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
      %y = torus.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
      return %y : tensor<5x2x4xf32>
    })", 1),
            (SmallVector<int64_t>{0, -1, 2}));
  // A scalar predicate of select is not data a tiling passes through.
  EXPECT_EQ(ruleOf(ctx, R"(
    func.func @f(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %y = torus.select %p, %a, %b : tensor<i1>, tensor<4xf32>
      return %y : tensor<4xf32>
    })", 0),
            std::nullopt);
  // Argmax drops its dimension.
  EXPECT_EQ(ruleOf(ctx, R"(
    func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
      %v, %i = torus.argmax %x, dimension = 1 : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi32>)
      return %v : tensor<4xf32>
    })", 0),
            (SmallVector<int64_t>{0, -1}));
  // Sort: every dimension passes but the sorted one.
  EXPECT_EQ(ruleOf(ctx, R"(
    func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %y = torus.sort(%x) dimension = 1 : (tensor<4x8xf32>) -> tensor<4x8xf32> {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %lt = torus.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        torus.return %lt : tensor<i1>
      }
      return %y : tensor<4x8xf32>
    })", 0),
            (SmallVector<int64_t>{0, -1}));
  // top_k: the last dimension does not pass.
  EXPECT_EQ(ruleOf(ctx, R"(
    func.func @f(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
      %v, %i = torus.top_k %x, k = 2 : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
      return %v : tensor<4x2xf32>
    })", 0),
            (SmallVector<int64_t>{0, -1}));
}

TEST(ShardingRules, SortedDimensionsAreBlocked) {
  MLIRContext ctx;
  ctx.loadDialect<TorusDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @f(%x: tensor<4x8xf32>, %dy: tensor<4x4xf32>, %z: tensor<f32>) -> (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x8xf32>) {
      %y = torus.sort(%x) dimension = 0 : (tensor<4x8xf32>) -> tensor<4x8xf32> {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %lt = torus.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        torus.return %lt : tensor<i1>
      }
      %v, %i = torus.top_k %x, k = 2 : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
      %g = torus.select_and_scatter %x, %dy, %z, window = [1, 2] {window_strides = array<i64: 1, 2>}
           : (tensor<4x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x8xf32>
      select {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %p = torus.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        torus.return %p : tensor<i1>
      } scatter {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = torus.add %a, %b : tensor<f32>
        torus.return %s : tensor<f32>
      }
      return %y, %v, %g : tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x8xf32>
    })", &ctx);
  ASSERT_TRUE(module);
  auto fn = *module->getOps<func::FuncOp>().begin();
  SmallVector<SmallVector<int64_t>> blocked;
  for (Operation &op : fn.getBody().front())
    if (auto rule = dyn_cast<ShardingRuleOpInterface>(op))
      if (op.getNumRegions() || isa<TopKOp>(op))
        blocked.push_back(rule.getBlockedResultDims(ShardingAttr()));
  ASSERT_EQ(blocked.size(), 3u);
  EXPECT_EQ(blocked[0], (SmallVector<int64_t>{0}));
  EXPECT_EQ(blocked[1], (SmallVector<int64_t>{1}));
  // The windowed dimension; the other passes as in reduce_window.
  EXPECT_EQ(blocked[2], (SmallVector<int64_t>{1}));
}

TEST(ShardingRules, SolvesAndTransformsTileTheirBatches) {
  MLIRContext ctx;
  ctx.loadDialect<TorusDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"(
    func.func @f(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>, %c: tensor<2x3x4xf32>, %x: tensor<2x4x8xcomplex<f32>>, %r: tensor<2x8xf32>)
        -> (tensor<2x4x3xf32>, tensor<2x3x4xf32>, tensor<2x4x8xcomplex<f32>>, tensor<2x5xcomplex<f32>>) {
      %left = torus.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
      %right = torus.triangular_solve %a, %c, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
      %f = torus.fft %x, type = FFT, length = [4, 8] : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
      %rf = torus.fft %r, type = RFFT, length = [8] : (tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>>
      return %left, %right, %f, %rf : tensor<2x4x3xf32>, tensor<2x3x4xf32>, tensor<2x4x8xcomplex<f32>>, tensor<2x5xcomplex<f32>>
    })", &ctx);
  ASSERT_TRUE(module);
  auto fn = *module->getOps<func::FuncOp>().begin();
  SmallVector<ShardingRuleOpInterface> rules;
  for (Operation &op : fn.getBody().front())
    if (auto rule = dyn_cast<ShardingRuleOpInterface>(op))
      rules.push_back(rule);
  ASSERT_EQ(rules.size(), 4u);
  // a tiles along its batch only; b along all of it, but the solved
  // dimension (rows from the left, columns from the right) is blocked.
  EXPECT_EQ(rules[0].getOperandDimMap(0, 0), (SmallVector<int64_t>{0, -1, -1}));
  EXPECT_EQ(rules[0].getOperandDimMap(1, 0), (SmallVector<int64_t>{0, 1, 2}));
  EXPECT_EQ(rules[0].getBlockedResultDims(ShardingAttr()),
            (SmallVector<int64_t>{1}));
  EXPECT_EQ(rules[1].getBlockedResultDims(ShardingAttr()),
            (SmallVector<int64_t>{2}));
  // fft: the batch passes, the transformed dimensions are blocked.
  EXPECT_EQ(rules[2].getOperandDimMap(0, 0), (SmallVector<int64_t>{0, -1, -1}));
  EXPECT_EQ(rules[2].getBlockedResultDims(ShardingAttr()),
            (SmallVector<int64_t>{1, 2}));
  EXPECT_EQ(rules[3].getOperandDimMap(0, 0), (SmallVector<int64_t>{0, -1}));
  EXPECT_EQ(rules[3].getBlockedResultDims(ShardingAttr()),
            (SmallVector<int64_t>{1}));
}

} // namespace
