//===- ConvolutionHandler.cpp - Partitioning convolution ------------------===//
//
// Batch and output features keep the result's tiling; split input
// features are summed (Contraction.cpp); split spatial dimensions exchange
// halos with their neighbours (collective_permute) when the windows allow.
// XLA: convolution_handler.cc.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpUtils.h"
#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

namespace {

/// Rows a tile needs from its neighbours along one spatial dimension.
struct Halo {
  int64_t left = 0, right = 0;
};

/// The halo of each spatial dimension `want` tiles. Output dimensions whose
/// tiles cannot be computed from their own input tile and halos (uneven,
/// dilated input, tiles that do not line up with the stride, halos larger
/// than a tile) are added to `blocked`.
SmallVector<Halo> planHalos(ConvolutionOp op, const ConvDims &dims,
                            ShardingAttr want,
                            SmallVectorImpl<int64_t> &blocked) {
  auto outFull = op.getType();
  auto inFull = tensorTypeOf(op.getLhs()), kFull = tensorTypeOf(op.getRhs());
  SmallVector<int64_t> strides = op.getStrides();
  SmallVector<int64_t> lhsDil = op.getLhsDilationOr1();
  SmallVector<int64_t> rhsDil = op.getRhsDilationOr1();
  auto pads = op.getPaddingPairs();
  SmallVector<Halo> halos(dims.inputSpatial.size());
  for (size_t i = 0; i < dims.inputSpatial.size(); ++i) {
    int64_t t = tilesOf(want, dims.outputSpatial[i]);
    if (t == 1)
      continue;
    int64_t nIn = inFull.getDimSize(dims.inputSpatial[i]);
    int64_t nOut = outFull.getDimSize(dims.outputSpatial[i]);
    int64_t k = kFull.getDimSize(dims.kernelSpatial[i]);
    int64_t s = strides[i], d = rhsDil[i];
    int64_t lo = pads.empty() ? 0 : pads[i].first;
    bool ok = nIn % t == 0 && nOut % t == 0 && lhsDil[i] == 1 && lo >= 0;
    int64_t l = ok ? nIn / t : 0, m = ok ? nOut / t : 0;
    ok = ok && m * s == l;
    int64_t right = (k - 1) * d + 1 - s - lo;
    ok = ok && lo <= l && right <= l;
    if (!ok) {
      blocked.push_back(dims.outputSpatial[i]);
      continue;
    }
    halos[i] = {lo, right};
  }
  return halos;
}

/// `x` (a tile of `s`) extended along `dim` by the last `h.left` rows of
/// the previous tile and the first `h.right` rows of the next one
/// (collective_permute along the tile order; the edge devices receive
/// zeros, which is the convolution's zero padding).
Value exchangeHalo(Partitioner &p, Location loc, Value x, ShardingAttr s,
                   int64_t dim, Halo h) {
  OpBuilder &b = p.b;
  auto groups = deviceGroupsAlong(s, {dim});
  auto pairs = [&](bool toRight) {
    SmallVector<int64_t> flat;
    for (int64_t r = 0; r < p.R; ++r)
      for (const auto &g : groups)
        for (size_t k = 0; k + 1 < g.size(); ++k) {
          int64_t src = toRight ? g[k] : g[k + 1];
          int64_t dst = toRight ? g[k + 1] : g[k];
          flat.push_back(r * p.P + src);
          flat.push_back(r * p.P + dst);
        }
    auto type = RankedTensorType::get(
        {static_cast<int64_t>(flat.size() / 2), 2}, b.getI64Type());
    return DenseIntElementsAttr::get(type, ArrayRef(flat));
  };
  auto type = tensorTypeOf(x);
  int64_t l = type.getDimSize(dim);
  auto strip = [&](int64_t start, int64_t size) {
    SmallVector<int64_t> lo(type.getRank(), 0), hi(type.getShape()),
        st(type.getRank(), 1);
    lo[dim] = start;
    hi[dim] = start + size;
    return b.create<SliceOp>(loc, x, lo, hi, st).getResult();
  };
  SmallVector<Value> parts;
  if (h.left > 0) {
    Value edge = strip(l - h.left, h.left);
    parts.push_back(b.create<CollectivePermuteOp>(loc, edge.getType(), edge,
                                                  pairs(/*toRight=*/true)));
  }
  parts.push_back(x);
  if (h.right > 0) {
    Value edge = strip(0, h.right);
    parts.push_back(b.create<CollectivePermuteOp>(loc, edge.getType(), edge,
                                                  pairs(/*toRight=*/false)));
  }
  if (parts.size() == 1)
    return x;
  return b.create<ConcatenateOp>(loc, parts, dim);
}

} // namespace

