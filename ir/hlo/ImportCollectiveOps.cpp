//===- ImportCollectiveOps.cpp - HLO collectives and random bits to torus -===//
//
// all-reduce, all-gather, reduce-scatter, all-to-all (array form) and
// collective-permute, with XLA's replica group modes turned into Torus's
// logical device ids (docs/hlo.md, "Replica groups"); and
// rng-bit-generator. replica-id and partition-id are created generically.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"
#include "ir/ops/HloForms.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::torus::hlo {
DenseIntElementsAttr Importer::groupsAttr(const Groups &groups) {
  if (groups.empty())
    return {};
  int64_t width = groups[0].size();
  llvm::SmallVector<int64_t> flat;
  for (const auto &g : groups)
    flat.append(g.begin(), g.end());
  return DenseIntElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(groups.size()), width},
                            b_.getI64Type()),
      flat);
}

FailureOr<Groups> Importer::collectiveGroups(const Instruction &instr,
                                             bool hasGlobalIds) {
  Groups groups;
  const Attr *attr = instr.attr("replica_groups");
  if (attr && failed(AttrParser(*attr, locator_).replicaGroups(groups)))
    return failure();
  llvm::SMLoc at = attr ? attr->valueLoc : instr.opcodeLoc;
  for (const auto &g : groups)
    if (g.size() != groups[0].size() || g.empty()) {
      error(at) << "replica groups of different sizes are not supported";
      return failure();
    }
  auto global = boolAttr(instr, "use_global_device_ids");
  if (failed(global))
    return failure();
  bool channel = instr.attr("channel_id") != nullptr;
  if (*global && !hasGlobalIds) {
    error(instr.attr("use_global_device_ids")->nameLoc)
        << "'" << instr.opcode << "' has no use_global_device_ids";
    return failure();
  }
  if (*global && !channel) {
    error(instr.attr("use_global_device_ids")->nameLoc)
        << "use_global_device_ids needs a channel_id";
    return failure();
  }
  using Mode = CollectiveGroupMode;
  Mode mode = !channel        ? Mode::CrossReplica
              : !hasGlobalIds ? Mode::CrossPartition
              : *global       ? Mode::FlattenedId
                              : Mode::CrossReplicaAndPartition;
  auto devices = deviceGroupsOf(
      DeviceGroups(groups.begin(), groups.end()), mode, replicaCount_,
      numPartitions_, [&](int64_t id, llvm::StringRef what, int64_t limit) {
        error(at) << "'" << instr.opcode << "': replica_groups name " << what
                  << " " << id << ", but the program has " << limit << " "
                  << what << (limit == 1 ? "" : "s") << " (from "
                  << (what == "replica" ? replicasFrom_ : partitionsFrom_)
                  << "); ids must be below " << limit;
      });
  if (failed(devices))
    return failure();
  return Groups(devices->begin(), devices->end());
}

LogicalResult Importer::collectiveOperands(
    const Instruction &instr, Operands operands,
    llvm::SmallVectorImpl<Value> &xs,
    llvm::SmallVectorImpl<const Shape *> &resultShapes) {
  llvm::StringRef op = instr.opcode;
  size_t n = operands.size();
  if (n == 0)
    return checkOperandCount(instr, 1, 0);
  if (const Attr *ch = instr.attr("channel_id")) {
    int64_t id;
    if (failed(AttrParser(*ch, locator_).integer(id)))
      return failure();
  }
  // Tuple forms (`(f32[4], f32[8]) all-reduce(a, b)`) apply the collective
  // to each operand.
  if (n == 1) {
    resultShapes.push_back(&instr.shape);
  } else if (instr.shape.isTuple && instr.shape.elements.size() == n &&
             op != "collective-permute" &&
             (op != "all-to-all" || !instr.attr("dimensions"))) {
    for (const Shape &s : instr.shape.elements)
      resultShapes.push_back(&s);
  } else {
    error(instr.opcodeLoc) << "'" << op << "' of " << n
                           << " operands is not supported";
    return failure();
  }
  for (size_t i = 0; i < n; ++i) {
    auto x = array(instr, operands, i);
    if (failed(x))
      return failure();
    if (resultShapes[i]->isTuple) {
      error(instr.shape.loc) << "'" << op << "' produces arrays, not "
                             << shapeText(*resultShapes[i]);
      return failure();
    }
    xs.push_back(*x);
  }
  return success();
}

LogicalResult Importer::emitDeviceId(const Instruction &instr,
                                     Operands operands, HloValue &result) {
  std::optional<RegisteredOperationName> generic = genericOp(instr.opcode);
  if (!perDevice_ || numPartitions_ == 1 || !generic)
    return generic ? emitGeneric(*generic, instr, operands, result)
                   : failure();
  auto in = arrays(instr, operands, 0);
  if (failed(in))
    return failure();
  result.leaves.push_back(perDeviceId(b_, opLoc(instr), in->type,
                                      instr.opcode == "partition-id",
                                      numPartitions_));
  return success();
}

