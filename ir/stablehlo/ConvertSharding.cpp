//===- ConvertSharding.cpp - Shardy and GSPMD shardings to torus ----------===//
//
// `#sdy.sharding<@mesh, [{"x"}, {}]>` on function arguments and results and
// in sdy.sharding_constraint / sdy.reshard becomes `#torus.sharding`:
// dimension d is cut into the product of its axes' sizes; the tile
// assignment is the mesh's device list (iota, or its device_ids) with the
// mesh axes transposed into the order they shard the dimensions, the axes
// that shard nothing last and replicated (last_tile_dim_replicate), as
// XLA's Shardy export writes HloSharding. GSPMD's `mhlo.sharding` strings
// are HLO text already. sdy.mesh ops go. (sdy.manual_computation:
// ConvertManualComputation.cpp.)
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/SdyOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::torus::stablehlo {

namespace sdy = ::mlir::sdy;

FailureOr<sdy::MeshAttr> meshOf(Operation *scope,
                                sdy::TensorShardingAttr sharding,
                                std::string &error) {
  auto ref = dyn_cast<FlatSymbolRefAttr>(sharding.getMeshOrRef());
  if (!ref)
    return cast<sdy::MeshAttr>(sharding.getMeshOrRef());
  auto meshOp = dyn_cast_or_null<sdy::MeshOp>(
      SymbolTable::lookupNearestSymbolFrom(scope, ref.getAttr()));
  if (!meshOp) {
    error = "no sdy.mesh named @" + ref.getValue().str();
    return failure();
  }
  return meshOp.getMesh();
}

FailureOr<ShardingAttr> toTorusSharding(Operation *scope,
                                        sdy::TensorShardingAttr sharding,
                                        std::string &error) {
  MLIRContext *ctx = sharding.getContext();
  FailureOr<sdy::MeshAttr> found = meshOf(scope, sharding, error);
  if (failed(found))
    return failure();
  sdy::MeshAttr mesh = *found;
  ArrayRef<StringAttr> names = mesh.getAxisNames();
  ArrayRef<int64_t> sizes = mesh.getAxisSizes();
  auto axisIndex = [&](sdy::AxisRefAttr axis) -> int64_t {
    if (axis.getSize() > 0) {
      error = "sub-axis '" + axis.getName().getValue().str() +
              "' is not supported";
      return -1;
    }
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == axis.getName())
        return i;
    error = "axis '" + axis.getName().getValue().str() +
            "' is not an axis of the mesh";
    return -1;
  };
  if (!sharding.getUnreducedAxes().empty()) {
    error = "unreduced axes are not supported";
    return failure();
  }
  SmallVector<int64_t> tiles, perm;
  SmallVector<bool> used(names.size(), false);
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings()) {
    int64_t tile = 1;
    for (sdy::AxisRefAttr axis : dim.getAxes()) {
      int64_t i = axisIndex(axis);
      if (i < 0)
        return failure();
      if (used[i]) {
        error = "axis '" + axis.getName().getValue().str() +
                "' shards two dimensions";
        return failure();
      }
      used[i] = true;
      perm.push_back(i);
      tile *= sizes[i];
    }
    tiles.push_back(tile);
  }
  for (sdy::AxisRefAttr axis : sharding.getReplicatedAxes())
    if (axisIndex(axis) < 0)
      return failure();
  if (perm.empty())
    return getShardingAttr(ctx, ShardingSpec::replicated());
  int64_t replicas = 1;
  for (size_t i = 0; i < names.size(); ++i)
    if (!used[i]) {
      perm.push_back(i);
      replicas *= sizes[i];
    }
  ShardingSpec spec;
  spec.kind = ShardingKind::tiled;
  spec.tileDims = tiles;
  if (replicas > 1) {
    spec.tileDims.push_back(replicas);
    spec.lastTileDimReplicate = true;
  }
  // The mesh's devices with its axes in `perm` order, row-major.
  int64_t total = 1;
  for (int64_t s : sizes)
    total *= s;
  SmallVector<int64_t> index(perm.size(), 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t device = 0;
    SmallVector<int64_t> coord(sizes.size(), 0);
    for (size_t k = 0; k < perm.size(); ++k)
      coord[perm[k]] = index[k];
    for (size_t a = 0; a < sizes.size(); ++a)
      device = device * sizes[a] + coord[a];
    ArrayRef<int64_t> ids = mesh.getDeviceIds();
    spec.devices.push_back(ids.empty() ? device : ids[device]);
    for (int64_t k = perm.size() - 1; k >= 0; --k) {
      if (++index[k] < sizes[perm[k]])
        break;
      index[k] = 0;
    }
  }
  if (failed(verifyShardingSpec(spec, error)))
    return failure();
  return getShardingAttr(ctx, spec);
}

namespace {

/// A function argument's or result's sharding attribute as a torus one.
LogicalResult convertValueSharding(func::FuncOp fn, DictionaryAttr attrs,
                                   NamedAttrList &out, StringRef what) {
  out = NamedAttrList(attrs);
  std::string error;
  ShardingAttr torusSharding;
  if (auto sharding =
          dyn_cast_or_null<sdy::TensorShardingAttr>(out.get("sdy.sharding"))) {
    auto converted = toTorusSharding(fn, sharding, error);
    if (failed(converted))
      return fn.emitError() << "the sharding of " << what << ": " << error;
    torusSharding = *converted;
    out.erase("sdy.sharding");
  } else if (auto text =
                 dyn_cast_or_null<StringAttr>(out.get("mhlo.sharding"))) {
    torusSharding = toShardingAttr(text, fn.getContext(), &error);
    if (!torusSharding)
      return fn.emitError() << "the mhlo.sharding of " << what << ": "
                            << error;
    out.erase("mhlo.sharding");
  }
  if (torusSharding)
    out.set(kShardingAttrName, torusSharding);
  return success();
}

template <typename OpTy>
struct ConstraintPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string error;
    auto sharding = toTorusSharding(op, op.getSharding(), error);
    if (failed(sharding))
      return op.emitError() << "'" << op->getName() << "': " << error;
    rewriter.replaceOpWithNewOp<ShardingConstraintOp>(
        op, op.getType(), adaptor.getInput(), *sharding);
    return success();
  }
};

} // namespace

LogicalResult convertFunctionShardings(ModuleOp module) {
  bool ok = true;
  module.walk([&](func::FuncOp fn) {
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      NamedAttrList attrs;
      if (failed(convertValueSharding(fn, fn.getArgAttrDict(i), attrs,
                                      "argument " + std::to_string(i)))) {
        ok = false;
        continue;
      }
      fn.setArgAttrs(i, attrs.getDictionary(fn.getContext()));
    }
    for (unsigned i = 0; i < fn.getNumResults(); ++i) {
      NamedAttrList attrs;
      if (failed(convertValueSharding(fn, fn.getResultAttrDict(i), attrs,
                                      "result " + std::to_string(i)))) {
        ok = false;
        continue;
      }
      fn.setResultAttrs(i, attrs.getDictionary(fn.getContext()));
    }
  });
  return success(ok);
}

void eraseMeshes(ModuleOp module) {
  for (auto mesh :
       llvm::make_early_inc_range(module.getOps<sdy::MeshOp>()))
    mesh.erase();
}

void populateShardingPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstraintPattern<sdy::ShardingConstraintOp>,
               ConstraintPattern<sdy::ReshardOp>>(
      patterns.getContext(), /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
