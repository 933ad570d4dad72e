//===- ShardingRuleOpInterface.h - An op's sharding rule --------*- C++ -*-===//
//
// ShardingRuleOpInterface (declared in ODS, ShardingRuleOpInterface.td)
// and the pieces op rules are built from.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_SHARDINGRULEOPINTERFACE_H
#define TORUS_IR_SHARDINGRULEOPINTERFACE_H

#include "ir/TorusAttrs.h"

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::torus {

/// The elementwise rule (the interface's default): the identity map when
/// operand `operand` has the shape of result `result`, else nullopt.
std::optional<SmallVector<int64_t>>
elementwiseDimMap(Operation *op, unsigned operand, unsigned result);

/// The identity map on `rank` dimensions with -1 where `keep` is false.
SmallVector<int64_t> identityDimMapKeeping(int64_t rank,
                                           function_ref<bool(int64_t)> keep);

/// The dimensions `map` sends nowhere (-1): for a rank-preserving op, the
/// result dimensions it blocks.
SmallVector<int64_t> unmappedDims(ArrayRef<int64_t> map);

} // namespace mlir::torus

#include "ir/ShardingRuleOpInterface.h.inc"

#endif // TORUS_IR_SHARDINGRULEOPINTERFACE_H
