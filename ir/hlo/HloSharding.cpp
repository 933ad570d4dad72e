//===- HloSharding.cpp - HLO shardings as #torus.sharding -----------------===//

#include "ir/hlo/HloSharding.h"

#include "ir/Sharding.h"

namespace mlir::torus::hlo {

FailureOr<ShardingAttr> convertSharding(MLIRContext *ctx,
                                        const Sharding &sharding,
                                        std::string &error) {
  ShardingSpec spec;
  switch (sharding.kind) {
  case Sharding::Kind::Replicated:
    return ShardingAttr::getReplicated(ctx);
  case Sharding::Kind::Manual:
    return ShardingAttr::getManual(ctx);
  case Sharding::Kind::Maximal:
    spec = ShardingSpec::maximal(sharding.device);
    break;
  case Sharding::Kind::Tuple:
    error = "a tuple sharding where one array's sharding is expected";
    return failure();
  case Sharding::Kind::Tiled: {
    // One subgroup at most, and only a replicated one: what
    // last_tile_dim_replicate says, which last_tile_dims={replicated}
    // spells too.
    size_t subgroups =
        sharding.lastTileDims.size() + (sharding.lastTileDimReplicate ? 1 : 0);
    for (const std::string &type : sharding.lastTileDims)
      if (type != "replicated") {
        error = "last_tile_dims={" + type +
                "} cannot be represented: only a replicated last tile "
                "dimension is supported";
        return failure();
      }
    if (subgroups > 1) {
      error = "more than one subgroup tile dimension cannot be represented";
      return failure();
    }
    spec.kind = ShardingKind::tiled;
    spec.tileDims.assign(sharding.tileShape.begin(), sharding.tileShape.end());
    spec.devices.assign(sharding.devices.begin(), sharding.devices.end());
    spec.lastTileDimReplicate = subgroups == 1;
    break;
  }
  }
  if (failed(verifyShardingSpec(spec, error)))
    return failure();
  return getShardingAttr(ctx, spec);
}

} // namespace mlir::torus::hlo
