//===- ControlFlowOps.cpp - while, if, case, call -------------------------===//

#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::torus;

namespace {
/// Checks that the torus.return ending `region` returns `types`; `what`
/// names the region in the message.
LogicalResult checkReturn(Operation *op, Region &region, TypeRange types,
                          StringRef what) {
  auto ret = dyn_cast<ReturnOp>(region.front().getTerminator());
  if (!ret)
    return op->emitOpError() << what << " must end in torus.return";
  if (ret.getResults().getTypes() != types) {
    std::string got, want;
    llvm::raw_string_ostream g(got), w(want);
    llvm::interleaveComma(ret.getResults().getTypes(), g);
    llvm::interleaveComma(types, w);
    return op->emitOpError() << what << " returns (" << got
                             << ") but must return (" << want << ")";
  }
  return success();
}

/// Checks that `region` takes no block arguments.
LogicalResult checkNoArguments(Operation *op, Region &region, StringRef what) {
  if (region.front().getNumArguments() == 0)
    return success();
  return op->emitOpError() << what << " takes no arguments, it has "
                           << region.front().getNumArguments();
}
} // namespace

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

// torus.while(%a = %x, %b = %y) : tensor<f32>, tensor<4xf32> cond {...} do {...}
ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  if (parser.parseAssignmentList(regionArgs, operands) ||
      parser.parseColon())
    return failure();
  if (!regionArgs.empty() && parser.parseTypeList(types))
    return failure();
  if (types.size() != operands.size())
    return parser.emitError(parser.getCurrentLocation())
           << "expected " << operands.size() << " types, got " << types.size();
  for (auto [arg, type] : llvm::zip(regionArgs, types))
    arg.type = type;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  result.addTypes(types);
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, regionArgs) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, regionArgs) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  p << '(';
  Block &cond = getCond().front();
  llvm::interleaveComma(llvm::zip(cond.getArguments(), getOperand()), p,
                        [&](auto pair) {
                          p << std::get<0>(pair) << " = " << std::get<1>(pair);
                        });
  p << ") : ";
  llvm::interleaveComma(getOperand().getTypes(), p);
  p << " cond ";
  p.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  p << " do ";
  // The body names its arguments like the condition's.
  p.shadowRegionArgs(getBody(), cond.getArguments());
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult WhileOp::verify() {
  TypeRange types = getOperand().getTypes();
  if (getResultTypes() != types)
    return emitOpError("result types must be the operand types");
  for (auto [name, region] :
       {std::pair<StringRef, Region *>{"cond", &getCond()},
        {"body", &getBody()}})
    if (region->front().getArgumentTypes() != types)
      return emitOpError() << name
                           << " must take the loop-carried values, of the "
                              "operand types, as arguments";
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(checkReturn(*this, getCond(), TypeRange{pred}, "cond")) ||
      failed(checkReturn(*this, getBody(), types, "body")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// if, case
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verify() {
  for (auto [name, region] :
       {std::pair<StringRef, Region *>{"true_branch", &getTrueBranch()},
        {"false_branch", &getFalseBranch()}})
    if (failed(checkNoArguments(*this, *region, name)) ||
        failed(checkReturn(*this, *region, getResultTypes(), name)))
      return failure();
  return success();
}

LogicalResult CaseOp::verify() {
  if (getBranches().empty())
    return emitOpError("needs at least one branch");
  for (auto [i, region] : llvm::enumerate(getBranches())) {
    std::string name = "branch " + std::to_string(i);
    if (failed(checkNoArguments(*this, region, name)) ||
        failed(checkReturn(*this, region, getResultTypes(), name)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(
      *this, getCalleeAttr());
  if (!fn)
    return emitOpError("'") << getCallee()
                            << "' does not name a func.func in this module";
  FunctionType type = fn.getFunctionType();
  if (type.getInputs() != getOperands().getTypes() ||
      type.getResults() != getResultTypes())
    return emitOpError("callee @")
           << getCallee() << " has type " << type
           << ", which does not match the call's operands and results";
  return success();
}
