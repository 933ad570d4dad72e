//===- ComputeCounts.cpp - FLOPs and memory traffic of a program ----------===//

#include "codegen/ComputeCounts.h"
#include "ir/DiagnosticCollector.h"
#include "ir/TorusOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <fmt/format.h>

#include <set>

namespace mlir::torus {

namespace {

double elements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape()
             ? static_cast<double>(shaped.getNumElements())
             : 0.0;
}

double bytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  unsigned bits = shaped.getElementTypeBitWidth();
  return elements(type) * static_cast<double>(std::max(1u, (bits + 7) / 8));
}

bool isHalfWidthFloat(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isBF16() || element.isF16();
}

/// Ops that move no data through HBM and compute nothing.
bool isFree(Operation *op) {
  return isa<ConstantOp, ReplicaIdOp, PartitionIdOp, ReshapeOp, ReturnOp>(op);
}

/// Ops that only move or rearrange data: HBM traffic, no FLOPs.
bool isDataMovement(Operation *op) {
  return isa<BroadcastInDimOp, TransposeOp, SliceOp, DynamicSliceOp,
             DynamicUpdateSliceOp, ConcatenateOp, PadOp, ReverseOp, GatherOp,
             IotaOp>(op);
}

bool isCollective(Operation *op) {
  return isa<AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp,
             CollectivePermuteOp>(op);
}

/// The FLOPs of `op` into `entry` (XLA's HloCostAnalysis rules, see the
/// header).
void countOp(Operation *op, OpCount &entry) {
  if (auto dot = dyn_cast<DotGeneralOp>(op)) {
    auto lhs = cast<ShapedType>(dot->getOperand(0).getType());
    double contracted = 1;
    if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>(
            "lhs_contracting_dimensions"))
      for (int64_t d : dims.asArrayRef())
        contracted *= static_cast<double>(lhs.getDimSize(d));
    double flops = 2 * elements(op->getResult(0).getType()) * contracted;
    (isHalfWidthFloat(lhs) ? entry.bf16Flops : entry.f32Flops) += flops;
    return;
  }
  if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    auto kernel = cast<ShapedType>(op->getOperand(1).getType());
    double window = elements(kernel);
    if (auto numbers = op->getAttrOfType<ConvDimensionNumbersAttr>(
            "dimension_numbers"))
      window /= static_cast<double>(
          kernel.getDimSize(numbers.getKernelOutputFeatureDimension()));
    double flops = 2 * elements(op->getResult(0).getType()) * window;
    (isHalfWidthFloat(kernel) ? entry.bf16Flops : entry.f32Flops) += flops;
    return;
  }
  if (isa<ReduceOp, ReduceWindowOp, ArgMaxOp, ArgMinOp>(op)) {
    entry.f32Flops += elements(op->getOperand(0).getType());
    return;
  }
  if (op->getNumResults() == 1 && op->getNumRegions() == 0 &&
      !isDataMovement(op))
    entry.f32Flops += elements(op->getResult(0).getType());
}

} // namespace

absl::StatusOr<ComputeCounts> countCompute(ModuleOp module) {
  func::FuncOp entry;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal()) {
      entry = fn;
      break;
    }
  if (!entry)
    return absl::InvalidArgumentError(
        "compute counts: the module has no public function with a body");

  ComputeCounts counts;
  std::set<std::string> loopsNoted;
  entry.walk([&](Operation *op) {
    if (op->getDialect() == nullptr ||
        op->getDialect()->getNamespace() != TorusDialect::getDialectNamespace())
      return;
    if (isFree(op) || isCollective(op))
      return;
    if (auto loop = op->getParentOfType<WhileOp>()) {
      std::string where = formatLocation(loop.getLoc());
      if (loopsNoted.insert(where).second) {
        counts.exact = false;
        counts.notes.push_back(fmt::format(
            "{}: the body of the while loop is counted once", where));
      }
    }
    if (isa<IfOp, CaseOp>(op->getParentOp())) {
      std::string where = formatLocation(op->getParentOp()->getLoc());
      if (loopsNoted.insert(where).second) {
        counts.exact = false;
        counts.notes.push_back(fmt::format(
            "{}: every branch is counted", where));
      }
    }
    double traffic = 0;
    for (Value v : op->getOperands())
      traffic += bytes(v.getType());
    for (Value v : op->getResults())
      traffic += bytes(v.getType());
    OpCount entry{op->getName().getStringRef().str(),
                  formatLocation(op->getLoc()), 0, 0, traffic};
    countOp(op, entry);
    counts.hbmBytes += entry.hbmBytes;
    counts.bf16Flops += entry.bf16Flops;
    counts.f32Flops += entry.f32Flops;
    counts.ops.push_back(std::move(entry));
  });
  return counts;
}

} // namespace mlir::torus
