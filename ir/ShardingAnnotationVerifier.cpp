//===- ShardingAnnotationVerifier.cpp - Checking torus.sharding -----------===//
//
// The torus dialect's attribute verifiers. `torus.sharding` is a
// #torus.sharding, HLO sharding text, or an array of either (one per result
// of an op); wherever it sits it must parse and, on a function's argument
// or result, fit the tensor's rank. This holds whatever the partition
// count: a module with one partition skips the sharding passes, which
// would otherwise be the first to read the annotation, so without these
// checks garbage there was accepted. Partition counts are checked by the
// sharding passes, which know them.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/TorusDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::torus;

namespace {

/// Checks one annotation (not an array): it parses and, when `type` is a
/// ranked tensor, fits its rank. `emitError` starts the message.
LogicalResult verifyOne(Attribute attr, Type type, MLIRContext *ctx,
                        function_ref<InFlightDiagnostic()> emitError) {
  if (!isa<ShardingAttr, StringAttr>(attr))
    return emitError() << "has a " << kShardingAttrName
                       << " attribute that is not a sharding (or not one per "
                          "result): "
                       << attr;
  std::string error;
  ShardingAttr sharding = toShardingAttr(attr, ctx, &error);
  if (!sharding)
    return emitError() << error;
  if (auto tensor = dyn_cast_if_present<RankedTensorType>(type))
    return sharding.verifyFor(tensor.getShape(), /*numPartitions=*/0,
                              emitError);
  return success();
}

/// An annotation, possibly an array of them (one per value of `types`).
LogicalResult verifyAnnotation(Attribute attr, TypeRange types,
                               MLIRContext *ctx,
                               function_ref<InFlightDiagnostic()> emitError) {
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (auto [i, element] : llvm::enumerate(array)) {
      Type type = i < types.size() && array.size() == types.size()
                      ? types[i]
                      : Type();
      if (failed(verifyOne(element, type, ctx, [&] {
            return emitError() << "sharding " << i << ": ";
          })))
        return failure();
    }
    return success();
  }
  return verifyOne(attr, types.size() == 1 ? types.front() : Type(), ctx,
                   emitError);
}

} // namespace

LogicalResult TorusDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute named) {
  if (named.getName() != kShardingAttrName)
    return success();
  return verifyAnnotation(named.getValue(), op->getResultTypes(),
                          op->getContext(), [op] { return op->emitOpError(); });
}

LogicalResult TorusDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned /*region*/,
                                                     unsigned argIndex,
                                                     NamedAttribute named) {
  if (named.getName() != kShardingAttrName)
    return success();
  Type type;
  if (auto fn = dyn_cast<FunctionOpInterface>(op))
    if (argIndex < fn.getNumArguments())
      type = fn.getArgumentTypes()[argIndex];
  return verifyAnnotation(named.getValue(), type ? TypeRange(type) : TypeRange(),
                          op->getContext(), [op, argIndex] {
                            return op->emitError("argument ") << argIndex
                                                              << ": ";
                          });
}

LogicalResult TorusDialect::verifyRegionResultAttribute(Operation *op,
                                                        unsigned /*region*/,
                                                        unsigned resultIndex,
                                                        NamedAttribute named) {
  if (named.getName() != kShardingAttrName)
    return success();
  Type type;
  if (auto fn = dyn_cast<FunctionOpInterface>(op))
    if (resultIndex < fn.getNumResults())
      type = fn.getResultTypes()[resultIndex];
  return verifyAnnotation(named.getValue(), type ? TypeRange(type) : TypeRange(),
                          op->getContext(), [op, resultIndex] {
                            return op->emitError("result ") << resultIndex
                                                            << ": ";
                          });
}
