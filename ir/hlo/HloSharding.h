//===- HloSharding.h - HLO shardings as #torus.sharding ---------*- C++ -*-===//
//
// The one conversion from a sharding as the HLO attribute parser reads it
// (hlo::Sharding, HloAttrParser.h) to the dialect's sharding attribute
// (ShardingAttr, ir/Sharding.h). The importer uses nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_HLOSHARDING_H
#define TORUS_IR_HLO_HLOSHARDING_H

#include "ir/TorusAttrs.h"
#include "ir/hlo/HloAttrParser.h"

#include <string>

namespace mlir::torus::hlo {

/// `sharding` as a #torus.sharding. Fails, with the reason in `error`, for
/// what the attribute cannot represent: a tuple (the caller gives each
/// leaf its element), subgroups other than one replicated last tile
/// dimension (`last_tile_dims={manual}`), or a tile assignment that does
/// not verify (a device listed twice).
FailureOr<ShardingAttr> convertSharding(MLIRContext *ctx,
                                        const Sharding &sharding,
                                        std::string &error);

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_HLOSHARDING_H