LogicalResult Importer::emitCollectivePermute(const Instruction &instr,
                                              Operands operands,
                                              HloValue &result) {
  llvm::SmallVector<Value> xs;
  llvm::SmallVector<const Shape *> resultShapes;
  if (failed(collectiveOperands(instr, operands, xs, resultShapes)))
    return failure();
  const Attr *pairsAttr = requireAttr(instr, "source_target_pairs");
  if (!pairsAttr)
    return failure();
  Groups pairs;
  if (failed(AttrParser(*pairsAttr, locator_).intLists(pairs)))
    return failure();
  for (const auto &pr : pairs)
    if (pr.size() != 2) {
      error(pairsAttr->valueLoc)
          << "source_target_pairs must be {source,target} pairs";
      return failure();
    }
  bool channel = instr.attr("channel_id") != nullptr;
  int64_t r = replicaCount_, p = numPartitions_;
  Groups expanded;
  if (p == 1 && !channel) {
    expanded = pairs;
  } else {
    // Cross-replica pairs are per partition, cross-partition (with a
    // channel) per replica; Torus names devices r * P + p.
    int64_t limit = channel ? p : r;
    for (const auto &pr : pairs)
      for (int64_t id : pr)
        if (id < 0 || id >= limit) {
          error(pairsAttr->valueLoc)
              << "source_target_pairs name "
              << (channel ? "partition" : "replica") << " " << id
              << " (ids with a channel_id name partitions, without one "
                 "replicas), but the program has "
              << limit << " " << (channel ? "partition" : "replica")
              << (limit == 1 ? "" : "s") << " (from "
              << (channel ? partitionsFrom_ : replicasFrom_)
              << "); ids must be below " << limit;
          return failure();
        }
    int64_t outer = channel ? r : p;
    for (int64_t k = 0; k < outer; ++k)
      for (const auto &pr : pairs)
        expanded.push_back(
            channel ? llvm::SmallVector<int64_t>{k * p + pr[0], k * p + pr[1]}
                    : llvm::SmallVector<int64_t>{pr[0] * p + k, pr[1] * p + k});
  }
  llvm::SmallVector<int64_t> flat;
  for (const auto &pr : expanded)
    flat.append(pr.begin(), pr.end());
  auto attr = DenseIntElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(expanded.size()), 2},
                            b_.getI64Type()),
      flat);
  result.leaves.push_back(b_.create<CollectivePermuteOp>(
      opLoc(instr), tensorType(ctx_, *resultShapes[0]), xs[0], attr));
  return success();
}

