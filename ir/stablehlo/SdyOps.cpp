//===- SdyOps.cpp - The sdy (Shardy) dialect ------------------------------===//
//
// Parsing and printing of Shardy's attributes (`"x":(1)2`, `{"x", ?}p1`,
// `<["x"=4, "y"=2]>`, `<@mesh, [{"x"}, {}], replicated={"y"}>`) and of
// sdy.manual_computation, as Shardy writes them.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/SdyOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdy;

#include "ir/stablehlo/SdyDialect.cpp.inc"

namespace {

ParseResult parseAxis(AsmParser &parser, AxisRefAttr &axis) {
  std::string name;
  if (parser.parseString(&name))
    return failure();
  int64_t pre = 0, size = 0;
  if (succeeded(parser.parseOptionalColon()))
    if (parser.parseLParen() || parser.parseInteger(pre) ||
        parser.parseRParen() || parser.parseInteger(size))
      return failure();
  axis = AxisRefAttr::get(parser.getContext(),
                          StringAttr::get(parser.getContext(), name), pre,
                          size);
  return success();
}

void printAxis(llvm::raw_ostream &os, AxisRefAttr axis) {
  os << '"' << axis.getName().getValue() << '"';
  if (axis.getSize() > 0)
    os << ":(" << axis.getPreSize() << ")" << axis.getSize();
}

/// `{"x", "y"}`, the axes of `replicated=` and `unreduced=`.
ParseResult parseAxisSet(AsmParser &parser, SmallVectorImpl<AxisRefAttr> &axes) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&] {
    AxisRefAttr axis;
    if (parseAxis(parser, axis))
      return failure();
    axes.push_back(axis);
    return success();
  });
}

void printAxisSet(llvm::raw_ostream &os, ArrayRef<AxisRefAttr> axes) {
  os << '{';
  llvm::interleaveComma(axes, os, [&](AxisRefAttr a) { printAxis(os, a); });
  os << '}';
}

ParseResult parseDim(AsmParser &parser, DimensionShardingAttr &dim) {
  SmallVector<AxisRefAttr> axes;
  bool closed = true;
  if (parser.parseLBrace())
    return failure();
  if (failed(parser.parseOptionalRBrace())) {
    do {
      if (succeeded(parser.parseOptionalQuestion())) {
        closed = false;
        break;
      }
      AxisRefAttr axis;
      if (parseAxis(parser, axis))
        return failure();
      axes.push_back(axis);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRBrace())
      return failure();
  }
  int64_t priority = -1;
  StringRef word;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&word))) {
    if (!word.consume_front("p") || word.getAsInteger(10, priority))
      return parser.emitError(loc) << "expected a priority 'pN'";
  }
  dim = DimensionShardingAttr::get(parser.getContext(), axes, closed,
                                   priority);
  return success();
}

void printDim(llvm::raw_ostream &os, DimensionShardingAttr dim) {
  os << '{';
  llvm::interleaveComma(dim.getAxes(), os,
                        [&](AxisRefAttr a) { printAxis(os, a); });
  if (!dim.getIsClosed())
    os << (dim.getAxes().empty() ? "?" : ", ?");
  os << '}';
  if (dim.getPriority() >= 0)
    os << 'p' << dim.getPriority();
}

/// `["x"=4, "y"=2]` and an optional `, device_ids=[...]`, inside `<>`.
ParseResult parseMeshBody(AsmParser &parser, MeshAttr &mesh) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes, ids;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        std::string name;
        int64_t size;
        if (parser.parseString(&name) || parser.parseEqual() ||
            parser.parseInteger(size))
          return failure();
        names.push_back(StringAttr::get(parser.getContext(), name));
        sizes.push_back(size);
        return success();
      }))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("device_ids") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          int64_t id;
          if (parser.parseInteger(id))
            return failure();
          ids.push_back(id);
          return success();
        }))
      return failure();
  }
  mesh = MeshAttr::get(parser.getContext(), names, sizes, ids);
  return success();
}

void printMeshBody(llvm::raw_ostream &os, MeshAttr mesh) {
  os << '[';
  for (size_t i = 0; i < mesh.getAxisNames().size(); ++i)
    os << (i ? ", " : "") << '"' << mesh.getAxisNames()[i].getValue()
       << "\"=" << mesh.getAxisSizes()[i];
  os << ']';
  if (!mesh.getDeviceIds().empty()) {
    os << ", device_ids=[";
    llvm::interleaveComma(mesh.getDeviceIds(), os);
    os << ']';
  }
}

} // namespace

Attribute AxisRefAttr::parse(AsmParser &parser, Type) {
  AxisRefAttr axis;
  if (parser.parseLess() || parseAxis(parser, axis) || parser.parseGreater())
    return {};
  return axis;
}
void AxisRefAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printAxis(printer.getStream(), *this);
  printer << '>';
}

Attribute DimensionShardingAttr::parse(AsmParser &parser, Type) {
  DimensionShardingAttr dim;
  if (parser.parseLess() || parseDim(parser, dim) || parser.parseGreater())
    return {};
  return dim;
}
void DimensionShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printDim(printer.getStream(), *this);
  printer << '>';
}

Attribute MeshAttr::parse(AsmParser &parser, Type) {
  MeshAttr mesh;
  if (parser.parseLess() || parseMeshBody(parser, mesh) ||
      parser.parseGreater())
    return {};
  return mesh;
}
void MeshAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printMeshBody(printer.getStream(), *this);
  printer << '>';
}

