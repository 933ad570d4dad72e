//===- ImportValueOps.cpp - HLO values and tuples to torus ----------------===//
//
// parameter, constant, tuple, get-tuple-element, copy and opt-barrier:
// instructions that pass or regroup values. Only constant creates ops.
// (copy changes a layout, which Torus does not keep: the value passes.)
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Error.h"

#include <complex>

namespace mlir::torus::hlo {
namespace {

const llvm::fltSemantics &semantics(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::F16:
    return llvm::APFloat::IEEEhalf();
  case PrimitiveType::BF16:
    return llvm::APFloat::BFloat();
  case PrimitiveType::F8E4M3FN:
    return llvm::APFloat::Float8E4M3FN();
  case PrimitiveType::F8E5M2:
    return llvm::APFloat::Float8E5M2();
  case PrimitiveType::F64:
  case PrimitiveType::C128:
    return llvm::APFloat::IEEEdouble();
  default:
    return llvm::APFloat::IEEEsingle();
  }
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

/// Reads the literal of `constant(...)`: a scalar, or nested `{...}` lists
/// matching the shape, or `(...)` for a tuple.
class LiteralParser {
public:
  LiteralParser(Cursor &cursor, const SourceLocator &locator)
      : cur_(cursor), locator_(locator) {}

  /// One array literal of `shape`.
  FailureOr<DenseElementsAttr> array(const Shape &shape) {
    MLIRContext *ctx = locator_.context();
    RankedTensorType type = tensorType(ctx, shape);
    type_ = shape.type;
    shape_ = &shape;
    floats_.clear();
    ints_.clear();
    complexes_.clear();
    if (cur_.peek() == '{' && cur_.peek2() == '.') {
      locator_.error(cur_.loc())
          << "the constant's value was elided ('{...}'); dump the HLO with "
             "its large constants printed";
      return failure();
    }
    if (shape.dims.empty()) {
      if (failed(element()))
        return failure();
    } else if (failed(nested(0))) {
      return failure();
    }
    if (isComplex(type_))
      return DenseElementsAttr::get(type, complexes_);
    if (isFloat(type_))
      return DenseElementsAttr::get(type, floats_);
    return DenseElementsAttr::get(type, ints_);
  }

private:
  LogicalResult nested(size_t dim) {
    llvm::SMLoc open = cur_.loc();
    if (!cur_.consume('{'))
      return expected("'{'");
    int64_t want = shape_->dims[dim];
    int64_t count = 0;
    if (!cur_.consume('}')) {
      while (true) {
        if (count == want) {
          locator_.error(open) << "the constant has more than " << want
                               << " elements along dimension " << dim
                               << " of its shape " << shapeText(*shape_);
          return failure();
        }
        if (failed(dim + 1 == shape_->dims.size() ? element()
                                                  : nested(dim + 1)))
          return failure();
        ++count;
        if (cur_.consume('}'))
          break;
        if (!cur_.consume(','))
          return expected("',' or '}'");
      }
    }
    if (count != want) {
      locator_.error(open) << "the constant has " << count
                           << " elements along dimension " << dim
                           << " but its shape " << shapeText(*shape_)
                           << " says " << want;
      return failure();
    }
    // An empty dimension: the inner dimensions have no lists.
    return success();
  }

  LogicalResult expected(llvm::StringRef what) {
    locator_.error(cur_.loc()) << "expected " << what << " in the constant";
    return failure();
  }

  /// A complex element, `(re, im)` as XLA prints it.
  LogicalResult complexElement() {
    if (!cur_.consume('('))
      return expected("'(' of a complex number (re, im)");
    if (failed(floatElement()))
      return failure();
    if (!cur_.consume(','))
      return expected("',' between the parts of a complex number");
    if (failed(floatElement()))
      return failure();
    if (!cur_.consume(')'))
      return expected("')' after the parts of a complex number");
    llvm::APFloat im = floats_.back();
    floats_.pop_back();
    llvm::APFloat re = floats_.back();
    floats_.pop_back();
    complexes_.emplace_back(re, im);
    return success();
  }

