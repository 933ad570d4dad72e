//===- TorusOps.cpp - The torus dialect and its attributes ----------------===//
//
// Dialect registration, the constant materializer and the
// `#torus.conv<...>` attribute. The ops' verifiers, builders and folders
// live in ir/ops/, one file per family.
//
//===----------------------------------------------------------------------===//

#include "ir/TorusOps.h"
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
// #torus.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
//===----------------------------------------------------------------------===//

namespace {
/// Prints one layout: `[b, 0, 1, f]`, one entry per tensor dimension.
void printLayout(llvm::raw_ostream &os, int64_t batch, int64_t feature,
                 ArrayRef<int64_t> spatial, char batchChar, char featureChar) {
  int64_t rank = 2 + spatial.size();
  os << '[';
  for (int64_t d = 0; d < rank; ++d) {
    if (d)
      os << ", ";
    if (d == batch)
      os << batchChar;
    else if (d == feature)
      os << featureChar;
    else if (const int64_t *it = llvm::find(spatial, d); it != spatial.end())
      os << (it - spatial.begin());
    else
      os << '?';
  }
  os << ']';
}

/// Parses one layout; `batchKw`/`featureKw` are its two letters.
ParseResult parseLayout(AsmParser &parser, StringRef batchKw,
                        StringRef featureKw, int64_t &batch, int64_t &feature,
                        SmallVectorImpl<int64_t> &spatial) {
  batch = feature = -1;
  SmallVector<std::pair<int64_t, int64_t>> spatialAt; // (index, position)
  int64_t position = 0;
  llvm::SMLoc loc = parser.getCurrentLocation();
  auto parseEntry = [&]() -> ParseResult {
    int64_t index;
    OptionalParseResult number = parser.parseOptionalInteger(index);
    if (number.has_value()) {
      if (failed(*number))
        return failure();
      spatialAt.push_back({index, position++});
      return success();
    }
    StringRef keyword;
    llvm::SMLoc kwLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    int64_t *slot = keyword == batchKw     ? &batch
                    : keyword == featureKw ? &feature
                                           : nullptr;
    if (!slot)
      return parser.emitError(kwLoc)
             << "expected '" << batchKw << "', '" << featureKw
             << "' or a spatial dimension number, got '" << keyword << "'";
    if (*slot != -1)
      return parser.emitError(kwLoc) << "'" << keyword << "' appears twice";
    *slot = position++;
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseEntry))
    return failure();
  if (batch < 0 || feature < 0)
    return parser.emitError(loc) << "layout needs both '" << batchKw
                                 << "' and '" << featureKw << "'";
  spatial.assign(spatialAt.size(), -1);
  for (auto [index, pos] : spatialAt) {
    if (index < 0 || index >= static_cast<int64_t>(spatialAt.size()) ||
        spatial[index] != -1)
      return parser.emitError(loc)
             << "spatial dimensions must be numbered 0 to "
             << spatialAt.size() - 1 << ", each once";
    spatial[index] = pos;
  }
  return success();
}

ParseResult parseConvDims(AsmParser &parser, ConvDimensionNumbersAttr &attr) {
  int64_t ib, ifeat, ki, ko, ob, of;
  SmallVector<int64_t> is, ks, os;
  if (parseLayout(parser, "b", "f", ib, ifeat, is) || parser.parseKeyword("x") ||
      parseLayout(parser, "i", "o", ki, ko, ks) || parser.parseArrow() ||
      parseLayout(parser, "b", "f", ob, of, os))
    return failure();
  attr = ConvDimensionNumbersAttr::get(parser.getContext(), ib, ifeat, is, ki,
                                       ko, ks, ob, of, os);
  return success();
}

void printConvDims(llvm::raw_ostream &os, ConvDimensionNumbersAttr attr) {
  printLayout(os, attr.getInputBatchDimension(),
              attr.getInputFeatureDimension(),
              attr.getInputSpatialDimensions(), 'b', 'f');
  os << 'x';
  printLayout(os, attr.getKernelInputFeatureDimension(),
              attr.getKernelOutputFeatureDimension(),
              attr.getKernelSpatialDimensions(), 'i', 'o');
  os << "->";
  printLayout(os, attr.getOutputBatchDimension(),
              attr.getOutputFeatureDimension(),
              attr.getOutputSpatialDimensions(), 'b', 'f');
}
} // namespace

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
