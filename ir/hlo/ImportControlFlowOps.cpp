//===- ImportControlFlowOps.cpp - HLO calls and control flow to torus -----===//
//
// call (a private function; inlined in scalar computations), fusion (inlined), while (torus.while) and
// conditional (torus.if with a pred selector, torus.case with an s32 one).
// The computations they name are imported where they are used.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::torus::hlo {

const Computation *Importer::calledComputation(const Instruction &instr,
                                               llvm::StringRef attrName) {
  const Attr *ref = requireAttr(instr, attrName);
  if (!ref)
    return nullptr;
  const Computation *callee = computationRef(*ref);
  if (!callee)
    return nullptr;
  const Shape &rootShape = callee->instructions[callee->root].shape;
  if (!rootShape.sameAs(instr.shape)) {
    error(instr.shape.loc) << "'" << instr.opcode << "' of '" << callee->name
                           << "' produces " << shapeText(rootShape) << ", not "
                           << shapeText(instr.shape);
    return nullptr;
  }
  return callee;
}

LogicalResult Importer::emitFusion(const Instruction &instr, Operands operands,
                                   HloValue &result) {
  const Computation *callee = calledComputation(instr, "calls");
  if (!callee)
    return failure();
  // A fusion is an optimisation boundary only: its body is inlined.
  return emitInlined(*callee, operands, result);
}

LogicalResult Importer::emitInlined(const Computation &callee,
                                    Operands operands, HloValue &result) {
  std::vector<HloValue> params;
  for (const HloValue *v : operands)
    params.push_back(*v);
  auto value = emitComputation(callee, params);
  if (failed(value))
    return failure();
  result.leaves = value->leaves;
  return success();
}

LogicalResult Importer::emitCall(const Instruction &instr, Operands operands,
                                 HloValue &result) {
  const Computation *callee = calledComputation(instr, "to_apply");
  if (!callee)
    return failure();
  // A scalar computation (a reducer, a comparator) is code on scalars
  // without calls: the callee is inlined.
  if (scalarComputationDepth_ > 0)
    return emitInlined(*callee, operands, result);
  auto fn = emitFunction(*callee, /*isEntry=*/false);
  if (failed(fn))
    return failure();
  llvm::SmallVector<Value> args;
  for (const HloValue *v : operands)
    args.append(v->leaves);
  if (TypeRange(fn->getFunctionType().getInputs()) !=
      ValueRange(args).getTypes()) {
    error(instr.opcodeLoc) << "the operands of 'call' do not match the "
                              "parameters of '"
                           << callee->name << "'";
    return failure();
  }
  auto call = b_.create<CallOp>(
      opLoc(instr), fn->getFunctionType().getResults(), fn->getSymName(), args);
  result.leaves.append(call.getResults().begin(), call.getResults().end());
  return success();
}

LogicalResult Importer::emitWhile(const Instruction &instr, Operands operands,
                                  HloValue &result) {
  if (failed(checkOperandCount(instr, 1, operands.size())))
    return failure();
  const Attr *condAttr = requireAttr(instr, "condition");
  const Attr *bodyAttr = condAttr ? requireAttr(instr, "body") : nullptr;
  if (!condAttr || !bodyAttr)
    return failure();
  const Computation *cond = computationRef(*condAttr);
  const Computation *body = cond ? computationRef(*bodyAttr) : nullptr;
  if (!cond || !body)
    return failure();
  const HloValue &init = *operands[0];
  if (!init.shape->sameAs(instr.shape)) {
    error(instr.shape.loc) << "'while' over " << shapeText(*init.shape)
                           << " must produce the same shape, not "
                           << shapeText(instr.shape);
    return failure();
  }
  Location loc = opLoc(instr);
  llvm::SmallVector<Type> types(ValueRange(init.leaves).getTypes());
  auto loop = b_.create<WhileOp>(loc, types, init.leaves);
  llvm::SmallVector<Location> locs(types.size(), loc);
  for (auto [region, comp, isCond] :
       {std::tuple{&loop.getCond(), cond, true},
        std::tuple{&loop.getBody(), body, false}}) {
    OpBuilder::InsertionGuard guard(b_);
    Block *block = b_.createBlock(region, {}, types, locs);
    HloValue param;
    param.shape = init.shape;
    param.leaves.assign(block->getArguments().begin(),
                        block->getArguments().end());
    auto value = emitComputation(*comp, {param});
    if (failed(value))
      return failure();
    const Instruction &root = comp->instructions[comp->root];
    if (isCond ? !(value->shape->isScalar() &&
                   value->shape->type == PrimitiveType::Pred)
               : !value->shape->sameAs(*init.shape)) {
      error(root.shape.loc)
          << "the " << (isCond ? "condition" : "body") << " '" << comp->name
          << "' of 'while' returns " << shapeText(*value->shape) << ", not "
          << (isCond ? std::string("pred[]") : shapeText(*init.shape));
      return failure();
    }
    b_.create<ReturnOp>(locator_.location(root.nameLoc), value->leaves);
  }
  result.leaves.assign(loop.getResults().begin(), loop.getResults().end());
  return success();
}

