//===- StablehloOps.cpp - The stablehlo dialect ---------------------------===//
//
// The dialect's attributes and the custom directives of the pretty forms
// StableHLO's printer writes (`custom<...>` in StablehloOps.td), plus the
// hand-written forms of constant, reduce and while.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/StablehloOps.h"
#include "ir/ConvLayoutSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stablehlo;

#include "ir/stablehlo/StablehloDialect.cpp.inc"
#include "ir/stablehlo/StablehloEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

namespace {

ParseResult parseIntList(AsmParser &parser, SmallVectorImpl<int64_t> &out) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

void printIntList(llvm::raw_ostream &os, ArrayRef<int64_t> values) {
  os << '[';
  llvm::interleaveComma(values, os);
  os << ']';
}

/// One `name = [..]` or `name = N` entry of a struct-like attribute.
struct Field {
  StringRef name;
  SmallVector<int64_t> *list = nullptr;
  int64_t *scalar = nullptr;
};

/// `<name = [1, 2], other = 3>`, any subset of `fields` in any order.
ParseResult parseFields(AsmParser &parser, ArrayRef<Field> fields) {
  if (parser.parseLess())
    return failure();
  if (succeeded(parser.parseOptionalGreater()))
    return success();
  do {
    StringRef name;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name) || parser.parseEqual())
      return failure();
    const Field *field = llvm::find_if(
        fields, [&](const Field &f) { return f.name == name; });
    if (field == fields.end())
      return parser.emitError(loc) << "unknown field '" << name << "'";
    if (field->list ? parseIntList(parser, *field->list)
                    : parser.parseInteger(*field->scalar))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseGreater();
}

/// Prints the non-empty lists and non-zero scalars of `fields`.
void printFields(AsmPrinter &printer, ArrayRef<Field> fields) {
  llvm::raw_ostream &os = printer.getStream();
  os << '<';
  bool first = true;
  for (const Field &f : fields) {
    if (f.list ? f.list->empty() : *f.scalar == 0)
      continue;
    if (!first)
      os << ", ";
    first = false;
    os << f.name << " = ";
    if (f.list)
      printIntList(os, *f.list);
    else
      os << *f.scalar;
  }
  os << '>';
}

SmallVector<int64_t> vec(ArrayRef<int64_t> a) { return {a.begin(), a.end()}; }

} // namespace

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

Attribute GatherDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> offset, collapsed, operandBatching, indicesBatching,
      startIndexMap;
  int64_t indexVectorDim = 0;
  if (parseFields(parser, {{"offset_dims", &offset},
                           {"collapsed_slice_dims", &collapsed},
                           {"operand_batching_dims", &operandBatching},
                           {"start_indices_batching_dims", &indicesBatching},
                           {"start_index_map", &startIndexMap},
                           {"index_vector_dim", nullptr, &indexVectorDim}}))
    return {};
  return get(parser.getContext(), offset, collapsed, operandBatching,
             indicesBatching, startIndexMap, indexVectorDim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &printer) const {
  SmallVector<int64_t> offset = vec(getOffsetDims()),
                       collapsed = vec(getCollapsedSliceDims()),
                       operandBatching = vec(getOperandBatchingDims()),
                       indicesBatching = vec(getStartIndicesBatchingDims()),
                       startIndexMap = vec(getStartIndexMap());
  int64_t indexVectorDim = getIndexVectorDim();
  printFields(printer, {{"offset_dims", &offset},
                        {"collapsed_slice_dims", &collapsed},
                        {"operand_batching_dims", &operandBatching},
                        {"start_indices_batching_dims", &indicesBatching},
                        {"start_index_map", &startIndexMap},
                        {"index_vector_dim", nullptr, &indexVectorDim}});
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> updateWindow, inserted, inputBatching, indicesBatching,
      toOperand;
  int64_t indexVectorDim = 0;
  if (parseFields(parser,
                  {{"update_window_dims", &updateWindow},
                   {"inserted_window_dims", &inserted},
                   {"input_batching_dims", &inputBatching},
                   {"scatter_indices_batching_dims", &indicesBatching},
                   {"scatter_dims_to_operand_dims", &toOperand},
                   {"index_vector_dim", nullptr, &indexVectorDim}}))
    return {};
  return get(parser.getContext(), updateWindow, inserted, inputBatching,
             indicesBatching, toOperand, indexVectorDim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &printer) const {
  SmallVector<int64_t> updateWindow = vec(getUpdateWindowDims()),
                       inserted = vec(getInsertedWindowDims()),
                       inputBatching = vec(getInputBatchingDims()),
                       indicesBatching = vec(getScatterIndicesBatchingDims()),
                       toOperand = vec(getScatterDimsToOperandDims());
  int64_t indexVectorDim = getIndexVectorDim();
  printFields(printer,
              {{"update_window_dims", &updateWindow},
               {"inserted_window_dims", &inserted},
               {"input_batching_dims", &inputBatching},
               {"scatter_indices_batching_dims", &indicesBatching},
               {"scatter_dims_to_operand_dims", &toOperand},
               {"index_vector_dim", nullptr, &indexVectorDim}});
}

Attribute DotDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> lb, rb, lc, rc;
  if (parseFields(parser, {{"lhs_batching_dimensions", &lb},
                           {"rhs_batching_dimensions", &rb},
                           {"lhs_contracting_dimensions", &lc},
                           {"rhs_contracting_dimensions", &rc}}))
    return {};
  return get(parser.getContext(), lb, rb, lc, rc);
}

