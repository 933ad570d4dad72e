//===- TorusOps.cpp - The torus dialect and its attributes ----------------===//
//
// Dialect registration, the constant materializer and the
// `#torus.conv<...>` attribute. The ops' verifiers, builders and folders
// live in ir/ops/, one file per family.
//
//===----------------------------------------------------------------------===//

#include "ir/TorusOps.h"
#include "ir/ConvLayoutSyntax.h"
#include "ir/GradBuilder.h"
#include "ir/ShapeRules.h"
#include "ir/ops/OpUtils.h"
#include "ir/ops/ScalarMath.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::torus;

#include "ir/TorusDialect.cpp.inc"
#include "ir/TorusEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// #torus.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]> (ir/ConvLayoutSyntax.h)
//===----------------------------------------------------------------------===//

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  ConvDimensionNumbersAttr attr;
  if (parser.parseLess() || parseConvDims(parser, attr) ||
      parser.parseGreater())
    return {};
  return attr;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printConvDims(printer.getStream(), *this);
  printer << '>';
}

/// The custom<ConvDimensionNumbers> directive of torus.convolution: the
/// attribute without its `#torus.conv<...>` wrapper.
static ParseResult parseConvDimensionNumbers(OpAsmParser &parser,
                                             ConvDimensionNumbersAttr &attr) {
  return parseConvDims(parser, attr);
}
static void printConvDimensionNumbers(OpAsmPrinter &printer, Operation *,
                                      ConvDimensionNumbersAttr attr) {
  printConvDims(printer.getStream(), attr);
}

ConvDims mlir::torus::toConvDims(ConvDimensionNumbersAttr attr) {
  ConvDims d;
  d.inputBatch = attr.getInputBatchDimension();
  d.inputFeature = attr.getInputFeatureDimension();
  d.inputSpatial.assign(attr.getInputSpatialDimensions().begin(),
                        attr.getInputSpatialDimensions().end());
  d.kernelInputFeature = attr.getKernelInputFeatureDimension();
  d.kernelOutputFeature = attr.getKernelOutputFeatureDimension();
  d.kernelSpatial.assign(attr.getKernelSpatialDimensions().begin(),
                         attr.getKernelSpatialDimensions().end());
  d.outputBatch = attr.getOutputBatchDimension();
  d.outputFeature = attr.getOutputFeatureDimension();
  d.outputSpatial.assign(attr.getOutputSpatialDimensions().begin(),
                         attr.getOutputSpatialDimensions().end());
  return d;
}

#define GET_ATTRDEF_CLASSES
#include "ir/TorusAttrs.cpp.inc"

#include "ir/HloOpInterface.cpp.inc"
#include "ir/ScalarOpInterface.cpp.inc"

#define GET_OP_CLASSES
#include "ir/TorusOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void TorusDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/TorusAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ir/TorusOps.cpp.inc"
      >();
}

Operation *TorusDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, type, elements);
}

TypedAttr mlir::torus::reduceIdentity(ReduceKind kind, Type t) {
  Builder b(t.getContext());
  if (auto ft = dyn_cast<FloatType>(t)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (kind) {
    case ReduceKind::sum:
      return b.getFloatAttr(ft, APFloat::getZero(sem));
    case ReduceKind::product:
      return b.getFloatAttr(ft, APFloat::getOne(sem));
    case ReduceKind::max:
      return b.getFloatAttr(ft, APFloat::getInf(sem, /*Negative=*/true));
    case ReduceKind::min:
      return b.getFloatAttr(ft, APFloat::getInf(sem, /*Negative=*/false));
    case ReduceKind::And:
    case ReduceKind::Or:
      return {};
    }
  }
  unsigned width = t.getIntOrFloatBitWidth();
  APInt value(width, 0);
  switch (kind) {
  case ReduceKind::sum:
  case ReduceKind::Or:
    break;
  case ReduceKind::product:
    value = APInt(width, 1);
    break;
  case ReduceKind::max:
    value = width == 1 || t.isUnsignedInteger()
                ? APInt::getMinValue(width)
                : APInt::getSignedMinValue(width);
    break;
  case ReduceKind::min:
    value = width == 1 || t.isUnsignedInteger()
                ? APInt::getMaxValue(width)
                : APInt::getSignedMaxValue(width);
    break;
  case ReduceKind::And:
    value = APInt::getAllOnes(width);
    break;
  }
  return b.getIntegerAttr(t, value);
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