// all-reduce, all-gather, reduce-scatter and all-to-all.
LogicalResult Importer::emitCollective(const Instruction &instr,
                                       Operands operands, HloValue &result) {
  llvm::StringRef op = instr.opcode;
  Location loc = opLoc(instr);
  size_t n = operands.size();
  llvm::SmallVector<Value> xs;
  llvm::SmallVector<const Shape *> resultShapes;
  if (failed(collectiveOperands(instr, operands, xs, resultShapes)))
    return failure();

  bool hasGlobalIds = op != "all-to-all";
  auto groups = collectiveGroups(instr, hasGlobalIds);
  if (failed(groups))
    return failure();
  DenseIntElementsAttr groupAttr = groupsAttr(*groups);

  // The tuple all-to-all (XLA:CPU's optimized HLO): operand j goes to the
  // group's member j, result j comes from member j. Stacked along a new
  // leading dimension, that is the array all-to-all along it.
  if (op == "all-to-all" && n > 1) {
    auto type = cast<RankedTensorType>(xs[0].getType());
    for (size_t i = 0; i < n; ++i)
      if (xs[i].getType() != type ||
          tensorType(ctx_, *resultShapes[i]) != type) {
        error(instr.opcodeLoc) << "the tuple 'all-to-all' needs operands and "
                                  "results of one shape";
        return failure();
      }
    if (!groups->empty() && (*groups)[0].size() != n) {
      error(instr.opcodeLoc)
          << "the tuple 'all-to-all' has " << n << " operands for groups of "
          << (*groups)[0].size() << " devices";
      return failure();
    }
    llvm::SmallVector<int64_t> one = {1}, stackedDims = {int64_t(n)};
    one.append(type.getShape().begin(), type.getShape().end());
    stackedDims.append(type.getShape().begin(), type.getShape().end());
    auto oneType = RankedTensorType::get(one, type.getElementType());
    auto stackedType =
        RankedTensorType::get(stackedDims, type.getElementType());
    llvm::SmallVector<Value> rows;
    for (Value x : xs)
      rows.push_back(b_.create<ReshapeOp>(loc, oneType, x));
    Value stacked = b_.create<ConcatenateOp>(loc, rows, 0);
    Value exchanged = b_.create<AllToAllOp>(
        loc, stackedType, stacked, b_.getI64IntegerAttr(0),
        b_.getI64IntegerAttr(0), b_.getI64IntegerAttr(n), groupAttr);
    for (size_t j = 0; j < n; ++j) {
      llvm::SmallVector<int64_t> start(stackedDims.size(), 0),
          limit(stackedDims), stride(stackedDims.size(), 1);
      start[0] = j;
      limit[0] = j + 1;
      Value row = b_.create<SliceOp>(
          loc, oneType, exchanged, b_.getDenseI64ArrayAttr(start),
          b_.getDenseI64ArrayAttr(limit), b_.getDenseI64ArrayAttr(stride));
      result.leaves.push_back(b_.create<ReshapeOp>(loc, type, row));
    }
    return success();
  }

  std::optional<ReduceKind> kind;
  if (op == "all-reduce" || op == "reduce-scatter") {
    // One reducer for every operand of a tuple form: its parameters are
    // checked against the element type (the results') when they share one.
    llvm::SmallVector<PrimitiveType, 1> accumulators;
    PrimitiveType type = resultShapes[0]->type;
    if (llvm::all_of(resultShapes,
                     [&](const Shape *s) { return s->type == type; }))
      accumulators.push_back(type);
    auto opcodes = reducerOpcodes(instr, 1, false, accumulators);
    if (failed(opcodes))
      return failure();
    kind = reduceKindOf((*opcodes)[0]);
  }
  int64_t dim = 0;
  if (op != "all-reduce") {
    auto dims = listAttr(instr, "dimensions", true);
    if (failed(dims))
      return failure();
    if (dims->size() != 1) {
      error(instr.attr("dimensions")->valueLoc)
          << "'" << op << "' takes one dimension";
      return failure();
    }
    dim = (*dims)[0];
  }
  for (size_t i = 0; i < n; ++i) {
    RankedTensorType type = tensorType(ctx_, *resultShapes[i]);
    Value v;
    if (op == "all-reduce") {
      v = b_.create<AllReduceOp>(loc, type, ReduceKindAttr::get(ctx_, *kind),
                                 xs[i], groupAttr);
    } else if (op == "reduce-scatter") {
      v = b_.create<ReduceScatterOp>(loc, type,
                                     ReduceKindAttr::get(ctx_, *kind), xs[i],
                                     b_.getI64IntegerAttr(dim), groupAttr);
    } else if (op == "all-gather") {
      v = b_.create<AllGatherOp>(loc, type, xs[i], b_.getI64IntegerAttr(dim),
                                 groupAttr);
    } else {
      // Array all-to-all: split and concatenate along the same dimension.
      int64_t count = groups->empty() ? replicaCount_ * numPartitions_
                                      : (*groups)[0].size();
      if (groups->empty() && !haveReplicaCount_) {
        error(instr.opcodeLoc) << "'all-to-all' without replica_groups "
                                  "needs replica_count in the HloModule "
                                  "header";
        return failure();
      }
      v = b_.create<AllToAllOp>(loc, type, xs[i], b_.getI64IntegerAttr(dim),
                                b_.getI64IntegerAttr(dim),
                                b_.getI64IntegerAttr(count), groupAttr);
    }
    result.leaves.push_back(v);
  }
  return success();
}

LogicalResult Importer::emitRngBitGenerator(const Instruction &instr,
                                            Operands operands,
                                            HloValue &result) {
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (failed(checkOperandCount(instr, 1, n)))
    return failure();
  auto state = array(instr, operands, 0);
  if (failed(state))
    return failure();
  const Attr *algo = instr.attr("algorithm");
  RngAlgorithm algorithm = RngAlgorithm::DEFAULT;
  if (algo) {
    llvm::StringRef w;
    if (failed(AttrParser(*algo, locator_).word(w)))
      return failure();
    auto parsed = llvm::StringSwitch<std::optional<RngAlgorithm>>(w)
                      .Case("rng_default", RngAlgorithm::DEFAULT)
                      .Case("rng_three_fry", RngAlgorithm::THREE_FRY)
                      .Case("rng_philox", RngAlgorithm::PHILOX)
                      .Default(std::nullopt);
    if (!parsed) {
      error(algo->valueLoc) << "unknown rng algorithm '" << w << "'";
      return failure();
    }
    algorithm = *parsed;
  }
  if (!instr.shape.isTuple || instr.shape.elements.size() != 2 ||
      instr.shape.elements[0].isTuple || instr.shape.elements[1].isTuple) {
    error(instr.shape.loc) << "'rng-bit-generator' produces (state, bits), "
                              "not "
                           << shapeText(instr.shape);
    return failure();
  }
  auto rng = b_.create<RngBitGeneratorOp>(
      loc, tensorType(ctx_, instr.shape.elements[0]),
      tensorType(ctx_, instr.shape.elements[1]), algorithm, *state);
  result.leaves = {rng.getOutputState(), rng.getOutput()};
  return success();
}

} // namespace mlir::torus::hlo
