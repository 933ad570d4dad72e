//===- TensorTypes.h - TensorSpec and MLIR tensor types ---------*- C++ -*-===//
//
// The public API's tensor description (torus/Types.h) as an MLIR type and
// back: the tracer builds its ops' types with it, the compiler reads the
// entry function's types into the program spec.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_TENSORTYPES_H
#define TORUS_IR_TENSORTYPES_H

#include "torus/Types.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace torus {

/// The MLIR element type of `dtype`.
mlir::Type toMlirElementType(mlir::MLIRContext *ctx, DType dtype);
/// The static tensor type of `spec`.
mlir::RankedTensorType toMlirType(mlir::MLIRContext *ctx,
                                  const TensorSpec &spec);
/// The TensorSpec of a static tensor type; nullopt for any other type or
/// an element type without a DType.
std::optional<TensorSpec> fromMlirType(mlir::Type type);

} // namespace torus

#endif // TORUS_IR_TENSORTYPES_H
