//===- VJPRules.cpp - Vector-Jacobian products of torus ops ---------------===//
//
// One rule per differentiable op, following JAX's conventions where a choice
// exists: at ties, maximum and reduce-max share the cotangent equally.
//
//===----------------------------------------------------------------------===//

#include "passes/VJPRules.h"
#include "passes/GradBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::torus {

namespace {

using Cotangents = SmallVectorImpl<Value>;

/// Result dimension of each `other` dimension that a dot_general of the
/// cotangent with `other` leaves in the result after the batch and free
/// dimensions: the position of `contract[j]`'s partner among the sorted
/// `partnerContract`.
int64_t sortedRank(ArrayRef<int64_t> values, int64_t v) {
  return llvm::count_if(values, [&](int64_t x) { return x < v; });
}

/// Gradient of one dot_general operand (`self`) given the other operand.
/// `selfIsLhs` selects which of the two symmetric formulas is built.
Value dotGeneralOperandGrad(GradBuilder &gb, DotGeneralOp op, Value ct,
                            bool selfIsLhs) {
  auto lhsType = GradBuilder::typeOf(op.getLhs());
  auto rhsType = GradBuilder::typeOf(op.getRhs());
  ArrayRef<int64_t> lb = op.getLhsBatchingDimensions(),
                    rb = op.getRhsBatchingDimensions(),
                    lc = op.getLhsContractingDimensions(),
                    rc = op.getRhsContractingDimensions();
  int64_t nb = lb.size();
  int64_t lhsFree = lhsType.getRank() - nb - lc.size();
  int64_t rhsFree = rhsType.getRank() - nb - rc.size();

  auto freeDims = [](int64_t rank, ArrayRef<int64_t> batch,
                     ArrayRef<int64_t> contract) {
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d))
        dims.push_back(d);
    return dims;
  };

  ArrayRef<int64_t> selfBatch = selfIsLhs ? lb : rb;
  ArrayRef<int64_t> selfContract = selfIsLhs ? lc : rc;
  ArrayRef<int64_t> otherBatch = selfIsLhs ? rb : lb;
  ArrayRef<int64_t> otherContract = selfIsLhs ? rc : lc;
  Value other = selfIsLhs ? op.getRhs() : op.getLhs();
  auto otherType = GradBuilder::typeOf(other);
  int64_t selfRank = selfIsLhs ? lhsType.getRank() : rhsType.getRank();
  SmallVector<int64_t> otherFree =
      freeDims(otherType.getRank(), otherBatch, otherContract);

  // The cotangent's dimensions: [batch, lhs free, rhs free]. Contract its
  // `other` free part with `other`'s free dimensions, batch with batch.
  SmallVector<int64_t> ctBatch, ctContract;
  for (int64_t i = 0; i < nb; ++i)
    ctBatch.push_back(i);
  int64_t otherFreeStart = selfIsLhs ? nb + lhsFree : nb;
  int64_t selfFree = selfIsLhs ? lhsFree : rhsFree;
  for (int64_t k = 0; k < static_cast<int64_t>(otherFree.size()); ++k)
    ctContract.push_back(otherFreeStart + k);
  Value raw = gb.dotGeneral(ct, other, ctBatch, otherBatch, ctContract,
                            otherFree);
  // `raw` is [batch, self free, other's contracting dims in increasing
  // order]; move each to its place in `self`.
  SmallVector<int64_t> perm(selfRank);
  int64_t nextFree = 0;
  for (int64_t d = 0; d < selfRank; ++d) {
    if (const int64_t *it = llvm::find(selfBatch, d); it != selfBatch.end()) {
      perm[d] = it - selfBatch.begin();
    } else if (const int64_t *jt = llvm::find(selfContract, d);
               jt != selfContract.end()) {
      int64_t partner = otherContract[jt - selfContract.begin()];
      perm[d] = nb + selfFree + sortedRank(otherContract, partner);
    } else {
      perm[d] = nb + nextFree++;
    }
  }
  if (llvm::equal(perm, llvm::seq<int64_t>(0, selfRank)))
    return raw;
  return gb.transpose(raw, perm);
}

/// max/min ties: the cotangent is shared equally among the tied elements.
Value reduceExtremumGrad(GradBuilder &gb, ReduceOp op, Value ct) {
  auto inType = GradBuilder::typeOf(op.getOperand());
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    if (!llvm::is_contained(op.getDimensions(), d))
      kept.push_back(d);
  Value y = gb.broadcastInDim(op.getResult(), inType.getShape(), kept);
  Value mask = gb.convert(gb.compare(ComparisonDirection::EQ, op.getOperand(), y),
                          inType.getElementType());
  Value count = gb.reduce(ReduceKind::sum, mask, op.getDimensions());
  Value share = gb.div(ct, count);
  return gb.mul(gb.broadcastInDim(share, inType.getShape(), kept), mask);
}

} // namespace

