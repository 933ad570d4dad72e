//===- ConvertToTorus.cpp - stablehlo and chlo to torus -------------------===//
//
// The driver of the conversion (Passes.td: torus-convert-stablehlo), the
// module's device counts, and the generic pattern: a stablehlo op without
// regions whose HLO opcode (its mnemonic with `-` for `_`) names exactly one
// torus op through HloOpInterface, and whose attributes that torus op
// declares under the same names, becomes that torus op with the same
// operands, result types and attributes. So `stablehlo.add`,
// `stablehlo.slice`, `stablehlo.pad`, ... need no code of their own; the
// other ops have patterns in the family files.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ConvertToTorus.h"

#include "ir/Sharding.h"
#include "ir/hlo/HloOpInfo.h"
#include "ir/stablehlo/ChloOps.h"
#include "ir/stablehlo/SdyOps.h"
#include "ir/stablehlo/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::torus::stablehlo {

#define GEN_PASS_DEF_TORUSCONVERTSTABLEHLO
#include "ir/stablehlo/Passes.h.inc"

namespace shlo = ::mlir::stablehlo;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

std::string hloOpcodeOf(Operation *op) {
  std::string opcode = op->getName().stripDialect().str();
  std::replace(opcode.begin(), opcode.end(), '_', '-');
  return opcode;
}

std::optional<ReduceKind> reducerKind(Region &region, bool *isReplace,
                                      unsigned n, unsigned j) {
  if (isReplace)
    *isReplace = false;
  if (!region.hasOneBlock())
    return std::nullopt;
  Block &body = region.front();
  if (body.getNumArguments() != 2 * n)
    return std::nullopt;
  auto ret = dyn_cast<shlo::ReturnOp>(body.getTerminator());
  if (!ret || ret->getNumOperands() != n)
    return std::nullopt;
  Value result = ret->getOperand(j);
  Value lhs = body.getArgument(j), rhs = body.getArgument(j + n);
  if (isReplace && n == 1 && result == rhs) {
    *isReplace = true;
    return std::nullopt;
  }
  Operation *op = result.getDefiningOp();
  if (!op || op->getBlock() != &body || op->getNumOperands() != 2 ||
      op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !isa<shlo::StableHLODialect>(op->getDialect()))
    return std::nullopt;
  if (!((op->getOperand(0) == lhs && op->getOperand(1) == rhs) ||
        (op->getOperand(0) == rhs && op->getOperand(1) == lhs)))
    return std::nullopt;
  // Every op of a single-result body is that op; of a variadic one, the
  // others belong to the other results.
  if (n == 1 && !llvm::hasNItems(body, 2))
    return std::nullopt;
  return llvm::StringSwitch<std::optional<ReduceKind>>(hloOpcodeOf(op))
      .Case("add", ReduceKind::sum)
      .Case("multiply", ReduceKind::product)
      .Case("maximum", ReduceKind::max)
      .Case("minimum", ReduceKind::min)
      .Case("and", ReduceKind::And)
      .Case("or", ReduceKind::Or)
      .Default(std::nullopt);
}

Value convertElementType(OpBuilder &b, Location loc, Value operand,
                         Type elementType) {
  auto type = cast<RankedTensorType>(operand.getType());
  if (type.getElementType() == elementType)
    return operand;
  return b.create<ConvertOp>(loc, type.clone(elementType), operand);
}

//===----------------------------------------------------------------------===//
// The generic pattern
//===----------------------------------------------------------------------===//

namespace {

/// Also the last resort: a stablehlo op that neither this nor a pattern of
/// its own (`handled`) converts is an error naming it; ops with their own
/// pattern say why they were rejected.
struct GenericOpPattern : ConversionPattern {
  GenericOpPattern(MLIRContext *ctx, llvm::DenseSet<OperationName> handled)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/0, ctx),
        handled_(std::move(handled)) {
    // The torus ops by HLO opcode, from the registered ops.
    for (RegisteredOperationName name : ctx->getRegisteredOperations())
      if (name.getDialectNamespace() == TorusDialect::getDialectNamespace())
        if (StringRef opcode = hlo::hloOpcode(name); !opcode.empty())
          table_[opcode].push_back(name);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<shlo::StableHLODialect>(op->getDialect()))
      return failure();
    auto noEquivalent = [&]() -> LogicalResult {
      if (handled_.contains(op->getName()))
        return failure();
      return op->emitError() << "'" << op->getName()
                             << "' has no torus equivalent yet";
    };
    if (op->getNumRegions() != 0 || op->getNumResults() != 1)
      return noEquivalent();
    auto it = table_.find(hloOpcodeOf(op));
    if (it == table_.end() || it->second.size() != 1)
      return noEquivalent();
    RegisteredOperationName name = it->second.front();
    ArrayRef<StringAttr> known = name.getAttributeNames();
    for (NamedAttribute attr : op->getAttrs())
      if (!llvm::is_contained(known, attr.getName()))
        return noEquivalent();
    OperationState state(op->getLoc(), name);
    state.addOperands(operands);
    state.addTypes(op->getResultTypes());
    state.addAttributes(op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }

private:
  llvm::StringMap<SmallVector<RegisteredOperationName, 1>> table_;
  llvm::DenseSet<OperationName> handled_;
};