LogicalResult Importer::emitConditional(const Instruction &instr,
                                        Operands operands, HloValue &result) {
  llvm::SmallVector<const Computation *> branches;
  if (const Attr *list = instr.attr("branch_computations")) {
    llvm::SmallVector<llvm::StringRef> names;
    if (failed(AttrParser(*list, locator_).computations(names)))
      return failure();
    for (llvm::StringRef name : names) {
      auto it = ast_.byName.find(name);
      if (it == ast_.byName.end()) {
        error(list->valueLoc) << "unknown computation '" << name << "'";
        return failure();
      }
      branches.push_back(&ast_.computations[it->second]);
    }
  } else {
    const Attr *t = requireAttr(instr, "true_computation");
    const Attr *f = t ? requireAttr(instr, "false_computation") : nullptr;
    if (!t || !f)
      return failure();
    const Computation *tc = computationRef(*t);
    const Computation *fc = tc ? computationRef(*f) : nullptr;
    if (!tc || !fc)
      return failure();
    branches = {tc, fc};
  }
  if (branches.empty()) {
    error(instr.opcodeLoc) << "'conditional' has no branches";
    return failure();
  }
  if (failed(checkOperandCount(instr, branches.size() + 1, operands.size())))
    return failure();
  auto selector = array(instr, operands, 0);
  if (failed(selector))
    return failure();
  const Shape &selShape = *operands[0]->shape;
  bool isPred = selShape.type == PrimitiveType::Pred;
  if (!selShape.isScalar() ||
      !(isPred || selShape.type == PrimitiveType::S32)) {
    error(instr.operands[0].loc) << "the selector of 'conditional' must be "
                                    "pred[] or s32[], not "
                                 << shapeText(selShape);
    return failure();
  }
  if (isPred && instr.attr("branch_computations") && branches.size() != 2) {
    error(instr.operands[0].loc) << "a pred selector needs two branches";
    return failure();
  }
  Location loc = opLoc(instr);
  llvm::SmallVector<const Shape *> leaves;
  instr.shape.leaves(leaves);
  llvm::SmallVector<Type> types;
  for (const Shape *leaf : leaves)
    types.push_back(tensorType(ctx_, *leaf));
  Operation *cond;
  llvm::SmallVector<Region *> regions;
  if (isPred) {
    auto ifOp = b_.create<IfOp>(loc, types, *selector);
    regions = {&ifOp.getTrueBranch(), &ifOp.getFalseBranch()};
    cond = ifOp;
  } else {
    auto caseOp = b_.create<CaseOp>(loc, types, *selector,
                                    static_cast<unsigned>(branches.size()));
    for (Region &r : caseOp.getBranches())
      regions.push_back(&r);
    cond = caseOp;
  }
  for (size_t k = 0; k < branches.size(); ++k) {
    OpBuilder::InsertionGuard guard(b_);
    b_.createBlock(regions[k]);
    // Branch computations take their operand as parameter; the torus
    // regions read it from above instead.
    auto value = emitComputation(*branches[k], {*operands[k + 1]});
    if (failed(value))
      return failure();
    const Instruction &root = branches[k]->instructions[branches[k]->root];
    if (!value->shape->sameAs(instr.shape)) {
      error(root.shape.loc) << "branch '" << branches[k]->name << "' returns "
                            << shapeText(*value->shape) << ", the conditional "
                            << shapeText(instr.shape);
      return failure();
    }
    b_.create<ReturnOp>(locator_.location(root.nameLoc), value->leaves);
  }
  result.leaves.assign(cond->getResults().begin(), cond->getResults().end());
  return success();
}

} // namespace mlir::torus::hlo
