//===- ConvertCollective.cpp - stablehlo collectives ----------------------===//
//
// all_reduce, all_gather, reduce_scatter, all_to_all and
// collective_permute. Torus collectives name logical devices
// d = replica * P + partition (docs/hlo.md, "Replica groups"), so the
// groups are expanded from StableHLO's modes as the HLO importer expands
// XLA's (spec: "cross_replica", "cross_partition",
// "cross_replica_and_partition", "flattened_ids"), with R and P the
// module's torus.num_replicas and torus.num_partitions:
//
//   channel_handle <= 0                        cross-replica: per partition
//   > 0 (all_to_all, collective_permute)       cross-partition: per replica
//   > 0 (all_reduce, all_gather, reduce_scatter) replicas with all partitions
//   > 0 and use_global_device_ids              flattened ids, as written
//
// Reducer regions become the kind (reducerKind); variadic all_reduce and
// all_gather become one op per operand.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/ops/HloForms.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

using Groups = DeviceGroups;

using Mode = CollectiveGroupMode;

/// The module's device counts (1 when absent).
std::pair<int64_t, int64_t> deviceCounts(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto get = [&](StringRef name) -> int64_t {
    auto attr = module ? module->getAttrOfType<IntegerAttr>(name) : nullptr;
    return attr ? attr.getInt() : 1;
  };
  return {get(kNumReplicasAttrName), get(kNumPartitionsAttrName)};
}

bool hasChannel(shlo::ChannelHandleAttr handle) {
  return handle && handle.getHandle() > 0;
}

FailureOr<Groups> readGroups(Operation *op, DenseIntElementsAttr attr) {
  Groups groups;
  auto type = cast<RankedTensorType>(attr.getType());
  if (type.getRank() != 2)
    return op->emitError("replica_groups must be a 2-d tensor");
  int64_t width = type.getDimSize(1);
  SmallVector<int64_t> flat(attr.getValues<int64_t>());
  for (int64_t g = 0; g < type.getDimSize(0); ++g) {
    SmallVector<int64_t> group(flat.begin() + g * width,
                               flat.begin() + (g + 1) * width);
    if (llvm::is_contained(group, -1))
      return op->emitError("replica groups of different sizes are not "
                           "supported");
    if (!group.empty())
      groups.push_back(group);
  }
  return groups;
}

/// `groups` in `mode` as torus device groups.
FailureOr<DenseIntElementsAttr> deviceGroups(Operation *op, Groups groups,
                                             Mode mode) {
  auto [r, p] = deviceCounts(op);
  auto devices = deviceGroupsOf(
      groups, mode, r, p, [&](int64_t id, StringRef what, int64_t limit) {
        op->emitError() << "replica_groups name " << what << " " << id
                        << ", but the module has " << limit << " " << what
                        << (limit == 1 ? "" : "s");
      });
  if (failed(devices))
    return failure();
  const DeviceGroups &out = *devices;
  if (out.empty())
    return DenseIntElementsAttr();
  SmallVector<int64_t> flat;
  for (const auto &g : out)
    flat.append(g.begin(), g.end());
  auto type = RankedTensorType::get(
      {static_cast<int64_t>(out.size()), static_cast<int64_t>(out[0].size())},
      IntegerType::get(op->getContext(), 64));
  return DenseIntElementsAttr::get(type, flat);
}

/// The groups of an op with use_global_device_ids (all_reduce,
/// all_gather, reduce_scatter).
template <typename OpTy>
FailureOr<DenseIntElementsAttr> globalCapableGroups(OpTy op) {
  auto groups = readGroups(op, op.getReplicaGroups());
  if (failed(groups))
    return failure();
  bool channel = hasChannel(op.getChannelHandleAttr());
  if (op.getUseGlobalDeviceIds() && !channel)
    return op.emitError("use_global_device_ids needs a channel_handle");
  Mode mode = !channel ? Mode::CrossReplica
              : op.getUseGlobalDeviceIds() ? Mode::FlattenedId
                                           : Mode::CrossReplicaAndPartition;
  return deviceGroups(op, *groups, mode);
}

FailureOr<ReduceKind> collectiveKind(Operation *op, Region &region) {
  std::optional<ReduceKind> kind = reducerKind(region);
  if (!kind)
    return op->emitError()
           << "'" << op->getName()
           << "' with this reducer is not supported: torus reads a body that "
              "applies one of add, multiply, maximum, minimum, and, or";
  return *kind;
}