void DotDimensionNumbersAttr::print(AsmPrinter &printer) const {
  SmallVector<int64_t> lb = vec(getLhsBatchingDimensions()),
                       rb = vec(getRhsBatchingDimensions()),
                       lc = vec(getLhsContractingDimensions()),
                       rc = vec(getRhsContractingDimensions());
  printFields(printer, {{"lhs_batching_dimensions", &lb},
                        {"rhs_batching_dimensions", &rb},
                        {"lhs_contracting_dimensions", &lc},
                        {"rhs_contracting_dimensions", &rc}});
}

// #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]> (ir/ConvLayoutSyntax.h)

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  ConvDimensionNumbersAttr attr;
  if (parser.parseLess() || torus::parseConvDims(parser, attr) ||
      parser.parseGreater())
    return {};
  return attr;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printer << '<';
  torus::printConvDims(printer.getStream(), *this);
  printer << '>';
}

#define GET_ATTRDEF_CLASSES
#include "ir/stablehlo/StablehloAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

namespace {

/// `: T` when every type is T, else `: (operand types) -> result type`.
ParseResult parseSameTypes(OpAsmParser &parser, ArrayRef<Type *> types) {
  Type type;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != types.size() - 1 || fn.getNumResults() != 1)
      return parser.emitError(loc)
             << "expected " << types.size() - 1
             << " operand types and one result type";
    for (auto [i, t] : llvm::enumerate(fn.getInputs()))
      *types[i] = t;
    *types.back() = fn.getResult(0);
    return success();
  }
  for (Type *t : types)
    *t = type;
  return success();
}

void printSameTypes(OpAsmPrinter &p, ArrayRef<Type> types) {
  if (llvm::all_equal(types)) {
    p << types.front();
    return;
  }
  p.printFunctionalType(types.drop_back(), TypeRange{types.back()});
}

} // namespace

template <typename... T>
static ParseResult parseSameOperandsAndResultType(OpAsmParser &parser,
                                                  T &...types) {
  Type *ptrs[] = {&types...};
  return parseSameTypes(parser, ptrs);
}

template <typename... T>
static void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *,
                                           T... types) {
  Type list[] = {Type(types)...};
  printSameTypes(p, list);
}

/// select: `: pred_type, value_type` or the functional type.
static ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred,
                                     Type &onTrue, Type &onFalse,
                                     Type &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  SmallVector<Type> types;
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() == 1) {
    auto fn = dyn_cast<FunctionType>(types[0]);
    if (!fn || fn.getNumInputs() != 3 || fn.getNumResults() != 1)
      return parser.emitError(loc) << "expected '(pred, on_true, on_false) -> "
                                      "result' or 'pred, result' types";
    pred = fn.getInput(0);
    onTrue = fn.getInput(1);
    onFalse = fn.getInput(2);
    result = fn.getResult(0);
    return success();
  }
  if (types.size() != 2)
    return parser.emitError(loc) << "expected 'pred, result' types";
  pred = types[0];
  onTrue = onFalse = result = types[1];
  return success();
}

static void printSelectOpType(OpAsmPrinter &p, Operation *, Type pred,
                              Type onTrue, Type onFalse, Type result) {
  if (onTrue == result && onFalse == result) {
    p << pred << ", " << result;
    return;
  }
  p.printFunctionalType(TypeRange{pred, onTrue, onFalse}, TypeRange{result});
}

