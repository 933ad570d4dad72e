//===- ShardingUtils.cpp - Algebra on tile assignments --------------------===//

#include "passes/ShardingUtils.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlir::torus {

namespace {
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> strides(dims.size(), 1);
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * dims[d + 1];
  return strides;
}
} // namespace

TileArray TileArray::transpose(ArrayRef<int64_t> perm) const {
  TileArray out;
  for (int64_t p : perm)
    out.dims.push_back(dims[p]);
  SmallVector<int64_t> strides = rowMajorStrides(dims);
  int64_t n = devices.size();
  out.devices.resize(n);
  SmallVector<int64_t> index(perm.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t src = 0;
    for (size_t k = 0; k < perm.size(); ++k)
      src += index[k] * strides[perm[k]];
    out.devices[i] = devices[src];
    for (int64_t k = static_cast<int64_t>(perm.size()) - 1; k >= 0; --k) {
      if (++index[k] < out.dims[k])
        break;
      index[k] = 0;
    }
  }
  return out;
}

TileArray TileArray::reshape(ArrayRef<int64_t> newDims) const {
  TileArray out;
  out.dims.assign(newDims.begin(), newDims.end());
  out.devices = devices;
  return out;
}

SmallVector<SmallVector<int64_t>>
TileArray::groupsAlong(ArrayRef<int64_t> axes) const {
  SmallVector<int64_t> perm;
  for (int64_t a = 0; a < rank(); ++a)
    if (!llvm::is_contained(axes, a))
      perm.push_back(a);
  int64_t outer = 1;
  for (int64_t a : perm)
    outer *= dims[a];
  perm.append(axes.begin(), axes.end());
  TileArray t = transpose(perm);
  int64_t inner = outer ? static_cast<int64_t>(devices.size()) / outer : 0;
  SmallVector<SmallVector<int64_t>> groups;
  for (int64_t o = 0; o < outer; ++o)
    groups.emplace_back(t.devices.begin() + o * inner,
                        t.devices.begin() + (o + 1) * inner);
  return groups;
}

TileArray tileArrayOf(ShardingAttr s, int64_t rank, int64_t numPartitions) {
  TileArray a;
  if (!s || !s.isTiled()) {
    a.dims.assign(rank, 1);
    a.dims.push_back(numPartitions);
    a.devices.resize(numPartitions);
    std::iota(a.devices.begin(), a.devices.end(), 0);
    return a;
  }
  ArrayRef<int64_t> data = s.getDataTileDims();
  if (rank == 0 && data.size() == 1 && data[0] == 1)
    data = {};
  a.dims.assign(data.begin(), data.end());
  a.dims.resize(rank, 1);
  a.dims.push_back(s.getReplicationFactor());
  a.devices.assign(s.getDevices().begin(), s.getDevices().end());
  return a;
}

ShardingAttr shardingOf(MLIRContext *ctx, const TileArray &a) {
  ArrayRef<int64_t> data = ArrayRef<int64_t>(a.dims).drop_back();
  if (llvm::all_of(data, [](int64_t t) { return t == 1; }))
    return ShardingAttr::getReplicated(ctx);
  if (a.dims.back() == 1)
    return ShardingAttr::getTiled(ctx, data, a.devices, false);
  return ShardingAttr::getTiled(ctx, a.dims, a.devices, true);
}

ShardingAttr shardingFromMesh(MLIRContext *ctx, const TileArray &mesh,
                              ArrayRef<int64_t> axisOfDim) {
  SmallVector<int64_t> perm, newDims;
  for (int64_t axis : axisOfDim) {
    if (axis >= 0) {
      perm.push_back(axis);
      newDims.push_back(mesh.dims[axis]);
    } else {
      newDims.push_back(1);
    }
  }
  int64_t rep = 1;
  for (int64_t a = 0; a < mesh.rank(); ++a)
    if (!llvm::is_contained(axisOfDim, a)) {
      perm.push_back(a);
      rep *= mesh.dims[a];
    }
  newDims.push_back(rep);
  return shardingOf(ctx, mesh.transpose(perm).reshape(newDims));
}

ShardingAttr untile(ShardingAttr s, ArrayRef<int64_t> dims, int64_t rank,
                    int64_t numPartitions) {
  if (!s || !s.isTiled())
    return s;
  TileArray mesh = tileArrayOf(s, rank, numPartitions);
  SmallVector<int64_t> axisOfDim;
  for (int64_t d = 0; d < rank; ++d)
    axisOfDim.push_back(llvm::is_contained(dims, d) ? -1 : d);
  return shardingFromMesh(s.getContext(), mesh, axisOfDim);
}

ShardingAttr mapDims(ShardingAttr s, int64_t srcRank, ArrayRef<int64_t> dstDimOf,
                     int64_t dstRank, int64_t numPartitions) {
  if (!s || !s.isTiled())
    return s;
  TileArray mesh = tileArrayOf(s, srcRank, numPartitions);
  SmallVector<int64_t> axisOfDim(dstRank, -1);
  for (int64_t d = 0; d < srcRank; ++d)
    if (dstDimOf[d] >= 0)
      axisOfDim[dstDimOf[d]] = d;
  return shardingFromMesh(s.getContext(), mesh, axisOfDim);
}

namespace {
/// `a` with each replication group's devices sorted.
TileArray canonical(TileArray a) {
  int64_t rep = a.dims.back();
  for (size_t i = 0; i < a.devices.size(); i += rep)
    std::sort(a.devices.begin() + i, a.devices.begin() + i + rep);
  // Data axes of size 1 carry no information; neither does their position.
  return a;
}
} // namespace

