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
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
    return b.getIntegerType(8 * byteWidth(dtype));
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return b.getIntegerType(8 * byteWidth(dtype), /*isSigned=*/false);
  case DType::C64:
    return mlir::ComplexType::get(b.getF32Type());
  case DType::C128:
    return mlir::ComplexType::get(b.getF64Type());
  case DType::F8E4M3FN:
    return b.getFloat8E4M3FNType();
  case DType::F8E5M2:
    return b.getFloat8E5M2Type();
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
  else if (et.isFloat8E4M3FN())
    dtype = DType::F8E4M3FN;
  else if (et.isFloat8E5M2())
    dtype = DType::F8E5M2;
  else if (auto ct = mlir::dyn_cast<mlir::ComplexType>(et)) {
    if (ct.getElementType().isF32())
      dtype = DType::C64;
    else if (ct.getElementType().isF64())
      dtype = DType::C128;
  } else if (auto it = mlir::dyn_cast<mlir::IntegerType>(et)) {
    // Signless integers are the signed types (HLO's s8..s64), as in HLO.
    for (DType d : kAllDTypes)
      if (!isFloat(d) && !isComplex(d) && toMlirElementType(et.getContext(), d) == et)
        dtype = d;
  }
  if (!dtype)
    return std::nullopt;
  return TensorSpec{*dtype, Shape(tensor.getShape().begin(),
                                  tensor.getShape().end())};
}

} // namespace torus