/// complex: `: tensor<..xcomplex<f32>>` (operands of the part type) or the
/// functional type.
static ParseResult parseComplexOpType(OpAsmParser &parser, Type &lhs,
                                      Type &rhs, Type &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != 2 || fn.getNumResults() != 1)
      return parser.emitError(loc) << "expected two operand types";
    lhs = fn.getInput(0);
    rhs = fn.getInput(1);
    result = fn.getResult(0);
    return success();
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto complex =
      tensor ? dyn_cast<ComplexType>(tensor.getElementType()) : ComplexType();
  if (!complex)
    return parser.emitError(loc) << "expected a tensor of complex type";
  result = type;
  lhs = rhs = tensor.clone(complex.getElementType());
  return success();
}

static void printComplexOpType(OpAsmPrinter &p, Operation *, Type lhs, Type rhs,
                               Type result) {
  auto tensor = cast<RankedTensorType>(result);
  auto complex = dyn_cast<ComplexType>(tensor.getElementType());
  if (complex && lhs == rhs &&
      lhs == tensor.clone(complex.getElementType())) {
    p << result;
    return;
  }
  p.printFunctionalType(TypeRange{lhs, rhs}, TypeRange{result});
}

/// reduce_precision: `e5m10`.
static ParseResult parseExponentMantissa(OpAsmParser &parser,
                                         IntegerAttr &exponent,
                                         IntegerAttr &mantissa) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  unsigned e = 0, m = 0;
  size_t mPos = word.find('m');
  if (!word.consume_front("e") || mPos == StringRef::npos ||
      word.substr(0, mPos - 1).getAsInteger(10, e) ||
      word.substr(mPos).getAsInteger(10, m))
    return parser.emitError(loc)
           << "expected a format 'eXmY' (exponent and mantissa bits)";
  auto i32 = IntegerType::get(parser.getContext(), 32);
  exponent = IntegerAttr::get(i32, e);
  mantissa = IntegerAttr::get(i32, m);
  return success();
}

static void printExponentMantissa(OpAsmPrinter &p, Operation *,
                                  IntegerAttr exponent, IntegerAttr mantissa) {
  p << 'e' << exponent.getInt() << 'm' << mantissa.getInt();
}

/// slice: `[1:5:2, 0:3]`.
static ParseResult parseSliceRanges(OpAsmParser &parser,
                                    DenseI64ArrayAttr &start,
                                    DenseI64ArrayAttr &limit,
                                    DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> s, l, st;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        int64_t a, b, c = 1;
        if (parser.parseInteger(a) || parser.parseColon() ||
            parser.parseInteger(b))
          return failure();
        if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(c))
          return failure();
        s.push_back(a);
        l.push_back(b);
        st.push_back(c);
        return success();
      }))
    return failure();
  MLIRContext *ctx = parser.getContext();
  start = DenseI64ArrayAttr::get(ctx, s);
  limit = DenseI64ArrayAttr::get(ctx, l);
  strides = DenseI64ArrayAttr::get(ctx, st);
  return success();
}

static void printSliceRanges(OpAsmPrinter &p, Operation *,
                             DenseI64ArrayAttr start, DenseI64ArrayAttr limit,
                             DenseI64ArrayAttr strides) {
  p << '[';
  for (size_t i = 0; i < start.size(); ++i) {
    if (i)
      p << ", ";
    p << start[i] << ':' << limit[i];
    if (i < strides.size() && strides[i] != 1)
      p << ':' << strides[i];
  }
  p << ']';
}

/// `%a, %b, ` before a keyword: each operand followed by a comma.
static ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  while (true) {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult r = parser.parseOptionalOperand(operand);
    if (!r.has_value())
      return success();
    if (failed(*r) || parser.parseComma())
      return failure();
    operands.push_back(operand);
  }
}

static void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *,
                                              OperandRange operands) {
  for (Value v : operands)
    p << v << ", ";
}

static ParseResult parsePrecisionConfig(OpAsmParser &parser, ArrayAttr &attr);
static void printPrecisionConfig(OpAsmPrinter &p, Operation *, ArrayAttr attr);

/// dot_general: `batching_dims = [0] x [0], contracting_dims = [2] x [1]`
/// (the batching part only when there are batch dimensions), then the
/// optional `, precision = [...]`.
static ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                            DotDimensionNumbersAttr &attr,
                                            ArrayAttr &precision) {
  SmallVector<int64_t> lb, rb, lc, rc;
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parser.parseEqual() || parseIntList(parser, lb) ||
        parser.parseKeyword("x") || parseIntList(parser, rb) ||
        parser.parseComma())
      return failure();
  }
  if (parser.parseKeyword("contracting_dims") || parser.parseEqual() ||
      parseIntList(parser, lc) || parser.parseKeyword("x") ||
      parseIntList(parser, rc))
    return failure();
  attr = DotDimensionNumbersAttr::get(parser.getContext(), lb, rb, lc, rc);
  return parsePrecisionConfig(parser, precision);
}

