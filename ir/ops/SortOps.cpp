//===- SortOps.cpp - sort, top_k, select_and_scatter ----------------------===//
//
// The ops whose HLO form carries a scalar computation (sort's comparator,
// select-and-scatter's select and scatter) hold it as a region of
// elementwise ops on 0-d tensors; codegen inlines it as scalar code.
//
//===----------------------------------------------------------------------===//

#include "ir/ShardingRuleOpInterface.h"
#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

using namespace mlir;
using namespace mlir::torus;

LogicalResult mlir::torus::verifyScalarComputation(Operation *op,
                                                   Region &region,
                                                   StringRef name,
                                                   ArrayRef<Type> args,
                                                   ArrayRef<Type> results) {
  Block &block = region.front();
  auto scalar = [](Type t) { return RankedTensorType::get({}, t); };
  if (block.getNumArguments() != args.size())
    return op->emitOpError("'")
           << name << "' takes " << args.size() << " scalars, not "
           << block.getNumArguments();
  for (auto [i, arg] : llvm::enumerate(block.getArguments()))
    if (arg.getType() != scalar(args[i]))
      return op->emitOpError("'")
             << name << "' argument " << i << " must be " << scalar(args[i])
             << ", not " << arg.getType();
  for (Operation &inner : block.without_terminator()) {
    bool allScalar = llvm::all_of(inner.getResultTypes(), [](Type t) {
      auto rt = dyn_cast<RankedTensorType>(t);
      return rt && rt.getRank() == 0;
    });
    if (!allScalar || !(isa<ConstantOp>(inner) || isa<ScalarOpInterface>(inner)))
      return op->emitOpError("'")
             << name
             << "' may hold only elementwise ops and constants on scalars, "
                "not '"
             << inner.getName() << "'"
             << (allScalar ? "" : " with a non-scalar result");
  }
  auto ret = dyn_cast<ReturnOp>(block.getTerminator());
  SmallVector<Type> expected;
  for (Type t : results)
    expected.push_back(scalar(t));
  if (!ret || TypeRange(ret.getResults()) != TypeRange(expected)) {
    auto diag = op->emitOpError("'") << name << "' must return ";
    if (expected.size() == 1)
      return diag << "one " << expected[0];
    diag << "(";
    llvm::interleaveComma(expected, diag);
    return diag << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

LogicalResult SortOp::verify() {
  if (getOperand().empty())
    return emitOpError("needs at least one operand");
  auto first = tensorType(getOperand()[0]);
  SmallVector<Type> args;
  for (auto [i, v] : llvm::enumerate(getOperand())) {
    auto t = tensorType(v);
    if (t.getShape() != first.getShape())
      return emitOpError("operands must have one shape: operand ")
             << i << " is " << formatShape(t.getShape()) << ", operand 0 "
             << formatShape(first.getShape());
    if (getResults()[i].getType() != t)
      return emitOpError("result ")
             << i << " must have its operand's type " << t << ", not "
             << getResults()[i].getType();
    args.append({t.getElementType(), t.getElementType()});
  }
  int64_t dim = getDimension();
  if (dim < 0 || dim >= first.getRank())
    return emitOpError("dimension ")
           << dim << " is out of range for rank " << first.getRank();
  return verifyScalarComputation(*this, getComparator(), "comparator", args,
                                 IntegerType::get(getContext(), 1));
}

std::optional<SmallVector<int64_t>> SortOp::getOperandDimMap(unsigned,
                                                             unsigned) {
  // Every operand is permuted like every other along `dimension`.
  int64_t dim = getDimension();
  return identityDimMapKeeping(tensorType(getOperand()[0]).getRank(),
                               [&](int64_t d) { return d != dim; });
}

SmallVector<int64_t> SortOp::getBlockedResultDims(ShardingAttr) {
  return {static_cast<int64_t>(getDimension())};
}

//===----------------------------------------------------------------------===//
// top_k
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::verify() {
  auto in = tensorType(getOperand());
  if (in.getRank() == 0)
    return emitOpError("needs an operand of rank 1 or more");
  int64_t n = in.getShape().back(), k = getK();
  if (k < 0 || k > n)
    return emitOpError("k = ")
           << k << " must be in [0, " << n << "], the last dimension";
  SmallVector<int64_t> shape(in.getShape());
  shape.back() = k;
  if (failed(checkResult(*this, tensorType(getValues()), shape,
                         in.getElementType())))
    return failure();
  auto indices = tensorType(getIndices());
  auto expected = RankedTensorType::get(shape, IntegerType::get(getContext(), 32));
  if (indices != expected)
    return emitOpError("indices must be ")
           << expected << ", not " << indices;
  return success();
}

std::optional<SmallVector<int64_t>> TopKOp::getOperandDimMap(unsigned,
                                                             unsigned) {
  int64_t rank = tensorType(getOperand()).getRank();
  return identityDimMapKeeping(rank,
                               [&](int64_t d) { return d != rank - 1; });
}

SmallVector<int64_t> TopKOp::getBlockedResultDims(ShardingAttr) {
  return {tensorType(getOperand()).getRank() - 1};
}

//===----------------------------------------------------------------------===//
// select_and_scatter
//===----------------------------------------------------------------------===//

SmallVector<int64_t> SelectAndScatterOp::getStrides() {
  if (auto s = getWindowStrides(); s && !s->empty())
    return SmallVector<int64_t>(*s);
  return SmallVector<int64_t>(getWindowDimensions().size(), 1);
}

SmallVector<std::pair<int64_t, int64_t>>
SelectAndScatterOp::getPaddingPairs() {
  auto pairs = paddingPairs(getPaddingAttr());
  if (pairs.empty())
    pairs.assign(getWindowDimensions().size(), {0, 0});
  return pairs;
}

LogicalResult SelectAndScatterOp::verify() {
  auto in = tensorType(getOperand());
  Type et = in.getElementType();
  if (auto padding = getPaddingAttr()) {
    auto t = padding.getShapedType();
    if (t.getRank() != 2 || t.getDimSize(1) != 2)
      return emitOpError("padding must be a [rank, 2] tensor of (low, high) "
                         "pairs, got shape ")
             << formatShape(t.getShape());
  }
  auto init = tensorType(getInitValue());
  if (init.getRank() != 0 || init.getElementType() != et)
    return emitOpError("init_value must be a scalar of the operand's element "
                       "type, ")
           << RankedTensorType::get({}, et) << ", not " << init;
  if (getType() != in)
    return emitOpError("result must have the operand's type ")
           << in << ", not " << getType();
  auto source = tensorType(getSource());
  if (source.getElementType() != et)
    return emitOpError("source must have the operand's element type ")
           << et << ", not " << source.getElementType();
  for (auto [lo, hi] : paddingPairs(getPaddingAttr()))
    if (lo < 0 || hi < 0)
      return emitOpError("padding must not be negative");
  std::string error;
  auto shape = inferReduceWindowShape(
      in.getShape(), getWindowDimensions(),
      getWindowStrides().value_or(ArrayRef<int64_t>()), {}, {},
      paddingPairs(getPaddingAttr()), error);
  if (failed(shape))
    return emitOpError(error);
  if (ArrayRef<int64_t>(*shape) != source.getShape())
    return emitOpError("source must have one element per window, shape ")
           << formatShape(*shape) << ", not " << formatShape(source.getShape());
  if (failed(verifyScalarComputation(*this, getSelect(), "select", {et, et},
                                     IntegerType::get(getContext(), 1))))
    return failure();
  return verifyScalarComputation(*this, getScatter(), "scatter", {et, et}, et);
}

std::optional<SmallVector<int64_t>>
SelectAndScatterOp::getOperandDimMap(unsigned operand, unsigned) {
  if (operand == 2)
    return std::nullopt; // the init value
  // A dimension passes when its windows are its elements one by one.
  SmallVector<int64_t> strides = getStrides();
  auto pads = getPaddingPairs();
  ArrayRef<int64_t> window = getWindowDimensions();
  return identityDimMapKeeping(window.size(), [&](int64_t d) {
    return pads[d].first == 0 && pads[d].second == 0 && window[d] == 1 &&
           strides[d] == 1;
  });
}

SmallVector<int64_t>
SelectAndScatterOp::getBlockedResultDims(ShardingAttr) {
  return unmappedDims(*getOperandDimMap(0, 0));
}
