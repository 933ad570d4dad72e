//===- ImportSortOps.cpp - HLO sort, topk, select-and-scatter to torus ----===//
//
// sort (torus.sort) and select-and-scatter (torus.select_and_scatter)
// carry their computations (comparator; select and scatter) as regions:
// the computation is imported into the region on scalars, whatever it
// computes. topk is torus.top_k.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

namespace mlir::torus::hlo {

LogicalResult Importer::scalarComputation(const Instruction &instr,
                                          llvm::StringRef attrName,
                                          Region &region,
                                          llvm::ArrayRef<PrimitiveType> params,
                                          llvm::ArrayRef<PrimitiveType> results) {
  const Attr *attr = requireAttr(instr, attrName);
  if (!attr)
    return failure();
  const Computation *comp = computationRef(*attr);
  if (!comp)
    return failure();
  Location loc = opLoc(instr);
  // The parameters: scalars of the given types.
  std::vector<Shape> shapes(params.size());
  llvm::SmallVector<Type> types;
  for (auto [shape, type] : llvm::zip(shapes, params)) {
    shape.type = type;
    types.push_back(tensorType(ctx_, shape));
  }
  OpBuilder::InsertionGuard guard(b_);
  Block *block = b_.createBlock(&region, {}, types,
                                llvm::SmallVector<Location>(types.size(), loc));
  std::vector<HloValue> values(params.size());
  for (auto [i, v] : llvm::enumerate(values)) {
    v.shape = &shapes[i];
    v.leaves.push_back(block->getArgument(i));
  }
  ++scalarComputationDepth_;
  auto value = emitComputation(*comp, values);
  --scalarComputationDepth_;
  if (failed(value))
    return failure();
  const Instruction &root = comp->instructions[comp->root];
  // What it must return: one scalar, or a tuple of scalars.
  Shape expected;
  if (results.size() == 1) {
    expected.type = results[0];
  } else {
    expected.isTuple = true;
    for (PrimitiveType t : results) {
      expected.elements.emplace_back();
      expected.elements.back().type = t;
    }
  }
  if (!value->shape->sameAs(expected)) {
    error(root.shape.loc) << "the " << attrName << " computation '"
                          << comp->name << "' of '" << instr.opcode
                          << "' returns " << shapeText(*value->shape)
                          << ", not " << shapeText(expected);
    return failure();
  }
  b_.create<ReturnOp>(locator_.location(root.nameLoc), value->leaves);
  return success();
}

LogicalResult Importer::emitSort(const Instruction &instr, Operands operands,
                                 HloValue &result) {
  if (operands.empty()) {
    error(instr.opcodeLoc) << "'sort' needs at least one operand";
    return failure();
  }
  llvm::SmallVector<Value> xs;
  llvm::SmallVector<PrimitiveType> params;
  for (size_t i = 0; i < operands.size(); ++i) {
    auto x = array(instr, operands, i);
    if (failed(x))
      return failure();
    xs.push_back(*x);
    params.append(2, operands[i]->shape->type);
  }
  auto dims = listAttr(instr, "dimensions", true);
  auto stable = boolAttr(instr, "is_stable");
  if (failed(dims) || failed(stable))
    return failure();
  if (dims->size() != 1) {
    error(instr.attr("dimensions")->valueLoc)
        << "'sort' sorts along one dimension, not " << dims->size();
    return failure();
  }
  // The result: the operands' shapes, a tuple for several.
  llvm::SmallVector<const Shape *> leaves;
  instr.shape.leaves(leaves);
  llvm::SmallVector<Type> types;
  for (const Shape *s : leaves)
    types.push_back(tensorType(ctx_, *s));
  auto sort = b_.create<SortOp>(opLoc(instr), types, xs,
                                b_.getI64IntegerAttr((*dims)[0]),
                                b_.getBoolAttr(*stable));
  if (failed(scalarComputation(instr, "to_apply", sort.getComparator(), params,
                               PrimitiveType::Pred)))
    return failure();
  result.leaves.assign(sort.getResults().begin(), sort.getResults().end());
  return success();
}

LogicalResult Importer::emitTopK(const Instruction &instr, Operands operands,
                                 HloValue &result) {
  if (failed(checkOperandCount(instr, 1, operands.size())))
    return failure();
  auto x = array(instr, operands, 0);
  auto k = intAttr(instr, "k");
  if (failed(x) || failed(k))
    return failure();
  bool largest = true;
  if (instr.attr("largest")) {
    auto l = boolAttr(instr, "largest");
    if (failed(l))
      return failure();
    largest = *l;
  }
  llvm::SmallVector<const Shape *> leaves;
  instr.shape.leaves(leaves);
  if (!instr.shape.isTuple || leaves.size() != 2) {
    error(instr.shape.loc) << "'topk' produces a (values, indices) tuple, not "
                           << shapeText(instr.shape);
    return failure();
  }
  auto op = b_.create<TopKOp>(opLoc(instr), tensorType(ctx_, *leaves[0]),
                              tensorType(ctx_, *leaves[1]), *x,
                              b_.getI64IntegerAttr(*k),
                              b_.getBoolAttr(largest));
  result.leaves.assign(op->getResults().begin(), op->getResults().end());
  return success();
}

LogicalResult Importer::emitSelectAndScatter(const Instruction &instr,
                                             Operands operands,
                                             HloValue &result) {
  if (failed(checkOperandCount(instr, 3, operands.size())))
    return failure();
  auto x = array(instr, operands, 0), source = array(instr, operands, 1),
       init = array(instr, operands, 2);
  auto type = resultType(instr);
  if (failed(x) || failed(source) || failed(init) || failed(type))
    return failure();
  auto window = windowOf(instr, type->getRank());
  if (failed(window))
    return failure();
  for (const WindowDim &d : *window) {
    if (d.reversal || d.lhsDilate != 1 || d.rhsDilate != 1) {
      error(instr.attr("window")->valueLoc)
          << "'select-and-scatter' takes no dilations or reversal in its "
             "window";
      return failure();
    }
  }
  WindowAttrs w = windowAttrs(b_, *window);
  auto op = b_.create<SelectAndScatterOp>(opLoc(instr), *type, *x, *source,
                                          *init, w.size, w.strides, w.padding);
  PrimitiveType et = operands[0]->shape->type;
  if (failed(scalarComputation(instr, "select", op.getSelect(), {et, et},
                               PrimitiveType::Pred)) ||
      failed(scalarComputation(instr, "scatter", op.getScatter(), {et, et},
                               et)))
    return failure();
  result.leaves.push_back(op.getResult());
  return success();
}

} // namespace mlir::torus::hlo