  LogicalResult element() {
    if (isComplex(type_))
      return complexElement();
    return floatElement();
  }

  /// One number (a float for complex types, read as a part).
  LogicalResult floatElement() {
    llvm::SMLoc at = cur_.loc();
    llvm::StringRef token = cur_.numberToken();
    if (token.empty())
      return expected("a number");
    auto bad = [&]() {
      locator_.error(at) << "invalid " << primitiveTypeName(type_)
                         << " literal '" << token << "'";
      return failure();
    };
    if (isFloat(type_) || isComplex(type_)) {
      const llvm::fltSemantics &sem = semantics(type_);
      bool negative = token.starts_with("-");
      llvm::StringRef body =
          token.drop_front(negative || token.starts_with("+"));
      if (body.starts_with("nan")) {
        floats_.push_back(llvm::APFloat::getNaN(sem, negative));
        return success();
      }
      if (body == "inf") {
        if (type_ == PrimitiveType::F8E4M3FN) {
          locator_.error(at) << primitiveTypeName(type_)
                             << " has no infinity (literal '" << token << "')";
          return failure();
        }
        floats_.push_back(llvm::APFloat::getInf(sem, negative));
        return success();
      }
      llvm::APFloat value(sem);
      auto status =
          value.convertFromString(token, llvm::APFloat::rmNearestTiesToEven);
      if (!status) {
        llvm::consumeError(status.takeError());
        return bad();
      }
      floats_.push_back(value);
      return success();
    }
    if (type_ == PrimitiveType::Pred) {
      if (token == "true" || token == "1")
        ints_.push_back(llvm::APInt(1, 1));
      else if (token == "false" || token == "0")
        ints_.push_back(llvm::APInt(1, 0));
      else
        return bad();
      return success();
    }
    unsigned width = bitWidth(type_);
    bool negative = token.starts_with("-");
    uint64_t magnitude;
    if (token.drop_front(negative).getAsInteger(10, magnitude))
      return bad();
    bool fits;
    if (isUnsigned(type_))
      fits =
          !negative && (width == 64 || magnitude <= (uint64_t(1) << width) - 1);
    else if (negative)
      fits = magnitude <= (uint64_t(1) << (width - 1));
    else
      fits = magnitude <= (uint64_t(1) << (width - 1)) - 1;
    if (!fits) {
      locator_.error(at) << "literal '" << token << "' is out of range for "
                         << primitiveTypeName(type_);
      return failure();
    }
    llvm::APInt value(width, magnitude);
    ints_.push_back(negative ? -value : value);
    return success();
  }