static void printDotDimensionNumbers(OpAsmPrinter &p, Operation *op,
                                     DotDimensionNumbersAttr attr,
                                     ArrayAttr precision) {
  llvm::raw_ostream &os = p.getStream();
  if (!attr.getLhsBatchingDimensions().empty() ||
      !attr.getRhsBatchingDimensions().empty()) {
    os << "batching_dims = ";
    printIntList(os, attr.getLhsBatchingDimensions());
    os << " x ";
    printIntList(os, attr.getRhsBatchingDimensions());
    os << ", ";
  }
  os << "contracting_dims = ";
  printIntList(os, attr.getLhsContractingDimensions());
  os << " x ";
  printIntList(os, attr.getRhsContractingDimensions());
  printPrecisionConfig(p, op, precision);
}

/// `, precision = [DEFAULT, HIGHEST]`, optional.
static ParseResult parsePrecisionConfig(OpAsmParser &parser, ArrayAttr &attr) {
  if (failed(parser.parseOptionalComma()))
    return success();
  SmallVector<Attribute> values;
  if (parser.parseKeyword("precision") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        llvm::SMLoc loc = parser.getCurrentLocation();
        StringRef word;
        if (parser.parseKeyword(&word))
          return failure();
        std::optional<Precision> p = symbolizePrecision(word);
        if (!p)
          return parser.emitError(loc) << "unknown precision '" << word << "'";
        values.push_back(PrecisionAttr::get(parser.getContext(), *p));
        return success();
      }))
    return failure();
  attr = ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printPrecisionConfig(OpAsmPrinter &p, Operation *, ArrayAttr attr) {
  if (!attr)
    return;
  p << ", precision = [";
  llvm::interleaveComma(attr, p, [&](Attribute a) {
    p << stringifyPrecision(cast<PrecisionAttr>(a).getValue());
  });
  p << ']';
}

static ParseResult parseConvolutionDimensions(OpAsmParser &parser,
                                              ConvDimensionNumbersAttr &attr) {
  return torus::parseConvDims(parser, attr);
}

static void printConvolutionDimensions(OpAsmPrinter &p, Operation *,
                                       ConvDimensionNumbersAttr attr) {
  torus::printConvDims(p.getStream(), attr);
}

/// convolution: `{stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..],
/// rhs_dilate = [..], reverse = [..]}`, each entry optional.
static ParseResult
parseWindowAttributes(OpAsmParser &parser, DenseI64ArrayAttr &strides,
                      DenseIntElementsAttr &padding,
                      DenseI64ArrayAttr &lhsDilation,
                      DenseI64ArrayAttr &rhsDilation,
                      DenseBoolArrayAttr &reversal) {
  MLIRContext *ctx = parser.getContext();
  if (parser.parseLBrace())
    return failure();
  if (succeeded(parser.parseOptionalRBrace()))
    return success();
  do {
    StringRef name;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name) || parser.parseEqual())
      return failure();
    if (name == "stride" || name == "lhs_dilate" || name == "rhs_dilate") {
      SmallVector<int64_t> v;
      if (parseIntList(parser, v))
        return failure();
      auto attr = DenseI64ArrayAttr::get(ctx, v);
      (name == "stride"       ? strides
       : name == "lhs_dilate" ? lhsDilation
                              : rhsDilation) = attr;
    } else if (name == "pad") {
      SmallVector<int64_t> flat;
      int64_t rows = 0;
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SmallVector<int64_t> pair;
            llvm::SMLoc pairLoc = parser.getCurrentLocation();
            if (parseIntList(parser, pair))
              return failure();
            if (pair.size() != 2)
              return parser.emitError(pairLoc) << "expected [low, high]";
            flat.append(pair);
            ++rows;
            return success();
          }))
        return failure();
      auto type = RankedTensorType::get({rows, 2}, IntegerType::get(ctx, 64));
      padding = DenseIntElementsAttr::get(type, flat);
    } else if (name == "reverse") {
      SmallVector<bool> v;
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t i;
            OptionalParseResult r = parser.parseOptionalInteger(i);
            if (r.has_value()) {
              v.push_back(i != 0);
              return *r;
            }
            StringRef word;
            if (parser.parseKeyword(&word) ||
                (word != "true" && word != "false"))
              return parser.emitError(parser.getCurrentLocation())
                     << "expected true or false";
            v.push_back(word == "true");
            return success();
          }))
        return failure();
      reversal = DenseBoolArrayAttr::get(ctx, v);
    } else {
      return parser.emitError(loc) << "unknown window attribute '" << name
                                   << "'";
    }
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRBrace();
}