void Partitioner::partitionConvolution(ConvolutionOp op) {
  Location loc = op.getLoc();
  auto outFull = op.getType();
  auto inFull = fullTypeOf(op.getLhs()), kFull = fullTypeOf(op.getRhs());
  ConvDims dims = toConvDims(op.getDimensionNumbers());
  int64_t outRank = outFull.getRank();
  bool grouped = op.getFeatureGroupCount() != 1 || op.getBatchGroupCount() != 1;
  PValue in = lookup(op.getLhs()), kernel = lookup(op.getRhs());
  SmallVector<int64_t> contracting = {1};
  if (!grouped) {
    contracting = {tilesOf(in.sharding, dims.inputFeature)};
    if (contracting[0] == 1)
      contracting = {tilesOf(kernel.sharding, dims.kernelInputFeature)};
  }
  // Dimensions the tiles cannot compute on their own.
  SmallVector<int64_t> blocked;
  if (grouped) {
    blocked.push_back(dims.outputFeature);
    if (op.getBatchGroupCount() != 1)
      blocked.push_back(dims.outputBatch);
  }
  ShardingAttr want = resultSharding(op, 0);
  SmallVector<Halo> halos = planHalos(op, dims, want, blocked);
  want = untile(want, blocked, outRank, P);
  ContractionLayout plan = planContraction(want, outFull, contracting);
  SmallVector<int64_t> inAxes(inFull.getRank(), -1), kAxes(kFull.getRank(), -1);
  inAxes[dims.inputBatch] = dims.outputBatch;
  inAxes[dims.inputFeature] = outRank;
  for (size_t i = 0; i < dims.inputSpatial.size(); ++i)
    inAxes[dims.inputSpatial[i]] = dims.outputSpatial[i];
  kAxes[dims.kernelOutputFeature] = dims.outputFeature;
  kAxes[dims.kernelInputFeature] = outRank;
  ShardingAttr inReq = shardingFromMesh(ctx, plan.mesh, inAxes);
  ShardingAttr kReq = shardingFromMesh(ctx, plan.mesh, kAxes);
  Value x = reshard(loc, in, inReq, inFull);
  Value w = reshard(loc, kernel, kReq, kFull);
  Attribute zero = b.getZeroAttr(outFull.getElementType());
  if (plan.numContracting() > 1) {
    x = maskPadding(loc, x, inReq, inFull, dims.inputFeature, zero);
    w = maskPadding(loc, w, kReq, kFull, dims.kernelInputFeature, zero);
  }
  // Halo exchange, one spatial dimension at a time (corners come with
  // the second exchange, which moves already extended tiles); the
  // exchanged rows replace the padding.
  auto pads = op.getPaddingPairs();
  SmallVector<std::pair<int64_t, int64_t>> newPads(pads.begin(), pads.end());
  if (newPads.empty())
    newPads.assign(dims.inputSpatial.size(), {0, 0});
  for (size_t i = 0; i < dims.inputSpatial.size(); ++i) {
    int64_t dim = dims.inputSpatial[i];
    if (tilesOf(inReq, dim) == 1)
      continue;
    x = exchangeHalo(*this, loc, x, inReq, dim, halos[i]);
    newPads[i] = {0, std::min<int64_t>(halos[i].right, 0)};
  }
  auto conv = cast<ConvolutionOp>(
      cloneWith(op, {x, w}, {localType(outFull, plan.mid)}));
  if (llvm::any_of(newPads, [](auto p) { return p.first || p.second; }))
    conv.setPaddingAttr(paddingAttr(ctx, newPads));
  else
    conv.removePaddingAttr();
  finishContraction(op, plan, conv.getResult(), ReduceKind::sum);
}

void registerConvolutionHandlers(HandlerTable &table) {
  table.add<ConvolutionOp>(&Partitioner::partitionConvolution);
}

} // namespace mlir::torus::spmd
