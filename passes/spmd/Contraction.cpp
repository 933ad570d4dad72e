//===- Contraction.cpp - Ops that sum over split dimensions ---------------===//
//
// What dot, convolution and reduce share: the layout of a result computed
// from tiles of a contracted (or reduced) dimension, and the collective
// that finishes it (an all_reduce, or a reduce_scatter when the result is
// to be tiled where the contraction was).
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace mlir::torus::spmd {

int64_t ContractionLayout::numContracting() const {
  return computeProduct(contracting);
}

SmallVector<int64_t> tilesOn(ShardingAttr s, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> t;
  for (int64_t d : dims)
    t.push_back(tilesOf(s, d));
  return t;
}

ContractionLayout
Partitioner::planContraction(ShardingAttr want, RankedTensorType outFull,
                             SmallVector<int64_t> contracting) {
  ContractionLayout plan;
  int64_t rank = outFull.getRank();
  plan.mid = want;
  int64_t c = computeProduct(contracting);
  if (c > 1) {
    int64_t rep = want.isTiled() ? want.getReplicationFactor() : P;
    if (rep % c != 0) {
      bool found = false;
      for (int64_t j = 0; j < rank && !found; ++j)
        if (tilesOf(want, j) == c && outFull.getDimSize(j) % c == 0) {
          plan.mid = untile(want, {j}, rank, P);
          plan.scatterDim = j;
          found = true;
        }
      if (!found)
        contracting.assign(contracting.size(), 1);
    }
  }
  plan.contracting = contracting;
  plan.mesh = tileArrayOf(plan.mid, rank, P);
  int64_t rep = plan.mesh.dims.back();
  SmallVector<int64_t> dims(plan.mesh.dims.begin(), plan.mesh.dims.end() - 1);
  dims.append(contracting.begin(), contracting.end());
  dims.push_back(rep / plan.numContracting());
  plan.mesh = plan.mesh.reshape(dims);
  return plan;
}

/// Finishes a contraction computed on tiles: sums (or reduces by `kind`)
/// the partial results over the contracting axes.
void Partitioner::finishContraction(Operation *op,
                                    const ContractionLayout &plan,
                                    Value partial, ReduceKind kind) {
  Location loc = op->getLoc();
  int64_t outRank = tensorTypeOf(op->getResult(0)).getRank();
  if (plan.numContracting() == 1) {
    setResult(op, 0, partial, plan.mid);
    return;
  }
  SmallVector<int64_t> axes;
  for (size_t k = 0; k < plan.contracting.size(); ++k)
    axes.push_back(outRank + k);
  auto groups = groupsAttr(plan.mesh.groupsAlong(axes));
  if (plan.scatterDim >= 0) {
    auto type = tensorTypeOf(partial);
    SmallVector<int64_t> shape(type.getShape());
    shape[plan.scatterDim] /= plan.numContracting();
    Value scattered = b.create<ReduceScatterOp>(
        loc, RankedTensorType::get(shape, type.getElementType()), kind, partial,
        plan.scatterDim, groups);
    setResult(op, 0, scattered, resultSharding(op, 0));
    return;
  }
  setResult(op, 0, allReduce(loc, kind, partial, groups), plan.mid);
}

} // namespace mlir::torus::spmd
