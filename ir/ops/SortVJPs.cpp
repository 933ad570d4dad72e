//===- SortVJPs.cpp - VJPs of sort and top_k ------------------------------===//
//
// Both ops permute elements along one dimension, so the cotangent goes back
// through the inverse permutation. The permutation comes from sorting
// again with an iota along (the same stable sort, so the same order), and
// its inverse is applied by one more sort: sorting (perm, ct) by perm puts
// ct[k] at perm[k].
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::torus {

namespace {

bool isFloatTensor(Value v) {
  return isa<FloatType>(GradBuilder::typeOf(v).getElementType());
}

/// A torus.sort of `operands` along `dim` whose comparator `body` builds
/// from its (lhs_0, rhs_0, lhs_1, rhs_1, ...) scalar arguments.
SortOp buildSort(
    OpBuilder &b, Location loc, ValueRange operands, int64_t dim,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto op = b.create<SortOp>(loc, operands.getTypes(), operands,
                             b.getI64IntegerAttr(dim), b.getBoolAttr(true));
  SmallVector<Type> args;
  for (Value v : operands) {
    auto t = RankedTensorType::get({}, GradBuilder::typeOf(v).getElementType());
    args.append({t, t});
  }
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&op.getComparator(), {}, args,
                               SmallVector<Location>(args.size(), loc));
  b.create<ReturnOp>(loc, body(b, loc, block->getArguments()));
  return op;
}

/// The positions (i32 iota along `dim`) carried through a sort of
/// `operands` by `comparator`, cloned: where each sorted element came from.
Value sortedPositions(OpBuilder &b, Location loc, ValueRange operands,
                      int64_t dim, Region &comparator) {
  auto type = GradBuilder::typeOf(operands[0]);
  auto iotaType = type.clone(b.getI32Type());
  Value iota = b.create<IotaOp>(loc, iotaType, dim);
  SmallVector<Value> all(operands);
  all.push_back(iota);
  auto op = b.create<SortOp>(loc, ValueRange(all).getTypes(), all,
                             b.getI64IntegerAttr(dim), b.getBoolAttr(true));
  IRMapping map;
  comparator.cloneInto(&op.getComparator(), map);
  Block &block = op.getComparator().front();
  auto scalar = RankedTensorType::get({}, b.getI32Type());
  block.addArgument(scalar, loc);
  block.addArgument(scalar, loc);
  return op.getResults().back();
}

/// `cts` moved back through the permutation `perm` (result k came from
/// perm[k]).
SmallVector<Value> unpermute(OpBuilder &b, Location loc, Value perm,
                             ValueRange cts, int64_t dim) {
  SmallVector<Value> operands = {perm};
  operands.append(cts.begin(), cts.end());
  SortOp inverse =
      buildSort(b, loc, operands, dim,
                [](OpBuilder &b, Location loc, ValueRange x) -> Value {
                  return b.create<CompareOp>(loc, ComparisonDirection::LT,
                                             x[0], x[1]);
                });
  return SmallVector<Value>(inverse.getResults().drop_front());
}

} // namespace

LogicalResult SortOp::buildVJP(GradBuilder &gb,
                               ArrayRef<Value> resultCotangents,
                               SmallVectorImpl<Value> &cts) {
  OpBuilder &b = gb.builder();
  Location loc = gb.location();
  SmallVector<unsigned> floats;
  SmallVector<Value> incoming;
  for (auto [i, v] : llvm::enumerate(getOperand()))
    if (isFloatTensor(v) && resultCotangents[i]) {
      floats.push_back(i);
      incoming.push_back(resultCotangents[i]);
    }
  if (floats.empty())
    return success();
  int64_t dim = getDimension();
  Value perm = sortedPositions(b, loc, getOperand(), dim, getComparator());
  SmallVector<Value> back = unpermute(b, loc, perm, incoming, dim);
  for (auto [i, v] : llvm::zip(floats, back))
    cts[i] = v;
  return success();
}

LogicalResult TopKOp::buildVJP(GradBuilder &gb,
                               ArrayRef<Value> resultCotangents,
                               SmallVectorImpl<Value> &cts) {
  Value x = getOperand();
  if (!isFloatTensor(x) || !resultCotangents[0])
    return success();
  OpBuilder &b = gb.builder();
  Location loc = gb.location();
  auto type = GradBuilder::typeOf(x);
  int64_t dim = type.getRank() - 1, n = type.getShape().back(), k = getK();
  // The whole row in top_k's order (its first k are the results), then the
  // cotangent, zero beyond k, moved back.
  auto dir = getLargest() ? ComparisonDirection::GT : ComparisonDirection::LT;
  Value iota = b.create<IotaOp>(loc, type.clone(b.getI32Type()), dim);
  SortOp order = buildSort(
      b, loc, ValueRange{x, iota}, dim,
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        auto c = b.create<CompareOp>(loc, dir, a[0], a[1]);
        c.setTotalOrder(true);
        return c;
      });
  SmallVector<int64_t> low(type.getRank(), 0), high(type.getRank(), 0),
      interior(type.getRank(), 0);
  high[dim] = n - k;
  Value padded = gb.padZeros(resultCotangents[0], low, high, interior);
  cts[0] = unpermute(b, loc, order.getResult(1), ValueRange{padded}, dim)[0];
  return success();
}

} // namespace mlir::torus