/// The module's device counts: `mhlo.num_replicas` and
/// `mhlo.num_partitions` become torus's.
void convertDeviceCounts(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  for (auto [from, to] : {std::pair<StringRef, StringRef>{
                              "mhlo.num_replicas", kNumReplicasAttrName},
                          {"mhlo.num_partitions", kNumPartitionsAttrName}}) {
    auto attr = module->getAttrOfType<IntegerAttr>(from);
    if (!attr)
      continue;
    module->setAttr(to, IntegerAttr::get(IntegerType::get(ctx, 64),
                                         attr.getValue().getSExtValue()));
    module->removeAttr(from);
  }
}

/// Calls inside the computations of reduce, reduce_window, sort, scatter
/// and select_and_scatter become their callees' bodies, as the HLO importer
/// inlines them: those regions are scalar code without calls (JAX's
/// cumulative logsumexp calls its logaddexp from its reducer).
LogicalResult inlineCallsInComputations(ModuleOp module) {
  SymbolTable symbols(module);
  auto inComputation = [](Operation *op) {
    for (Operation *p = op->getParentOp(); p && !isa<func::FuncOp>(p);
         p = p->getParentOp())
      if (isa<shlo::ReduceOp, shlo::ReduceWindowOp, shlo::SortOp,
              shlo::SelectAndScatterOp, shlo::ScatterOp>(p))
        return true;
    return false;
  };
  // Each round inlines one level of calls; a callee may call further.
  for (int round = 0;; ++round) {
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (inComputation(call))
        calls.push_back(call);
    });
    if (calls.empty())
      return success();
    if (round == 64)
      return calls.front().emitError()
             << "calls inside a reducer or comparator nest more than 64 "
                "deep (recursion?)";
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
        return call.emitError() << "cannot inline '" << call.getCallee()
                                << "' into a reducer or comparator: it needs "
                                   "a body of one block";
      Block &body = callee.getBody().front();
      IRMapping map;
      map.map(body.getArguments(), call.getOperands());
      OpBuilder b(call);
      for (Operation &op : body.without_terminator())
        b.clone(op, map);
      SmallVector<Value> results;
      for (Value v : body.getTerminator()->getOperands())
        results.push_back(map.lookupOrDefault(v));
      call.replaceAllUsesWith(results);
      call.erase();
    }
  }
}

} // namespace

LogicalResult convertStablehloToTorus(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<TorusDialect>();
  ctx->getOrLoadDialect<func::FuncDialect>();
  convertDeviceCounts(module);
  FailureOr<bool> perDevice = inlineManualComputations(module);
  if (failed(perDevice) || failed(inlineCallsInComputations(module)) ||
      failed(convertFunctionShardings(module)))
    return failure();
  RewritePatternSet patterns(ctx);
  populateElementwisePatterns(patterns);
  populateShapePatterns(patterns);
  populateReductionPatterns(patterns);
  populateContractionPatterns(patterns);
  populateIndexingPatterns(patterns);
  populateControlFlowPatterns(patterns);
  populateChloPatterns(patterns);
  populateShardingPatterns(patterns);
  populateCollectivePatterns(patterns);
  llvm::DenseSet<OperationName> handled;
  for (const auto &pattern : patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      handled.insert(*root);
  patterns.add<GenericOpPattern>(ctx, std::move(handled));
  ConversionTarget target(*ctx);
  target.addLegalDialect<TorusDialect, func::FuncDialect>();
  target.addIllegalDialect<shlo::StableHLODialect, ::mlir::chlo::CHLODialect,
                           ::mlir::sdy::SdyDialect>();
  target.addLegalOp<::mlir::sdy::MeshOp>(); // erased once converted
  target.addIllegalOp<func::CallOp>();
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return failure();
  eraseMeshes(module);
  if (*perDevice)
    runPerDevice(module);
  return success();
}

namespace {
struct ConvertStablehloPass
    : impl::TorusConvertStablehloBase<ConvertStablehloPass> {
  void runOnOperation() override {
    if (failed(convertStablehloToTorus(getOperation())))
      signalPassFailure();
  }
};
} // namespace

} // namespace mlir::torus::stablehlo
