//===- VJPRules.cpp - Vector-Jacobian products of torus ops ---------------===//
//
// One rule per differentiable op, following JAX's conventions where a choice
// exists: at ties, maximum and reduce-max share the cotangent equally.
//
//===----------------------------------------------------------------------===//

#include "passes/VJPRules.h"
#include "ir/GradBuilder.h"
#include "passes/VJPFamilies.h"

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
      .Case([&](AbsOp a) {
        set(0, gb.mul(ct, gb.same<SignOp>(a.getOperand())));
        return success();
      })
      .Case([&](Expm1Op e) {
        set(0, gb.mul(ct, gb.add(e.getResult(), gb.splat(gb.typeOf(ct), 1.0))));
        return success();
      })
      .Case([&](Log1pOp l) {
        set(0, gb.div(ct, gb.add(l.getOperand(), gb.splat(gb.typeOf(ct), 1.0))));
        return success();
      })
      .Case([&](SqrtOp s) {
        // d sqrt(x) = 1 / (2 sqrt(x))
        set(0, gb.div(ct, gb.mul(s.getResult(), gb.splat(gb.typeOf(ct), 2.0))));
        return success();
      })
      .Case([&](RsqrtOp r) {
        // d x^-1/2 = -1/2 x^-3/2 = -0.5 * y / x
        Value half = gb.splat(gb.typeOf(ct), -0.5);
        set(0, gb.mul(ct, gb.div(gb.mul(half, r.getResult()), r.getOperand())));
        return success();
      })
      .Case([&](TanhOp t) {
        Value one = gb.splat(gb.typeOf(ct), 1.0);
        set(0, gb.mul(ct, gb.sub(one, gb.mul(t.getResult(), t.getResult()))));
        return success();
      })
      .Case([&](LogisticOp l) {
        Value one = gb.splat(gb.typeOf(ct), 1.0);
        set(0, gb.mul(ct, gb.mul(l.getResult(), gb.sub(one, l.getResult()))));
        return success();
      })
      .Case([&](SinOp s) {
        set(0, gb.mul(ct, gb.same<CosOp>(s.getOperand())));
        return success();
      })
      .Case([&](CosOp c) {
        set(0, gb.neg(gb.mul(ct, gb.same<SinOp>(c.getOperand()))));
        return success();
      })
      .Case<SignOp, FloorOp, CeilOp, RoundNearestEvenOp>([&](Operation *o) {
        // Piecewise constant: zero gradient almost everywhere (as in JAX).
        set(0, gb.zerosLike(o->getOperand(0)));
        return success();
      })
      .Case([&](MinimumOp m) {
        // As maximum, mirrored: the smaller operand gets the cotangent.
        auto type = GradBuilder::typeOf(m.getLhs());
        Type et = type.getElementType();
        Value lt = gb.convert(
            gb.compare(ComparisonDirection::LT, m.getLhs(), m.getRhs()), et);
        Value eq = gb.convert(
            gb.compare(ComparisonDirection::EQ, m.getLhs(), m.getRhs()), et);
        Value lhsShare = gb.add(lt, gb.mul(eq, gb.splat(type, 0.5)));
        set(0, gb.mul(ct, lhsShare));
        set(1, gb.mul(ct, gb.sub(gb.splat(type, 1.0), lhsShare)));
        return success();
      })
      .Case([&](RemainderOp r) {
        // a - b * trunc(a / b): d/da = 1, d/db = -trunc(a / b).
        Value q = gb.div(r.getLhs(), r.getRhs());
        Value trunc = gb.mul(gb.same<SignOp>(q),
                             gb.same<FloorOp>(gb.same<AbsOp>(q)));
        set(0, ct);
        set(1, gb.neg(gb.mul(ct, trunc)));
        return success();
      })
      .Case([&](PowerOp p) {
        // d a^b / da = b a^(b-1); d a^b / db = log(a) a^b (log(1) at a = 0,
        // as JAX does, so 0^b has a finite exponent gradient).
        Value a = p.getLhs(), bb = p.getRhs(), y = p.getResult();
        auto type = GradBuilder::typeOf(a);
        Value bMinus1 = gb.sub(bb, gb.splat(type, 1.0));
        set(0, gb.mul(ct, gb.mul(bb, gb.same<PowerOp>(a, bMinus1))));
        Value isZero = gb.compare(ComparisonDirection::EQ, a, gb.splat(type, 0));
        Value safeA = gb.select(isZero, gb.splat(type, 1.0), a);
        set(1, gb.mul(ct, gb.mul(gb.same<LogOp>(safeA), y)));
        return success();
      })
      .Case([&](Atan2Op t) {
        // atan2(a, b): d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2).
        Value a = t.getLhs(), bb = t.getRhs();
        Value norm = gb.add(gb.mul(a, a), gb.mul(bb, bb));
        set(0, gb.mul(ct, gb.div(bb, norm)));
        set(1, gb.neg(gb.mul(ct, gb.div(a, norm))));
        return success();
      })
      .Case([&](ClampOp c) {
        // The operand's cotangent passes where min <= x <= max (JAX);
        // min (max) gets it where the operand fell below (above) it.
        Value x = c.getOperand();
        auto type = GradBuilder::typeOf(x);
        auto full = [&](Value bound) {
          auto shape = GradBuilder::typeOf(bound).getShape();
          return shape == type.getShape()
                     ? bound
                     : gb.broadcastInDim(bound, type.getShape(), {});
        };
        auto fold = [&](Value bound, Value g) {
          return GradBuilder::typeOf(bound).getRank() == type.getRank()
                     ? g
                     : gb.sumAll(g);
        };
        Value lo = full(c.getMin()), hi = full(c.getMax());
        Value zero = gb.zerosLike(ct);
        Value below = gb.compare(ComparisonDirection::LT, x, lo);
        Value above = gb.compare(ComparisonDirection::GT, x, hi);
        set(1, gb.select(below, zero, gb.select(above, zero, ct)));
        set(0, fold(c.getMin(), gb.select(below, ct, zero)));
        set(2, fold(c.getMax(), gb.select(above, ct, zero)));
        return success();
      })
      .Case<SliceOp, PadOp, ConcatenateOp, ReverseOp, DynamicSliceOp,
            DynamicUpdateSliceOp>([&](Operation *o) {
        return shapeVJP(gb, o, ct, operandCotangents);
      })
      .Case<ReduceWindowOp, ConvolutionOp>([&](Operation *o) {
        return windowVJP(gb, o, ct, operandCotangents);
      })
      .Case<GatherOp, ScatterOp>([&](Operation *o) {
        return indexingVJP(gb, o, ct, operandCotangents);
      })
      .Case<AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp,
            CollectivePermuteOp>([&](Operation *o) {
        return collectiveVJP(gb, o, ct, operandCotangents);
      })
      .Case<ConstantOp, CompareOp, ReplicaIdOp, PartitionIdOp, IotaOp,
            ArgMaxOp, ArgMinOp, RngBitGeneratorOp, NotOp, IsFiniteOp, AndOp,
            OrOp, XorOp>([](Operation *) { return success(); })
      .Default([](Operation *other) {
        return other->emitOpError("cannot be differentiated: no gradient "
                                  "rule for this op");
      });
}

} // namespace mlir::torus