static void printWindowAttributes(OpAsmPrinter &p, Operation *,
                                  DenseI64ArrayAttr strides,
                                  DenseIntElementsAttr padding,
                                  DenseI64ArrayAttr lhsDilation,
                                  DenseI64ArrayAttr rhsDilation,
                                  DenseBoolArrayAttr reversal) {
  llvm::raw_ostream &os = p.getStream();
  SmallVector<std::string> parts;
  auto list = [&](StringRef name, DenseI64ArrayAttr a) {
    if (!a)
      return;
    std::string s;
    llvm::raw_string_ostream ss(s);
    ss << name << " = ";
    printIntList(ss, a.asArrayRef());
    parts.push_back(s);
  };
  list("stride", strides);
  if (padding) {
    std::string s;
    llvm::raw_string_ostream ss(s);
    ss << "pad = [";
    SmallVector<int64_t> flat(padding.getValues<int64_t>());
    for (size_t i = 0; i + 1 < flat.size(); i += 2)
      ss << (i ? ", " : "") << '[' << flat[i] << ", " << flat[i + 1] << ']';
    ss << ']';
    parts.push_back(s);
  }
  list("lhs_dilate", lhsDilation);
  list("rhs_dilate", rhsDilation);
  if (reversal) {
    std::string s;
    llvm::raw_string_ostream ss(s);
    ss << "reverse = [";
    llvm::interleaveComma(reversal.asArrayRef(), ss,
                          [&](bool b) { ss << (b ? "true" : "false"); });
    ss << ']';
    parts.push_back(s);
  }
  os << '{';
  llvm::interleaveComma(parts, os);
  os << '}';
}

/// custom_call: `@target` (dots allowed).
static ParseResult parseCustomCallTarget(OpAsmParser &parser,
                                         StringAttr &target) {
  return parser.parseSymbolName(target);
}

