//===- TensorTypes.cpp - TensorSpec and MLIR tensor types -----------------===//

#include "ir/TensorTypes.h"

#include "mlir/IR/Builders.h"

namespace torus {

mlir::Type toMlirElementType(mlir::MLIRContext *ctx, DType dtype) {
  mlir::Builder b(ctx);
  switch (dtype) {
  case DType::F32:
    return b.getF32Type();
  case DType::F64:
    return b.getF64Type();
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  case DType::I1:
    return b.getI1Type();
  case DType::I32:
    return b.getI32Type();
  case DType::I64:
    return b.getI64Type();
  }
  return {};
}

mlir::RankedTensorType toMlirType(mlir::MLIRContext *ctx,
                                  const TensorSpec &spec) {
  return mlir::RankedTensorType::get(spec.shape,
                                     toMlirElementType(ctx, spec.dtype));
}

std::optional<TensorSpec> fromMlirType(mlir::Type type) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  mlir::Type et = tensor.getElementType();
  std::optional<DType> dtype;
  if (et.isF32())
    dtype = DType::F32;
  else if (et.isF64())
    dtype = DType::F64;
  else if (et.isF16())
    dtype = DType::F16;
  else if (et.isBF16())
    dtype = DType::BF16;
  else if (et.isSignlessInteger(1))
    dtype = DType::I1;
  else if (et.isSignlessInteger(32))
    dtype = DType::I32;
  else if (et.isSignlessInteger(64))
    dtype = DType::I64;
  if (!dtype)
    return std::nullopt;
  return TensorSpec{*dtype, Shape(tensor.getShape().begin(),
                                  tensor.getShape().end())};
}

} // namespace torus