  Cursor &cur_;
  const SourceLocator &locator_;
  PrimitiveType type_ = PrimitiveType::F32;
  const Shape *shape_ = nullptr;
  std::vector<llvm::APFloat> floats_;
  std::vector<llvm::APInt> ints_;
  std::vector<std::complex<llvm::APFloat>> complexes_;
};

} // namespace

LogicalResult Importer::emitParameter(const Instruction &instr,
                                      Operands operands, HloValue &result) {
  const Scope &scope = *scope_;
  auto number = parameterNumber(instr);
  if (!number || *number < 0 ||
      *number >= static_cast<int64_t>(scope.params.size())) {
    error(instr.rawOperandLoc)
        << "parameter '" << instr.rawOperand << "' does not exist: "
        << "computation '" << scope.comp->name << "' receives "
        << scope.params.size() << " parameter"
        << (scope.params.size() == 1 ? "" : "s");
    return failure();
  }
  const HloValue &given = scope.params[*number];
  if (!given.shape->sameAs(instr.shape)) {
    error(instr.shape.loc) << "parameter " << *number << " of '"
                           << scope.comp->name << "' is declared "
                           << shapeText(instr.shape) << " but receives "
                           << shapeText(*given.shape);
    return failure();
  }
  result.leaves = given.leaves;
  return success();
}

LogicalResult Importer::emitConstant(const Instruction &instr,
                                     Operands operands, HloValue &result) {
  Location loc = opLoc(instr);
  Cursor c(instr.rawOperand);
  LiteralParser literal(c, locator_);
  llvm::SmallVector<const Shape *> leaves;
  instr.shape.leaves(leaves);
  bool tuple = instr.shape.isTuple;
  if (tuple && !c.consume('(')) {
    error(c.loc()) << "expected '(' to open the tuple constant";
    return failure();
  }
  for (size_t k = 0; k < leaves.size(); ++k) {
    if (k && !c.consume(',')) {
      error(c.loc()) << "expected ',' between tuple constant elements";
      return failure();
    }
    auto value = literal.array(*leaves[k]);
    if (failed(value))
      return failure();
    result.leaves.push_back(
        b_.create<ConstantOp>(loc, value->getType(), *value));
  }
  if (tuple && !c.consume(')')) {
    error(c.loc()) << "expected ')' to close the tuple constant";
    return failure();
  }
  if (!c.atEnd()) {
    error(c.loc()) << "unexpected text after the constant";
    return failure();
  }
  return success();
}

LogicalResult Importer::emitTuple(const Instruction &instr, Operands operands,
                                  HloValue &result) {
  size_t n = operands.size();
  if (!instr.shape.isTuple || instr.shape.elements.size() != n) {
    error(instr.shape.loc) << "'tuple' of " << n
                           << " operands needs a tuple shape of " << n
                           << " elements, not " << shapeText(instr.shape);
    return failure();
  }
  for (size_t i = 0; i < n; ++i) {
    if (!operands[i]->shape->sameAs(instr.shape.elements[i])) {
      error(instr.operands[i].loc)
          << "tuple element " << i << " is " << shapeText(*operands[i]->shape)
          << " but the tuple's shape says "
          << shapeText(instr.shape.elements[i]);
      return failure();
    }
    result.leaves.append(operands[i]->leaves);
  }
  return success();
}

LogicalResult Importer::emitGetTupleElement(const Instruction &instr,
                                            Operands operands,
                                            HloValue &result) {
  if (failed(checkOperandCount(instr, 1, operands.size())))
    return failure();
  auto index = intAttr(instr, "index");
  if (failed(index))
    return failure();
  const Shape &tuple = *operands[0]->shape;
  if (!tuple.isTuple || *index < 0 ||
      *index >= static_cast<int64_t>(tuple.elements.size())) {
    error(instr.attr("index")->valueLoc)
        << "index " << *index << " is out of range for " << shapeText(tuple);
    return failure();
  }
  if (!tuple.elements[*index].sameAs(instr.shape)) {
    error(instr.shape.loc) << "element " << *index << " of " << shapeText(tuple)
                           << " is " << shapeText(tuple.elements[*index])
                           << ", not " << shapeText(instr.shape);
    return failure();
  }
  size_t offset = tuple.leafOffset(*index);
  size_t count = tuple.elements[*index].numLeaves();
  result.leaves.append(operands[0]->leaves.begin() + offset,
                       operands[0]->leaves.begin() + offset + count);
  return success();
}

// copy and opt-barrier.
LogicalResult Importer::emitCopy(const Instruction &instr, Operands operands,
                                 HloValue &result) {
  if (failed(checkOperandCount(instr, 1, operands.size())))
    return failure();
  if (!operands[0]->shape->sameAs(instr.shape)) {
    error(instr.shape.loc) << "'" << instr.opcode << "' of "
                           << shapeText(*operands[0]->shape)
                           << " cannot produce " << shapeText(instr.shape);
    return failure();
  }
  result.leaves = operands[0]->leaves;
  return success();
}

} // namespace mlir::torus::hlo