static void printCustomCallTarget(OpAsmPrinter &p, Operation *,
                                  StringAttr target) {
  p.printSymbolName(target.getValue());
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  llvm::SMLoc loc = parser.getCurrentLocation();
  Attribute value;
  if (parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc) << "expected a dense elements value";
  result.addAttribute("value", elements);
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  Type element = getValue().getElementType();
  setNameFn(getResult(),
            isa<FloatType, ComplexType>(element) ? "cst" : "c");
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

namespace {

/// The op of a body that is `%r = op %lhs, %rhs; return %r` on its two
/// arguments, in order: what the compact form names.
Operation *compactReducer(ReduceOp op) {
  if (op.getInputs().size() != 1)
    return nullptr;
  Block &body = op.getBody().front();
  if (body.getNumArguments() != 2 || !llvm::hasNItems(body, 2))
    return nullptr;
  Operation &inner = body.front();
  auto ret = dyn_cast<ReturnOp>(body.back());
  if (!ret || ret->getNumOperands() != 1 ||
      ret->getOperand(0).getDefiningOp() != &inner)
    return nullptr;
  if (inner.getDialect() != op->getDialect() || inner.getNumOperands() != 2 ||
      inner.getNumResults() != 1 || inner.getNumRegions() != 0 ||
      !inner.getAttrs().empty() || inner.getOperand(0) != body.getArgument(0) ||
      inner.getOperand(1) != body.getArgument(1) ||
      inner.getResult(0).getType() != body.getArgument(0).getType() ||
      body.getArgument(0).getType() != body.getArgument(1).getType())
    return nullptr;
  return &inner;
}

} // namespace

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  do {
    OpAsmParser::UnresolvedOperand input, init;
    if (parser.parseLParen() || parser.parseOperand(input) ||
        parser.parseKeyword("init") || parser.parseColon() ||
        parser.parseOperand(init) || parser.parseRParen())
      return failure();
    inputs.push_back(input);
    inits.push_back(init);
  } while (succeeded(parser.parseOptionalComma()));
  StringRef reducerName;
  llvm::SMLoc reducerLoc;
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    reducerLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&reducerName))
      return failure();
  }
  SmallVector<int64_t> dims;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseIntList(parser, dims) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addAttribute("dimensions",
                      DenseI64ArrayAttr::get(parser.getContext(), dims));
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  FunctionType fnType;
  if (parser.parseColonType(fnType))
    return failure();
  size_t n = inputs.size();
  if (fnType.getNumInputs() != 2 * n || fnType.getNumResults() != n)
    return parser.emitError(typeLoc)
           << "expected " << 2 * n << " operand types and " << n
           << " result types";
  SmallVector<OpAsmParser::UnresolvedOperand> all(inputs);
  all.append(inits);
  if (parser.resolveOperands(all, fnType.getInputs(), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(fnType.getResults());
  TypeRange initTypes = fnType.getInputs().drop_front(n);
  Region *body = result.addRegion();
  if (!reducerName.empty()) {
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(reducerName, parser.getContext());
    if (!name)
      return parser.emitError(reducerLoc)
             << "unknown reducer op '" << reducerName << "'";
    Block *block = new Block();
    body->push_back(block);
    Type t = initTypes[0];
    Location loc = parser.getEncodedSourceLoc(reducerLoc);
    block->addArguments({t, t}, {loc, loc});
    OpBuilder b(parser.getContext());
    b.setInsertionPointToEnd(block);
    OperationState state(loc, *name);
    state.addOperands(block->getArguments());
    state.addTypes(t);
    Operation *inner = b.create(state);
    b.create<ReturnOp>(loc, inner->getResults());
    return success();
  }
  if (parser.parseKeyword("reducer"))
    return failure();
  SmallVector<OpAsmParser::Argument> lhs, rhs;
  for (size_t i = 0; i < n; ++i) {
    OpAsmParser::Argument a, b;
    if (parser.parseLParen() || parser.parseArgument(a, /*allowType=*/true) ||
        parser.parseComma() || parser.parseArgument(b, /*allowType=*/true) ||
        parser.parseRParen())
      return failure();
    lhs.push_back(a);
    rhs.push_back(b);
  }
  lhs.append(rhs);
  return parser.parseRegion(*body, lhs);
}

void ReduceOp::print(OpAsmPrinter &p) {
  size_t n = getInputs().size();
  for (size_t i = 0; i < n; ++i) {
    if (i)
      p << ", ";
    p << '(' << getInputs()[i] << " init: " << getInitValues()[i] << ')';
  }
  Operation *reducer = compactReducer(*this);
  if (reducer)
    p << " applies " << reducer->getName().getStringRef();
  p << " across dimensions = ";
  printIntList(p.getStream(), getDimensions());
  p.printOptionalAttrDict((*this)->getAttrs(), {"dimensions"});
  p << " : ";
  p.printFunctionalType(*this);
  if (reducer)
    return;
  p.printNewline();
  p << " reducer";
  Block &body = getBody().front();
  for (size_t i = 0; i < n; ++i) {
    p << '(';
    p.printRegionArgument(body.getArgument(i));
    p << ", ";
    p.printRegionArgument(body.getArgument(i + n));
    p << ')';
    if (i + 1 < n)
      p << ' ';
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  if (parser.parseAssignmentList(regionArgs, operands) || parser.parseColon())
    return failure();
  if (!regionArgs.empty() && parser.parseTypeList(types))
    return failure();
  if (types.size() != operands.size())
    return parser.emitError(parser.getCurrentLocation())
           << "expected " << operands.size() << " types, got " << types.size();
  for (auto [arg, type] : llvm::zip(regionArgs, types))
    arg.type = type;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.resolveOperands(operands, types, loc, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(types);
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, regionArgs) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, regionArgs))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  p << '(';
  Block &cond = getCond().front();
  llvm::interleaveComma(llvm::zip(cond.getArguments(), getOperand()), p,
                        [&](auto pair) {
                          p << std::get<0>(pair) << " = " << std::get<1>(pair);
                        });
  p << ") : ";
  llvm::interleaveComma(getOperand().getTypes(), p);
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p.printNewline();
  p << " cond ";
  p.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  p << " do ";
  p.shadowRegionArgs(getBody(), cond.getArguments());
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  if (getInputs().size() != getUpdates().size() ||
      getInputs().size() != getNumResults())
    return emitOpError("needs as many updates and results as inputs");
  return success();
}

//===----------------------------------------------------------------------===//
// The dialect
//===----------------------------------------------------------------------===//

void StableHLODialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/stablehlo/StablehloAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ir/stablehlo/StablehloOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "ir/stablehlo/StablehloOps.cpp.inc"