bool equivalent(ShardingAttr a, ShardingAttr b, int64_t rank,
                int64_t numPartitions) {
  if (a == b)
    return true;
  if (!a || !b)
    return false;
  if (a.isMaximal() || b.isMaximal())
    return a.isMaximal() && b.isMaximal() && a.getDevice() == b.getDevice();
  if (a.isManual() || b.isManual())
    return a.isManual() && b.isManual();
  return canonical(tileArrayOf(a, rank, numPartitions)) ==
         canonical(tileArrayOf(b, rank, numPartitions));
}

int64_t numTiles(ShardingAttr s) {
  return s && s.isTiled() ? computeProduct(s.getDataTileDims()) : 1;
}

SmallVector<ReshapeGroup> reshapeGroups(ArrayRef<int64_t> src,
                                        ArrayRef<int64_t> dst) {
  SmallVector<ReshapeGroup> groups;
  int64_t n = src.size(), m = dst.size();
  if (llvm::is_contained(src, 0) || llvm::is_contained(dst, 0)) {
    ReshapeGroup g;
    for (int64_t i = 0; i < n; ++i)
      g.src.push_back(i);
    for (int64_t j = 0; j < m; ++j)
      g.dst.push_back(j);
    groups.push_back(g);
    return groups;
  }
  int64_t i = 0, j = 0;
  while (i < n || j < m) {
    bool srcOne = i < n && src[i] == 1, dstOne = j < m && dst[j] == 1;
    if (srcOne && dstOne) {
      groups.push_back({{i++}, {j++}});
      continue;
    }
    if (srcOne || j >= m) {
      groups.push_back({{i++}, {}});
      continue;
    }
    if (dstOne || i >= n) {
      groups.push_back({{}, {j++}});
      continue;
    }
    ReshapeGroup g;
    int64_t ps = src[i], pd = dst[j];
    g.src.push_back(i++);
    g.dst.push_back(j++);
    while (ps != pd) {
      if (ps < pd && i < n) {
        ps *= src[i];
        g.src.push_back(i++);
      } else if (j < m) {
        pd *= dst[j];
        g.dst.push_back(j++);
      } else {
        break;
      }
    }
    groups.push_back(g);
  }
  return groups;
}

ShardingAttr reshapeSharding(ShardingAttr s, ArrayRef<int64_t> src,
                             ArrayRef<int64_t> dst, int64_t numPartitions,
                             bool *exact) {
  if (exact)
    *exact = true;
  if (!s || !s.isTiled())
    return s;
  int64_t srcRank = src.size();
  TileArray mesh = tileArrayOf(s, srcRank, numPartitions);
  SmallVector<int64_t> axisOfDim(dst.size(), -1);
  for (const ReshapeGroup &g : reshapeGroups(src, dst)) {
    auto firstNonOne = [](ArrayRef<int64_t> dims, ArrayRef<int64_t> shape) {
      for (int64_t d : dims)
        if (shape[d] != 1)
          return d;
      return int64_t(-1);
    };
    int64_t fs = firstNonOne(g.src, src), fd = firstNonOne(g.dst, dst);
    for (int64_t d : g.src) {
      int64_t t = mesh.dims[d];
      if (t == 1)
        continue;
      if (d == fs && fd >= 0 && src[d] % t == 0 && dst[fd] % t == 0) {
        axisOfDim[fd] = d;
      } else if (exact) {
        *exact = false;
      }
    }
  }
  return shardingFromMesh(s.getContext(), mesh, axisOfDim);
}

DenseIntElementsAttr partitionGroupsAttr(MLIRContext *ctx,
                                         ArrayRef<SmallVector<int64_t>> groups,
                                         int64_t numPartitions,
                                         int64_t numReplicas) {
  SmallVector<int64_t> flat;
  for (int64_t r = 0; r < numReplicas; ++r)
    for (const auto &g : groups)
      for (int64_t p : g)
        flat.push_back(r * numPartitions + p);
  int64_t size = groups.empty() ? 0 : groups[0].size();
  auto type = RankedTensorType::get(
      {numReplicas * static_cast<int64_t>(groups.size()), size},
      IntegerType::get(ctx, 64));
  return DenseIntElementsAttr::get(type, flat);
}

DenseIntElementsAttr replicaGroupsToDevices(MLIRContext *ctx,
                                            DenseIntElementsAttr groups,
                                            int64_t numPartitions,
                                            int64_t numReplicas) {
  SmallVector<SmallVector<int64_t>> replicaGroups;
  if (!groups || groups.getNumElements() == 0) {
    replicaGroups.emplace_back();
    for (int64_t r = 0; r < numReplicas; ++r)
      replicaGroups.back().push_back(r);
  } else {
    int64_t width = groups.getType().getDimSize(1);
    SmallVector<int64_t> flat(groups.getValues<int64_t>());
    for (size_t i = 0; i < flat.size(); i += width)
      replicaGroups.emplace_back(flat.begin() + i, flat.begin() + i + width);
  }
  SmallVector<int64_t> out;
  for (const auto &g : replicaGroups)
    for (int64_t p = 0; p < numPartitions; ++p)
      for (int64_t r : g)
        out.push_back(r * numPartitions + p);
  int64_t size = replicaGroups[0].size();
  auto type = RankedTensorType::get(
      {static_cast<int64_t>(replicaGroups.size()) * numPartitions, size},
      IntegerType::get(ctx, 64));
  return DenseIntElementsAttr::get(type, out);
}

SmallVector<int64_t> invertDimMap(ArrayRef<int64_t> map, int64_t resultRank) {
  SmallVector<int64_t> inverse(resultRank, -1);
  for (int64_t d = 0, e = map.size(); d < e; ++d)
    if (map[d] >= 0)
      inverse[map[d]] = d;
  return inverse;
}

} // namespace mlir::torus
