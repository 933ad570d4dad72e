//===- CollectiveOps.cpp - Traced replica ids and collectives -------------===//

#include "ir/trace/TraceOps.h"

namespace torus {

using namespace impl;

Tensor replicaId(Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  return emit<t::ReplicaIdOp>(ctx, loc, typeOf(ctx, DType::I32, {}));
}

Tensor partitionId(Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  return emit<t::PartitionIdOp>(ctx, loc, typeOf(ctx, DType::I32, {}));
}

namespace {
/// Checks `a` for a reducing collective: no i1, no f8 (the runtime's
/// reductions do not compute in them).
bool checkReducible(TraceContext *ctx, const Loc &loc, const char *opName,
                    const Tensor &a) {
  if (a.dtype() == DType::I1) {
    ctx->fail(loc, opName, "cannot reduce an i1 tensor across replicas");
    return false;
  }
  if (isFloat8(a.dtype())) {
    ctx->fail(loc, opName,
              fmt::format("cannot reduce an {} tensor across replicas "
                          "(convert it to bf16 or f32 first)",
                          dtypeName(a.dtype())));
    return false;
  }
  return true;
}

/// The group size of `groups`, or `numReplicas` when there are none.
int64_t groupSize(const ReplicaGroups &groups, int64_t numReplicas) {
  return groups.empty() ? numReplicas
                        : static_cast<int64_t>(groups[0].size());
}
} // namespace

Tensor allReduce(const Tensor &a, ReduceOp op, const ReplicaGroups &groups,
                 Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "all_reduce", {&a}) ||
      !checkReducible(ctx, loc, "all_reduce", a))
    return Tensor();
  auto kind = toReduceKind(ctx, loc, "all_reduce", op);
  auto attr = groupsAttr(ctx, loc, "all_reduce", groups);
  if (!kind || mlir::failed(attr))
    return Tensor();
  return emit<t::AllReduceOp>(ctx, loc, ctx->value(a).getType(), *kind,
                              ctx->value(a), *attr);
}

namespace {
Tensor allGatherImpl(const Tensor &a, int64_t axis, const ReplicaGroups &groups,
                     int64_t numReplicas, const Loc &loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "all_gather", {&a}))
    return Tensor();
  auto ax = normalizeAxis(ctx, loc, "all_gather", a, axis, a.rank());
  auto attr = groupsAttr(ctx, loc, "all_gather", groups);
  if (!ax || mlir::failed(attr))
    return Tensor();
  int64_t size = groupSize(groups, numReplicas);
  if (size < 1)
    return ctx->fail(loc, "all_gather",
                     fmt::format("needs a positive replica count, got {}",
                                 size));
  std::string error;
  auto shape = t::inferAllGatherShape(a.shape(), *ax, size, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "all_gather", error);
  return emit<t::AllGatherOp>(ctx, loc, typeOf(ctx, a.dtype(), toShape(*shape)),
                              ctx->value(a), *ax, *attr);
}

Tensor reduceScatterImpl(const Tensor &a, int64_t axis,
                         const ReplicaGroups &groups, int64_t numReplicas,
                         ReduceOp op, const Loc &loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "reduce_scatter", {&a}) ||
      !checkReducible(ctx, loc, "reduce_scatter", a))
    return Tensor();
  auto kind = toReduceKind(ctx, loc, "reduce_scatter", op);
  auto ax = normalizeAxis(ctx, loc, "reduce_scatter", a, axis, a.rank());
  auto attr = groupsAttr(ctx, loc, "reduce_scatter", groups);
  if (!kind || !ax || mlir::failed(attr))
    return Tensor();
  std::string error;
  auto shape = t::inferReduceScatterShape(
      a.shape(), *ax, groupSize(groups, numReplicas), error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "reduce_scatter", error);
  return emit<t::ReduceScatterOp>(ctx, loc,
                                  typeOf(ctx, a.dtype(), toShape(*shape)),
                                  *kind, ctx->value(a), *ax, *attr);
}
} // namespace

Tensor allGather(const Tensor &a, int64_t axis, const ReplicaGroups &groups,
                 Loc loc) {
  if (groups.empty()) {
    TraceContext *ctx = traceOf({&a});
    return ctx ? ctx->fail(loc, "all_gather",
                           "give the replica groups, or the replica count "
                           "for one group of all replicas")
               : Tensor();
  }
  return allGatherImpl(a, axis, groups, 0, loc);
}
Tensor allGather(const Tensor &a, int64_t axis, int64_t numReplicas,
                 Loc loc) {
  return allGatherImpl(a, axis, {}, numReplicas, loc);
}

Tensor reduceScatter(const Tensor &a, int64_t axis,
                     const ReplicaGroups &groups, ReduceOp op, Loc loc) {
  if (groups.empty()) {
    TraceContext *ctx = traceOf({&a});
    return ctx ? ctx->fail(loc, "reduce_scatter",
                           "give the replica groups, or the replica count "
                           "for one group of all replicas")
               : Tensor();
  }
  return reduceScatterImpl(a, axis, groups, 0, op, loc);
}
Tensor reduceScatter(const Tensor &a, int64_t axis, int64_t numReplicas,
                     ReduceOp op, Loc loc) {
  return reduceScatterImpl(a, axis, {}, numReplicas, op, loc);
}

Tensor allToAll(const Tensor &a, int64_t splitAxis, int64_t concatAxis,
                int64_t splitCount, const ReplicaGroups &groups, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "all_to_all", {&a}))
    return Tensor();
  auto split = normalizeAxis(ctx, loc, "all_to_all", a, splitAxis, a.rank());
  if (!split)
    return Tensor();
  auto concat = normalizeAxis(ctx, loc, "all_to_all", a, concatAxis, a.rank());
  auto attr = groupsAttr(ctx, loc, "all_to_all", groups);
  if (!concat || mlir::failed(attr))
    return Tensor();
  if (!groups.empty() && static_cast<int64_t>(groups[0].size()) != splitCount)
    return ctx->fail(loc, "all_to_all",
                     fmt::format("split_count {} differs from the replica "
                                 "group size {}",
                                 splitCount, groups[0].size()));
  std::string error;
  auto shape = t::inferAllToAllShape(a.shape(), *split, *concat, splitCount,
                                     error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "all_to_all", error);
  return emit<t::AllToAllOp>(ctx, loc, typeOf(ctx, a.dtype(), toShape(*shape)),
                             ctx->value(a), *split, *concat, splitCount,
                             *attr);
}

Tensor collectivePermute(const Tensor &a,
                         const std::vector<std::pair<int64_t, int64_t>> &pairs,
                         Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "collective_permute", {&a}))
    return Tensor();
  std::vector<int64_t> flat;
  for (auto [s, t] : pairs)
    flat.insert(flat.end(), {s, t});
  std::string error;
  if (mlir::failed(t::checkSourceTargetPairs(flat, error)))
    return ctx->fail(loc, "collective_permute", error);
  auto type = mlir::RankedTensorType::get(
      {static_cast<int64_t>(pairs.size()), 2},
      mlir::IntegerType::get(ctx->mlirContext(), 64));
  return emit<t::CollectivePermuteOp>(
      ctx, loc, ctx->value(a).getType(), ctx->value(a),
      mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef(flat)));
}

} // namespace torus
