//===- ContractionVJPs.cpp - VJPs of dot_general --------------------------===//
//
// Each operand's gradient is a dot_general of the cotangent with the other
// operand, batch with batch and the other's free dimensions contracted,
// then a transpose into the operand's dimension order.
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

namespace mlir::torus {

namespace {

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

} // namespace

LogicalResult DotGeneralOp::buildVJP(GradBuilder &gb,
                                     ArrayRef<Value> resultCotangents,
                                     SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  cts[0] = dotGeneralOperandGrad(gb, *this, ct, /*selfIsLhs=*/true);
  cts[1] = dotGeneralOperandGrad(gb, *this, ct, /*selfIsLhs=*/false);
  return success();
}

} // namespace mlir::torus
