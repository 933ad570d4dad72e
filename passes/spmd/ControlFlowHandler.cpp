//===- ControlFlowHandler.cpp - Loops, conditionals and calls -------------===//
//
// A while loop or conditional is rebuilt with local types, its regions
// partitioned op by op and their yields resharded to the results'
// shardings (a maximal loop state is kept on every device). Calls must be
// inlined first (sharding propagation does it).
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

/// Partitions `src` into the empty block `dst` (whose arguments are
/// already mapped); its terminator's operands are resharded to `yield`.
void Partitioner::partitionRegionBlock(Block &src, Block &dst,
                                       ArrayRef<ShardingAttr> yield) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&dst);
  for (Operation &op : src.without_terminator())
    partitionOp(&op);
  Operation *term = src.getTerminator();
  SmallVector<Value> operands;
  for (auto [i, v] : llvm::enumerate(term->getOperands()))
    operands.push_back(reshardOperand(term->getLoc(), v, yield[i]));
  b.create<ReturnOp>(term->getLoc(), operands);
}

void Partitioner::partitionControlFlow(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<ShardingAttr> shardings;
  SmallVector<Type> types;
  for (unsigned r = 0; r < op->getNumResults(); ++r) {
    ShardingAttr s = resultSharding(op, r);
    if (s.isMaximal())
      s = replicated(); // Loop state on one device: keep it everywhere.
    shardings.push_back(s);
    types.push_back(localType(tensorTypeOf(op->getResult(r)), s));
  }
  if (auto w = dyn_cast<WhileOp>(op)) {
    SmallVector<Value> operands;
    for (unsigned i = 0; i < w->getNumOperands(); ++i)
      operands.push_back(reshardOperand(loc, w->getOperand(i), shardings[i]));
    auto nw = b.create<WhileOp>(loc, types, operands);
    for (Region *region : {&nw.getCond(), &nw.getBody()}) {
      Block *block = new Block();
      region->push_back(block);
      for (Type t : types)
        block->addArgument(t, loc);
    }
    for (unsigned i = 0; i < types.size(); ++i) {
      values[w.getCond().front().getArgument(i)] = {
          nw.getCond().front().getArgument(i), shardings[i]};
      values[w.getBody().front().getArgument(i)] = {
          nw.getBody().front().getArgument(i), shardings[i]};
    }
    partitionRegionBlock(w.getCond().front(), nw.getCond().front(),
                         {replicated()});
    partitionRegionBlock(w.getBody().front(), nw.getBody().front(), shardings);
    for (unsigned r = 0; r < op->getNumResults(); ++r)
      setResult(op, r, nw->getResult(r), shardings[r]);
    return;
  }
  Value selector = reshardOperand(loc, op->getOperand(0), replicated());
  Operation *nop;
  if (isa<IfOp>(op))
    nop = b.create<IfOp>(loc, types, selector);
  else
    nop = b.create<CaseOp>(loc, types, selector, op->getNumRegions());
  for (auto [src, dst] : llvm::zip(op->getRegions(), nop->getRegions())) {
    dst.push_back(new Block());
    partitionRegionBlock(src.front(), dst.front(), shardings);
  }
  for (unsigned r = 0; r < op->getNumResults(); ++r)
    setResult(op, r, nop->getResult(r), shardings[r]);
}

void Partitioner::partitionCall(CallOp op) {
  fail(op->getLoc()) << "torus.call must be inlined before partitioning "
                        "(run --torus-sharding-propagation first)";
}

void registerControlFlowHandlers(HandlerTable &table) {
  table.add<WhileOp, IfOp, CaseOp>(&Partitioner::partitionControlFlow,
                                   /*anySharding=*/true);
  table.add<CallOp>(&Partitioner::partitionCall, /*anySharding=*/true);
}

} // namespace mlir::torus::spmd