Attribute TensorShardingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  if (parser.parseLess())
    return {};
  Attribute meshOrRef;
  StringAttr symbol;
  if (succeeded(parser.parseOptionalSymbolName(symbol))) {
    meshOrRef = FlatSymbolRefAttr::get(symbol);
  } else {
    MeshAttr mesh;
    if (parser.parseKeyword("mesh") || parser.parseLess() ||
        parseMeshBody(parser, mesh) || parser.parseGreater())
      return {};
    meshOrRef = mesh;
  }
  SmallVector<DimensionShardingAttr> dims;
  SmallVector<AxisRefAttr> replicated, unreduced;
  if (parser.parseComma() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        DimensionShardingAttr dim;
        if (parseDim(parser, dim))
          return failure();
        dims.push_back(dim);
        return success();
      }))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef word;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&word) || parser.parseEqual())
      return {};
    if (word == "replicated") {
      if (parseAxisSet(parser, replicated))
        return {};
    } else if (word == "unreduced") {
      if (parseAxisSet(parser, unreduced))
        return {};
    } else {
      parser.emitError(loc) << "unsupported sharding field '" << word << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return TensorShardingAttr::get(ctx, meshOrRef, dims, replicated, unreduced);
}

void TensorShardingAttr::print(AsmPrinter &printer) const {
  llvm::raw_ostream &os = printer.getStream();
  os << '<';
  if (auto ref = llvm::dyn_cast<FlatSymbolRefAttr>(getMeshOrRef())) {
    printer.printSymbolName(ref.getValue());
  } else {
    os << "mesh<";
    printMeshBody(os, llvm::cast<MeshAttr>(getMeshOrRef()));
    os << '>';
  }
  os << ", [";
  llvm::interleaveComma(getDimShardings(), os,
                        [&](DimensionShardingAttr d) { printDim(os, d); });
  os << ']';
  if (!getReplicatedAxes().empty()) {
    os << ", replicated=";
    printAxisSet(os, getReplicatedAxes());
  }
  if (!getUnreducedAxes().empty()) {
    os << ", unreduced=";
    printAxisSet(os, getUnreducedAxes());
  }
  os << '>';
}

namespace {
ParseResult parseShardingList(AsmParser &parser,
                              SmallVectorImpl<TensorShardingAttr> &out) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    auto attr = TensorShardingAttr::parse(parser, Type());
    if (!attr)
      return failure();
    out.push_back(cast<TensorShardingAttr>(attr));
    return success();
  });
}
void printShardingList(AsmPrinter &printer,
                       ArrayRef<TensorShardingAttr> shardings) {
  printer << '[';
  llvm::interleaveComma(shardings, printer.getStream(),
                        [&](TensorShardingAttr s) { s.print(printer); });
  printer << ']';
}
} // namespace

Attribute TensorShardingPerValueAttr::parse(AsmParser &parser, Type) {
  SmallVector<TensorShardingAttr> shardings;
  if (parser.parseLess() || parseShardingList(parser, shardings) ||
      parser.parseGreater())
    return {};
  return get(parser.getContext(), shardings);
}
void TensorShardingPerValueAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printShardingList(printer, getShardings());
  printer << '>';
}

#define GET_ATTRDEF_CLASSES
#include "ir/stablehlo/SdyAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// manual_computation
//===----------------------------------------------------------------------===//

ParseResult ManualComputationOp::parse(OpAsmParser &parser,
                                       OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<TensorShardingAttr> in, out;
  SmallVector<Attribute> axes;
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in_shardings") || parser.parseEqual() ||
      parseShardingList(parser, in) || parser.parseKeyword("out_shardings") ||
      parser.parseEqual() || parseShardingList(parser, out) ||
      parser.parseKeyword("manual_axes") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&] {
        std::string axis;
        if (parser.parseString(&axis))
          return failure();
        axes.push_back(StringAttr::get(ctx, axis));
        return success();
      }))
    return failure();
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  FunctionType fnType;
  if (parser.parseColonType(fnType) ||
      parser.resolveOperands(operands, fnType.getInputs(), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(fnType.getResults());
  result.addAttribute("in_shardings", TensorShardingPerValueAttr::get(ctx, in));
  result.addAttribute("out_shardings",
                      TensorShardingPerValueAttr::get(ctx, out));
  result.addAttribute("manual_axes", ArrayAttr::get(ctx, axes));
  return success();
}

void ManualComputationOp::print(OpAsmPrinter &p) {
  p << '(' << getTensors() << ") in_shardings=";
  printShardingList(p, getInShardings().getShardings());
  p << " out_shardings=";
  printShardingList(p, getOutShardings().getShardings());
  p << " manual_axes={";
  llvm::interleaveComma(getManualAxes(), p, [&](Attribute a) {
    p << '"' << cast<StringAttr>(a).getValue() << '"';
  });
  p << "} (";
  llvm::interleaveComma(getBody().getArguments(), p,
                        [&](BlockArgument a) { p.printRegionArgument(a); });
  p << ") ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"in_shardings", "out_shardings", "manual_axes"});
  p << " : ";
  p.printFunctionalType(getTensors().getTypes(), getResultTypes());
}

//===----------------------------------------------------------------------===//
// The dialect
//===----------------------------------------------------------------------===//

void SdyDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/stablehlo/SdyAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ir/stablehlo/SdyOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "ir/stablehlo/SdyOps.cpp.inc"