LogicalResult buildVJP(GradBuilder &gb, Operation *op,
                       ArrayRef<Value> resultCotangents,
                       Cotangents &operandCotangents) {
  operandCotangents.assign(op->getNumOperands(), Value());
  Value ct = resultCotangents.empty() ? Value() : resultCotangents[0];
  auto set = [&](unsigned i, Value v) { operandCotangents[i] = v; };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AddOp) {
        set(0, ct);
        set(1, ct);
        return success();
      })
      .Case([&](SubtractOp) {
        set(0, ct);
        set(1, gb.neg(ct));
        return success();
      })
      .Case([&](MultiplyOp m) {
        set(0, gb.mul(ct, m.getRhs()));
        set(1, gb.mul(ct, m.getLhs()));
        return success();
      })
      .Case([&](DivideOp d) {
        // d(a/b) = da/b - a/b * db/b
        Value ctOverB = gb.div(ct, d.getRhs());
        set(0, ctOverB);
        set(1, gb.neg(gb.mul(ctOverB, d.getResult())));
        return success();
      })
      .Case([&](NegateOp) {
        set(0, gb.neg(ct));
        return success();
      })
      .Case([&](ExpOp e) {
        set(0, gb.mul(ct, e.getResult()));
        return success();
      })
      .Case([&](LogOp l) {
        set(0, gb.div(ct, l.getOperand()));
        return success();
      })
      .Case([&](MaximumOp m) {
        // JAX: the larger operand gets the cotangent; ties split it in two.
        auto type = GradBuilder::typeOf(m.getLhs());
        Type et = type.getElementType();
        Value gt = gb.convert(
            gb.compare(ComparisonDirection::GT, m.getLhs(), m.getRhs()), et);
        Value eq = gb.convert(
            gb.compare(ComparisonDirection::EQ, m.getLhs(), m.getRhs()), et);
        Value half = gb.mul(eq, gb.splat(type, 0.5));
        Value lhsShare = gb.add(gt, half);
        Value rhsShare = gb.sub(gb.splat(type, 1.0), lhsShare);
        set(0, gb.mul(ct, lhsShare));
        set(1, gb.mul(ct, rhsShare));
        return success();
      })
      .Case([&](SelectOp s) {
        Value zero = gb.zerosLike(ct);
        set(1, gb.select(s.getPred(), ct, zero));
        set(2, gb.select(s.getPred(), zero, ct));
        return success();
      })
      .Case([&](ConvertOp c) {
        Type in = GradBuilder::typeOf(c.getOperand()).getElementType();
        if (isa<FloatType>(in))
          set(0, gb.convert(ct, in));
        return success();
      })
      .Case([&](BroadcastInDimOp bc) {
        set(0, gb.unbroadcast(ct,
                              GradBuilder::typeOf(bc.getOperand()).getShape(),
                              bc.getBroadcastDimensions()));
        return success();
      })
      .Case([&](ReshapeOp r) {
        set(0, gb.reshape(ct, GradBuilder::typeOf(r.getOperand()).getShape()));
        return success();
      })
      .Case([&](TransposeOp t) {
        ArrayRef<int64_t> perm = t.getPermutation();
        SmallVector<int64_t> inverse(perm.size());
        for (auto [i, p] : llvm::enumerate(perm))
          inverse[p] = i;
        set(0, gb.transpose(ct, inverse));
        return success();
      })
      .Case([&](DotGeneralOp d) {
        set(0, dotGeneralOperandGrad(gb, d, ct, /*selfIsLhs=*/true));
        set(1, dotGeneralOperandGrad(gb, d, ct, /*selfIsLhs=*/false));
        return success();
      })
      .Case([&](ReduceOp r) -> LogicalResult {
        auto inType = GradBuilder::typeOf(r.getOperand());
        SmallVector<int64_t> kept;
        for (int64_t d = 0; d < inType.getRank(); ++d)
          if (!llvm::is_contained(r.getDimensions(), d))
            kept.push_back(d);
        switch (r.getKind()) {
        case ReduceKind::sum:
          set(0, gb.broadcastInDim(ct, inType.getShape(), kept));
          return success();
        case ReduceKind::product: {
          // d(prod x)/dx_i = prod x / x_i (undefined where x_i = 0).
          Value y = gb.broadcastInDim(r.getResult(), inType.getShape(), kept);
          Value c = gb.broadcastInDim(ct, inType.getShape(), kept);
          set(0, gb.div(gb.mul(c, y), r.getOperand()));
          return success();
        }
        case ReduceKind::max:
        case ReduceKind::min:
          set(0, reduceExtremumGrad(gb, r, ct));
          return success();
        default:
          return r.emitOpError("has no gradient for reduction kind ")
                 << stringifyReduceKind(r.getKind());
        }
      })
      .Case([&](AllReduceOp a) -> LogicalResult {
        // y_r = sum over the group of x_q, so dL/dx_q = sum over r of ct_r.
        if (a.getKind() != ReduceKind::sum)
          return a.emitOpError("has no gradient for a ")
                 << stringifyReduceKind(a.getKind()) << " all-reduce";
        set(0, gb.builder().create<AllReduceOp>(
                   gb.location(), ct.getType(), ReduceKind::sum, ct,
                   a.getReplicaGroupsAttr()));
        return success();
      })
      .Case<ConstantOp, CompareOp, ReplicaIdOp>(
          [](Operation *) { return success(); })
      .Default([](Operation *other) {
        return other->emitOpError("cannot be differentiated: no gradient "
                                  "rule for this op");
      });
}

} // namespace mlir::torus