struct AllReducePattern : OpConversionPattern<shlo::AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto groups = globalCapableGroups(op);
    auto kind = succeeded(groups) ? collectiveKind(op, op.getComputation())
                       : FailureOr<ReduceKind>(failure());
    if (failed(groups) || failed(kind))
      return failure();
    SmallVector<Value> results;
    for (auto [x, type] :
         llvm::zip(adaptor.getOperands(), op->getResultTypes()))
      results.push_back(rewriter.create<AllReduceOp>(
          op.getLoc(), type, ReduceKindAttr::get(getContext(), *kind), x,
          *groups));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct AllGatherPattern : OpConversionPattern<shlo::AllGatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::AllGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto groups = globalCapableGroups(op);
    if (failed(groups))
      return failure();
    SmallVector<Value> results;
    for (auto [x, type] :
         llvm::zip(adaptor.getOperands(), op->getResultTypes()))
      results.push_back(rewriter.create<AllGatherOp>(
          op.getLoc(), type, x, op.getAllGatherDimAttr(), *groups));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ReduceScatterPattern : OpConversionPattern<shlo::ReduceScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::ReduceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto groups = globalCapableGroups(op);
    auto kind = succeeded(groups) ? collectiveKind(op, op.getComputation())
                       : FailureOr<ReduceKind>(failure());
    if (failed(groups) || failed(kind))
      return failure();
    rewriter.replaceOpWithNewOp<ReduceScatterOp>(
        op, op->getResult(0).getType(),
        ReduceKindAttr::get(getContext(), *kind), adaptor.getOperand(),
        op.getScatterDimensionAttr(), *groups);
    return success();
  }
};

struct AllToAllPattern : OpConversionPattern<shlo::AllToAllOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::AllToAllOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getOperands().size() != 1)
      return op.emitError("'stablehlo.all_to_all' of several operands is "
                          "not supported");
    auto groups = readGroups(op, op.getReplicaGroups());
    if (failed(groups))
      return failure();
    auto devices = deviceGroups(op, *groups,
                                hasChannel(op.getChannelHandleAttr())
                                    ? Mode::CrossPartition
                                    : Mode::CrossReplica);
    if (failed(devices))
      return failure();
    rewriter.replaceOpWithNewOp<AllToAllOp>(
        op, op->getResult(0).getType(), adaptor.getOperands()[0],
        op.getSplitDimensionAttr(), op.getConcatDimensionAttr(),
        op.getSplitCountAttr(), *devices);
    return success();
  }
};

struct CollectivePermutePattern
    : OpConversionPattern<shlo::CollectivePermuteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::CollectivePermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [r, p] = deviceCounts(op);
    bool channel = hasChannel(op.getChannelHandleAttr());
    SmallVector<int64_t> flat(op.getSourceTargetPairs().getValues<int64_t>());
    if (flat.size() % 2)
      return op.emitError("source_target_pairs must be [n, 2]");
    SmallVector<int64_t> expanded;
    if (p == 1 && !channel) {
      expanded = flat;
    } else {
      // Cross-replica pairs are per partition, cross-partition (with a
      // channel) per replica.
      int64_t limit = channel ? p : r, outer = channel ? r : p;
      for (int64_t id : flat)
        if (id < 0 || id >= limit)
          return op.emitError()
                 << "source_target_pairs name "
                 << (channel ? "partition" : "replica") << " " << id
                 << ", but the module has " << limit;
      for (int64_t k = 0; k < outer; ++k)
        for (size_t i = 0; i < flat.size(); ++i)
          expanded.push_back(channel ? k * p + flat[i] : flat[i] * p + k);
    }
    auto type = RankedTensorType::get(
        {static_cast<int64_t>(expanded.size() / 2), 2},
        rewriter.getI64Type());
    rewriter.replaceOpWithNewOp<CollectivePermuteOp>(
        op, op->getResult(0).getType(), adaptor.getOperand(),
        DenseIntElementsAttr::get(type, expanded));
    return success();
  }
};

} // namespace

void populateCollectivePatterns(RewritePatternSet &patterns) {
  patterns.add<AllReducePattern, AllGatherPattern, ReduceScatterPattern,
               AllToAllPattern, CollectivePermutePattern>(
      patterns.getContext(), /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
