//===- HloParser.cpp - Reading HLO text into a syntax tree ----------------===//
//
// The grammar, as XLA prints and parses it:
//
//   module      := 'HloModule' name (',' attr)* table* computation*
//   table       := ('FileNames' | 'FunctionNames') (id string)*
//                | ('FileLocations' | 'StackFrames') (id '{' (word '=' int)* '}')*
//   computation := ['ENTRY'] name [signature] '{' instruction* '}'
//                  (',' attr)*
//   signature   := '(' [name ':' shape (',' name ':' shape)*] ')' '->' shape
//   instruction := ['ROOT'] name '=' shape opcode '(' operands ')'
//                  (',' attr)*
//   operand     := [shape] name            (long form / short form)
//   shape       := type '[' dims ']' [layout] | '(' [shape (',' shape)*] ')'
//   attr        := word '=' value          (value: balanced text)
//
// `constant(...)` and `parameter(...)` hold a literal and a number instead of
// operands. Instructions may span lines; computations and instructions may
// come in any order.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloParser.h"

#include "ir/hlo/HloAttrParser.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

namespace mlir::torus::hlo {

//===----------------------------------------------------------------------===//
// Element types and shapes
//===----------------------------------------------------------------------===//

namespace {
struct PrimitiveTypeInfo {
  PrimitiveType type;
  llvm::StringLiteral name;
  unsigned bits;
};
constexpr PrimitiveTypeInfo kPrimitiveTypes[] = {
    {PrimitiveType::Pred, "pred", 1}, {PrimitiveType::S8, "s8", 8},
    {PrimitiveType::S16, "s16", 16},  {PrimitiveType::S32, "s32", 32},
    {PrimitiveType::S64, "s64", 64},  {PrimitiveType::U8, "u8", 8},
    {PrimitiveType::U16, "u16", 16},  {PrimitiveType::U32, "u32", 32},
    {PrimitiveType::U64, "u64", 64},  {PrimitiveType::F16, "f16", 16},
    {PrimitiveType::BF16, "bf16", 16}, {PrimitiveType::F32, "f32", 32},
    {PrimitiveType::F64, "f64", 64},  {PrimitiveType::C64, "c64", 64},
    {PrimitiveType::C128, "c128", 128},
    {PrimitiveType::F8E4M3FN, "f8e4m3fn", 8},
    {PrimitiveType::F8E5M2, "f8e5m2", 8}};

const PrimitiveTypeInfo &info(PrimitiveType type) {
  return kPrimitiveTypes[static_cast<int>(type)];
}
} // namespace

llvm::StringRef primitiveTypeName(PrimitiveType type) {
  return info(type).name;
}

std::optional<PrimitiveType> parsePrimitiveType(llvm::StringRef name) {
  for (const PrimitiveTypeInfo &t : kPrimitiveTypes)
    if (t.name == name)
      return t.type;
  return std::nullopt;
}

bool isUnsigned(PrimitiveType type) {
  return type == PrimitiveType::U8 || type == PrimitiveType::U16 ||
         type == PrimitiveType::U32 || type == PrimitiveType::U64;
}

bool isFloat(PrimitiveType type) {
  return type == PrimitiveType::F16 || type == PrimitiveType::BF16 ||
         type == PrimitiveType::F32 || type == PrimitiveType::F64 ||
         type == PrimitiveType::F8E4M3FN || type == PrimitiveType::F8E5M2;
}

bool isComplex(PrimitiveType type) {
  return type == PrimitiveType::C64 || type == PrimitiveType::C128;
}

unsigned bitWidth(PrimitiveType type) { return info(type).bits; }

void Shape::leaves(llvm::SmallVectorImpl<const Shape *> &out) const {
  if (!isTuple) {
    out.push_back(this);
    return;
  }
  for (const Shape &e : elements)
    e.leaves(out);
}

llvm::SmallVector<int64_t> Shape::majorToMinor() const {
  llvm::SmallVector<int64_t> order;
  if (minorToMajor.size() == dims.size()) {
    order.assign(minorToMajor.rbegin(), minorToMajor.rend());
    return order;
  }
  for (int64_t d = 0, e = dims.size(); d < e; ++d)
    order.push_back(d);
  return order;
}

size_t Shape::numLeaves() const {
  if (!isTuple)
    return 1;
  size_t n = 0;
  for (const Shape &e : elements)
    n += e.numLeaves();
  return n;
}

size_t Shape::leafOffset(size_t i) const {
  size_t n = 0;
  for (size_t k = 0; k < i && k < elements.size(); ++k)
    n += elements[k].numLeaves();
  return n;
}

bool Shape::sameAs(const Shape &other) const {
  if (isTuple != other.isTuple)
    return false;
  if (!isTuple)
    return type == other.type && dims == other.dims;
  if (elements.size() != other.elements.size())
    return false;
  for (size_t i = 0; i < elements.size(); ++i)
    if (!elements[i].sameAs(other.elements[i]))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// SourceLocator
//===----------------------------------------------------------------------===//

SourceLocator::SourceLocator(const llvm::SourceMgr &sourceMgr,
                             MLIRContext *context)
    : sourceMgr_(sourceMgr), context_(context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  bufferName_ = StringAttr::get(context, buffer->getBufferIdentifier());
}

FileLineColLoc SourceLocator::location(llvm::SMLoc loc) const {
  unsigned id = sourceMgr_.getMainFileID();
  const llvm::MemoryBuffer *buffer = sourceMgr_.getMemoryBuffer(id);
  if (!loc.isValid() || loc.getPointer() < buffer->getBufferStart() ||
      loc.getPointer() > buffer->getBufferEnd())
    return FileLineColLoc::get(bufferName_, 0, 0);
  auto [line, col] = sourceMgr_.getLineAndColumn(loc, id);
  return FileLineColLoc::get(bufferName_, line, col);
}

unsigned SourceLocator::line(llvm::SMLoc loc) const {
  return location(loc).getLine();
}

//===----------------------------------------------------------------------===//
// Cursor
//===----------------------------------------------------------------------===//

namespace {
bool isWordStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isWordChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
}
} // namespace

void Cursor::skip() {
  while (pos < end) {
    char c = *pos;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < end && pos[1] == '*') {
      const char *start = pos;
      pos += 2;
      while (pos + 1 < end && !(pos[0] == '*' && pos[1] == '/'))
        ++pos;
      if (pos + 1 >= end) {
        badComment = start;
        pos = end;
        return;
      }
      pos += 2;
      continue;
    }
    if (c == '/' && pos + 1 < end && pos[1] == '/') {
      while (pos < end && *pos != '\n')
        ++pos;
      continue;
    }
    return;
  }
}

bool Cursor::consume(char c) {
  skip();
  if (pos < end && *pos == c) {
    ++pos;
    return true;
  }
  return false;
}

bool Cursor::consume(llvm::StringRef text) {
  skip();
  if (static_cast<size_t>(end - pos) >= text.size() &&
      llvm::StringRef(pos, text.size()) == text) {
    pos += text.size();
    return true;
  }
  return false;
}

bool Cursor::consumeKeyword(llvm::StringRef keyword) {
  skip();
  const char *save = pos;
  if (word() == keyword)
    return true;
  pos = save;
  return false;
}

llvm::StringRef Cursor::word() {
  skip();
  if (pos >= end || !isWordStart(*pos))
    return {};
  const char *start = pos;
  while (pos < end && isWordChar(*pos))
    ++pos;
  return llvm::StringRef(start, pos - start);
}

llvm::StringRef Cursor::name() {
  skip();
  if (pos < end && *pos == '%') {
    const char *save = pos++;
    const char *start = pos;
    while (pos < end && isWordChar(*pos))
      ++pos;
    if (pos == start) {
      pos = save;
      return {};
    }
    return llvm::StringRef(start, pos - start);
  }
  return word();
}

std::optional<int64_t> Cursor::integer(bool &overflow) {
  skip();
  const char *start = pos;
  const char *p = pos;
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  if (p >= end || !llvm::isDigit(*p))
    return std::nullopt;
  uint64_t value = 0;
  while (p < end && llvm::isDigit(*p)) {
    unsigned digit = *p - '0';
    if (value > (UINT64_MAX - digit) / 10)
      overflow = true;
    else
      value = value * 10 + digit;
    ++p;
  }
  uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
  if (value > limit)
    overflow = true;
  pos = p;
  (void)start;
  if (overflow)
    return 0;
  if (negative)
    return value == uint64_t(INT64_MAX) + 1 ? INT64_MIN
                                            : -static_cast<int64_t>(value);
  return static_cast<int64_t>(value);
}

llvm::StringRef Cursor::numberToken() {
  skip();
  const char *start = pos;
  while (pos < end && (llvm::isAlnum(*pos) || *pos == '_' || *pos == '.' ||
                       *pos == '+' || *pos == '-'))
    ++pos;
  llvm::StringRef token(start, pos - start);
  // `nan(0x7fc00001)`: a NaN with a payload.
  if ((token == "nan" || token == "-nan") && pos < end && *pos == '(') {
    const char *p = pos + 1;
    while (p < end && llvm::isAlnum(*p))
      ++p;
    if (p < end && *p == ')') {
      pos = p + 1;
      token = llvm::StringRef(start, pos - start);
    }
  }
  return token;
}

llvm::StringRef Cursor::rawValue(bool &unbalanced) {
  skip();
  const char *start = pos;
  int depth = 0;
  while (pos < end) {
    char c = *pos;
    if (c == '"') {
      ++pos;
      while (pos < end && *pos != '"') {
        if (*pos == '\\' && pos + 1 < end)
          ++pos;
        ++pos;
      }
      if (pos >= end) {
        unbalanced = true;
        break;
      }
      ++pos;
      continue;
    }
    if (c == '(' || c == '{' || c == '[') {
      ++depth;
    } else if (c == ')' || c == '}' || c == ']') {
      if (depth == 0)
        break;
      --depth;
    } else if (depth == 0 && (c == ',' || c == '\n')) {
      break;
    }
    ++pos;
  }
  if (depth > 0)
    unbalanced = true;
  return llvm::StringRef(start, pos - start).rtrim();
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

/// Shapes, literals and shardings nest; deeper input is rejected rather
/// than risking the stack.
constexpr int kMaxNesting = 64;
/// Dimensions of one array shape: a literal nests one `{` per dimension,
/// read recursively.
constexpr size_t kMaxRank = 64;
/// More elements than any device holds; keeps element counts far from
/// int64 overflow.
constexpr int64_t kMaxElements = int64_t(1) << 40;

class Parser {
public:
  Parser(Cursor &cursor, const SourceLocator &locator)
      : cur_(cursor), locator_(locator) {}

  LogicalResult parseModule(Module &module);
  LogicalResult parseShape(Shape &shape, int depth = 0);

private:
  InFlightDiagnostic error(llvm::SMLoc loc) { return locator_.error(loc); }
  InFlightDiagnostic errorHere() { return error(cur_.loc()); }
  LogicalResult checkComment();
  /// "expected X, found 'Y'" at the current position.
  LogicalResult expected(llvm::StringRef what);
  LogicalResult expect(char c, llvm::StringRef what);

  LogicalResult parseAttr(Attr &attr);
  /// `FileNames`, `FunctionNames`, `FileLocations` or `StackFrames` and its
  /// rows, if one comes next.
  FailureOr<bool> parseStackFrameTable(StackFrameTables &tables);
  LogicalResult parseTableRow(llvm::StringRef table, StackFrameTables &tables);
  LogicalResult checkStackFrameTables(const StackFrameTables &tables);
  LogicalResult parseComputation(Module &module);
  LogicalResult parseSignature(Signature &signature);
  LogicalResult parseInstruction(Computation &comp);
  LogicalResult parseOperand(Operand &operand);
  LogicalResult parseLayout(Shape &shape);

  Cursor &cur_;
  const SourceLocator &locator_;
};

LogicalResult Parser::checkComment() {
  if (cur_.badComment) {
    error(llvm::SMLoc::getFromPointer(cur_.badComment))
        << "unterminated comment";
    return failure();
  }
  return success();
}

LogicalResult Parser::expected(llvm::StringRef what) {
  if (failed(checkComment()))
    return failure();
  if (cur_.atEnd()) {
    errorHere() << "expected " << what << ", found the end of the file";
    return failure();
  }
  // Show the offending token: a word, or one character.
  const char *p = cur_.pos;
  const char *q = p;
  while (q < cur_.end && (llvm::isAlnum(*q) || *q == '_' || *q == '.' ||
                          *q == '-' || *q == '%'))
    ++q;
  if (q == p)
    ++q;
  errorHere() << "expected " << what << ", found '" << llvm::StringRef(p, q - p)
              << "'";
  return failure();
}

LogicalResult Parser::expect(char c, llvm::StringRef what) {
  if (cur_.consume(c))
    return success();
  return expected(what);
}

LogicalResult Parser::parseAttr(Attr &attr) {
  attr.nameLoc = cur_.loc();
  attr.name = cur_.word();
  if (attr.name.empty())
    return expected("an attribute name");
  if (failed(expect('=', "'=' after attribute '" + attr.name.str() + "'")))
    return failure();
  attr.valueLoc = cur_.loc();
  bool unbalanced = false;
  attr.value = cur_.rawValue(unbalanced);
  if (unbalanced) {
    error(attr.valueLoc) << "unbalanced brackets or quotes in the value of '"
                         << attr.name << "'";
    return failure();
  }
  if (attr.value.empty()) {
    error(attr.valueLoc) << "missing value of attribute '" << attr.name << "'";
    return failure();
  }
  return success();
}

LogicalResult Parser::parseLayout(Shape &shape) {
  llvm::SMLoc loc = cur_.loc();
  const char *save = cur_.pos;
  if (!cur_.consume('{'))
    return success();
  // `f32[2] {` in a signature opens the computation's body, not a layout.
  char next = cur_.peek();
  if (!llvm::isDigit(next) && next != '}' && next != ':') {
    cur_.pos = save;
    return success();
  }
  llvm::SmallVector<int64_t> minorToMajor;
  if (cur_.peek() != '}' && cur_.peek() != ':') {
    while (true) {
      bool overflow = false;
      auto dim = cur_.integer(overflow);
      if (!dim || overflow)
        return expected("a dimension number in the layout");
      minorToMajor.push_back(*dim);
      if (!cur_.consume(','))
        break;
    }
  }
  if (cur_.consume(':')) {
    // Tiling, element size and memory space (`:T(8,128)S(1)`) describe the
    // physical layout only, as the order does.
    int depth = 0;
    while (cur_.pos < cur_.end) {
      char c = *cur_.pos;
      if (c == '(')
        ++depth;
      else if (c == ')')
        --depth;
      else if (c == '}' && depth <= 0)
        break;
      ++cur_.pos;
    }
  }
  if (failed(expect('}', "'}' to end the layout")))
    return failure();
  if (minorToMajor.empty())
    return success();
  // A layout orders the value in memory; it changes no result but
  // `bitcast`'s, which reads it, and Torus lays out every value row-major.
  // It must name each dimension once.
  int64_t rank = shape.dims.size();
  llvm::SmallVector<bool> seen(rank, false);
  bool permutation = static_cast<int64_t>(minorToMajor.size()) == rank;
  for (int64_t d : minorToMajor) {
    permutation = permutation && d >= 0 && d < rank && !seen[d];
    if (d >= 0 && d < rank)
      seen[d] = true;
  }
  if (!permutation) {
    std::string got;
    llvm::raw_string_ostream g(got);
    llvm::interleave(minorToMajor, g, ",");
    error(loc) << "layout {" << got << "} of "
               << primitiveTypeName(shape.type) << "[" <<
        [&] {
          std::string d;
          llvm::raw_string_ostream os(d);
          llvm::interleave(shape.dims, os, ",");
          return d;
        }() << "] is not an order of its " << rank << " dimensions";
    return failure();
  }
  shape.minorToMajor = std::move(minorToMajor);
  return success();
}

LogicalResult Parser::parseShape(Shape &shape, int depth) {
  shape.loc = cur_.loc();
  if (depth > kMaxNesting) {
    errorHere() << "shape nested too deeply";
    return failure();
  }
  if (cur_.consume('(')) {
    shape.isTuple = true;
    if (cur_.consume(')'))
      return success();
    while (true) {
      shape.elements.emplace_back();
      if (failed(parseShape(shape.elements.back(), depth + 1)))
        return failure();
      if (cur_.consume(')'))
        return success();
      if (failed(expect(',', "',' or ')' in a tuple shape")))
        return failure();
    }
  }
  llvm::SMLoc typeLoc = cur_.loc();
  llvm::StringRef typeName = cur_.word();
  if (typeName.empty())
    return expected("a shape");
  if (cur_.peek() != '[') {
    cur_.pos = typeName.begin();
    return expected("a shape");
  }
  auto type = parsePrimitiveType(typeName);
  if (!type) {
    error(typeLoc) << "unsupported element type '" << typeName
                   << "' (Torus reads pred, s8, s16, s32, s64, u8, u16, u32, "
                      "u64, f16, bf16, f32, f64, c64, c128, f8e4m3fn and "
                      "f8e5m2)";
    return failure();
  }
  shape.type = *type;
  cur_.consume('[');
  if (!cur_.consume(']')) {
    while (true) {
      llvm::SMLoc dimLoc = cur_.loc();
      if (cur_.peek() == '<' || cur_.peek() == '?') {
        error(dimLoc) << "unsupported dynamic dimension in shape: Torus "
                         "needs static shapes";
        return failure();
      }
      bool overflow = false;
      auto dim = cur_.integer(overflow);
      if (!dim)
        return expected("a dimension size");
      if (overflow || *dim < 0 || *dim > (int64_t(1) << 40)) {
        error(dimLoc) << "dimension size out of range";
        return failure();
      }
      if (shape.dims.size() == kMaxRank) {
        error(dimLoc) << "shape has more than " << kMaxRank << " dimensions";
        return failure();
      }
      shape.dims.push_back(*dim);
      // Element counts must fit in int64 everywhere MLIR multiplies them.
      int64_t count = 1;
      for (int64_t d : shape.dims)
        count = d == 0 || count == 0 ? 0 : std::min(count * d, kMaxElements);
      bool tooMany = false;
      for (int64_t d : shape.dims)
        tooMany |= d > kMaxElements;
      if (tooMany || count >= kMaxElements) {
        error(dimLoc) << "shape has too many elements";
        return failure();
      }
      if (cur_.consume(']'))
        break;
      if (failed(expect(',', "',' or ']' in the dimensions")))
        return failure();
    }
  }
  return parseLayout(shape);
}

LogicalResult Parser::parseOperand(Operand &operand) {
  operand.loc = cur_.loc();
  bool isShape = cur_.peek() == '(';
  if (!isShape) {
    const char *save = cur_.pos;
    llvm::StringRef w = cur_.word();
    isShape = !w.empty() && cur_.pos < cur_.end && *cur_.pos == '[';
    cur_.pos = save;
  }
  if (isShape) {
    operand.shape.emplace();
    if (failed(parseShape(*operand.shape)))
      return failure();
    operand.loc = cur_.loc();
  }
  operand.name = cur_.name();
  if (operand.name.empty())
    return expected("an operand name");
  if (cur_.peek() == '(') {
    errorHere() << "nested instructions as operands are not supported; "
                   "give '"
                << operand.name << "' a line of its own";
    return failure();
  }
  return success();
}

LogicalResult Parser::parseInstruction(Computation &comp) {
  Instruction instr;
  instr.nameLoc = cur_.loc();
  const char *save = cur_.pos;
  if (cur_.consumeKeyword("ROOT")) {
    // `ROOT = ...` would be an instruction named ROOT.
    if (cur_.peek() == '=')
      cur_.pos = save;
    else
      instr.isRoot = true;
  }
  instr.nameLoc = cur_.loc();
  instr.name = cur_.name();
  if (instr.name.empty())
    return expected("an instruction");
  if (failed(expect('=', "'=' after the instruction name")))
    return failure();
  if (failed(parseShape(instr.shape)))
    return failure();
  instr.opcodeLoc = cur_.loc();
  instr.opcode = cur_.word();
  if (instr.opcode.empty())
    return expected("an opcode");
  if (failed(expect('(', "'(' after the opcode")))
    return failure();
  if (instr.opcode == "constant" || instr.opcode == "parameter") {
    instr.rawOperandLoc = cur_.loc();
    bool unbalanced = false;
    // The literal ends at the ')' matching the opening one.
    const char *start = cur_.pos;
    int depth = 0;
    while (cur_.pos < cur_.end) {
      char c = *cur_.pos;
      if (c == '(' || c == '{')
        ++depth;
      else if (c == ')' || c == '}') {
        if (depth == 0)
          break;
        --depth;
      }
      ++cur_.pos;
    }
    unbalanced = cur_.pos >= cur_.end;
    instr.rawOperand = llvm::StringRef(start, cur_.pos - start).trim();
    if (unbalanced || !cur_.consume(')')) {
      error(instr.rawOperandLoc)
          << "unbalanced parentheses in '" << instr.opcode << "'";
      return failure();
    }
  } else if (!cur_.consume(')')) {
    while (true) {
      instr.operands.emplace_back();
      if (failed(parseOperand(instr.operands.back())))
        return failure();
      if (cur_.consume(')'))
        break;
      if (failed(expect(',', "',' or ')' after an operand")))
        return failure();
    }
  }
  while (cur_.consume(',')) {
    instr.attrs.emplace_back();
    if (failed(parseAttr(instr.attrs.back())))
      return failure();
  }
  if (failed(checkComment()))
    return failure();
  auto [it, inserted] =
      comp.byName.try_emplace(instr.name, comp.instructions.size());
  if (!inserted) {
    error(instr.nameLoc) << "redefinition of '" << instr.name << "'";
    return failure();
  }
  if (instr.isRoot) {
    if (comp.root >= 0) {
      error(instr.nameLoc) << "computation '" << comp.name
                           << "' has more than one ROOT";
      return failure();
    }
    comp.root = comp.instructions.size();
  }
  comp.instructions.push_back(std::move(instr));
  return success();
}

LogicalResult Parser::parseSignature(Signature &signature) {
  // `(x: f32[2], y: (s32[], f32[])) -> f32[2]`: the importer checks it
  // against the parameter instructions, which carry the shapes, and the
  // root.
  if (!cur_.consume(')')) {
    while (true) {
      if (cur_.name().empty())
        return expected("a parameter name");
      if (failed(expect(':', "':' after the parameter name")))
        return failure();
      signature.params.emplace_back();
      if (failed(parseShape(signature.params.back())))
        return failure();
      if (cur_.consume(')'))
        break;
      if (failed(expect(',', "',' or ')' in the signature")))
        return failure();
    }
  }
  if (!cur_.consume("->"))
    return expected("'->' after the parameters");
  return parseShape(signature.result);
}

LogicalResult Parser::parseComputation(Module &module) {
  Computation comp;
  comp.loc = cur_.loc();
  comp.isEntry = cur_.consumeKeyword("ENTRY");
  llvm::SMLoc nameLoc = cur_.loc();
  comp.name = cur_.name();
  if (comp.name.empty())
    return expected("a computation");
  if (cur_.peek() == '(') {
    comp.signature.emplace();
    comp.signature->loc = cur_.loc();
    cur_.consume('(');
    if (failed(parseSignature(*comp.signature)))
      return failure();
  }
  if (failed(expect('{', "'{' to open computation '" + comp.name.str() + "'")))
    return failure();
  while (!cur_.consume('}')) {
    if (cur_.atEnd()) {
      if (failed(checkComment()))
        return failure();
      error(comp.loc) << "computation '" << comp.name
                      << "' is not closed with '}'";
      return failure();
    }
    if (failed(parseInstruction(comp)))
      return failure();
  }
  while (cur_.consume(',')) {
    Attr attr;
    if (failed(parseAttr(attr)))
      return failure();
    if (attr.name != "execution_thread") {
      error(attr.nameLoc) << "unsupported computation attribute '" << attr.name
                          << "'";
      return failure();
    }
  }
  if (comp.instructions.empty()) {
    error(comp.loc) << "computation '" << comp.name << "' is empty";
    return failure();
  }
  if (comp.root < 0)
    comp.root = comp.instructions.size() - 1;
  auto [it, inserted] =
      module.byName.try_emplace(comp.name, module.computations.size());
  if (!inserted) {
    error(nameLoc) << "redefinition of computation '" << comp.name << "'";
    return failure();
  }
  if (comp.isEntry) {
    if (module.entry >= 0) {
      error(comp.loc) << "more than one ENTRY computation";
      return failure();
    }
    module.entry = module.computations.size();
  }
  module.computations.push_back(std::move(comp));
  return success();
}

FailureOr<bool> Parser::parseStackFrameTable(StackFrameTables &tables) {
  // A table's name is followed by its first row's id (or by the next
  // table, or nothing, when it is empty); a computation's name by its
  // signature or body.
  const char *save = cur_.pos;
  llvm::StringRef table = cur_.word();
  bool isTable = table == "FileNames" || table == "FunctionNames" ||
                 table == "FileLocations" || table == "StackFrames";
  char next = cur_.peek();
  if (!isTable || next == '(' || next == '{') {
    cur_.pos = save;
    return false;
  }
  while (llvm::isDigit(cur_.peek()))
    if (failed(parseTableRow(table, tables)))
      return failure();
  return true;
}

LogicalResult Parser::parseTableRow(llvm::StringRef table,
                                    StackFrameTables &tables) {
  llvm::SMLoc rowLoc = cur_.loc();
  bool overflow = false;
  std::optional<int64_t> id = cur_.integer(overflow);
  if (!id || overflow || *id < 1) {
    error(rowLoc) << "expected a positive id in " << table;
    return failure();
  }
  auto duplicate = [&](bool inserted) {
    if (!inserted)
      error(rowLoc) << "id " << *id << " appears twice in " << table;
    return success(inserted);
  };
  if (table == "FileNames" || table == "FunctionNames") {
    if (cur_.peek() != '"')
      return expected("a quoted name in " + table.str());
    Attr raw;
    raw.valueLoc = cur_.loc();
    const char *start = cur_.pos++;
    while (cur_.pos < cur_.end && *cur_.pos != '"' && *cur_.pos != '\n') {
      if (*cur_.pos == '\\' && cur_.pos + 1 < cur_.end)
        ++cur_.pos;
      ++cur_.pos;
    }
    if (cur_.pos >= cur_.end || *cur_.pos != '"') {
      error(raw.valueLoc) << "unterminated string in " << table;
      return failure();
    }
    ++cur_.pos;
    raw.value = llvm::StringRef(start, cur_.pos - start);
    std::string name;
    if (failed(AttrParser(raw, locator_).string(name)))
      return failure();
    auto &names =
        table == "FileNames" ? tables.fileNames : tables.functionNames;
    return duplicate(names.emplace(*id, std::move(name)).second);
  }
  // `{key=N key=N ...}`
  if (failed(expect('{', "'{' to open a row of " + table.str())))
    return failure();
  llvm::StringMap<int64_t> fields;
  while (!cur_.consume('}')) {
    llvm::SMLoc keyLoc = cur_.loc();
    llvm::StringRef key = cur_.word();
    if (key.empty())
      return expected("a field name or '}' in " + table.str());
    if (failed(expect('=', "'=' after '" + key.str() + "'")))
      return failure();
    bool over = false;
    std::optional<int64_t> value = cur_.integer(over);
    if (!value || over || *value < 0) {
      error(keyLoc) << "expected a non-negative integer for '" << key
                    << "' in " << table;
      return failure();
    }
    fields[key] = *value;
  }
  auto field = [&](llvm::StringRef key) -> FailureOr<int64_t> {
    auto it = fields.find(key);
    if (it == fields.end()) {
      error(rowLoc) << "row " << *id << " of " << table << " has no '" << key
                    << "'";
      return failure();
    }
    return it->second;
  };
  if (table == "FileLocations") {
    StackFrameTables::FileLocation l;
    l.loc = rowLoc;
    auto file = field("file_name_id");
    auto function = field("function_name_id");
    auto line = field("line");
    if (failed(file) || failed(function) || failed(line))
      return failure();
    l.fileName = *file;
    l.functionName = *function;
    l.line = *line;
    l.column = fields.lookup("column");
    return duplicate(tables.fileLocations.emplace(*id, l).second);
  }
  StackFrameTables::Frame f;
  f.loc = rowLoc;
  auto location = field("file_location_id");
  auto parent = field("parent_frame_id");
  if (failed(location) || failed(parent))
    return failure();
  f.fileLocation = *location;
  // Printed one more than the parent's id; 1 (or 0) means none.
  f.parent = *parent > 0 ? *parent - 1 : 0;
  return duplicate(tables.frames.emplace(*id, f).second);
}

LogicalResult Parser::checkStackFrameTables(const StackFrameTables &tables) {
  for (const auto &[id, l] : tables.fileLocations) {
    if (!tables.fileNames.count(l.fileName)) {
      error(l.loc) << "file location " << id << " names file " << l.fileName
                   << ", which FileNames does not list";
      return failure();
    }
    if (!tables.functionNames.count(l.functionName)) {
      error(l.loc) << "file location " << id << " names function "
                   << l.functionName
                   << ", which FunctionNames does not list";
      return failure();
    }
  }
  for (const auto &[id, f] : tables.frames) {
    if (!tables.fileLocations.count(f.fileLocation)) {
      error(f.loc) << "stack frame " << id << " names file location "
                   << f.fileLocation << ", which FileLocations does not list";
      return failure();
    }
    if (f.parent != 0 && !tables.frames.count(f.parent)) {
      error(f.loc) << "stack frame " << id << " names parent frame "
                   << f.parent << ", which StackFrames does not list";
      return failure();
    }
  }
  return success();
}

LogicalResult Parser::parseModule(Module &module) {
  module.loc = cur_.loc();
  if (!cur_.consumeKeyword("HloModule"))
    return expected("'HloModule'");
  module.name = cur_.name();
  if (module.name.empty())
    return expected("the module name");
  while (cur_.consume(',')) {
    module.attrs.emplace_back();
    if (failed(parseAttr(module.attrs.back())))
      return failure();
  }
  // XLA's dumps list the Python stack frames the instructions' metadata
  // names before the computations.
  while (true) {
    FailureOr<bool> table = parseStackFrameTable(module.stackFrames);
    if (failed(table))
      return failure();
    if (!*table)
      break;
  }
  if (failed(checkStackFrameTables(module.stackFrames)))
    return failure();
  while (!cur_.atEnd()) {
    if (failed(parseComputation(module)))
      return failure();
  }
  if (failed(checkComment()))
    return failure();
  if (module.computations.empty()) {
    error(module.loc) << "module '" << module.name << "' has no computations";
    return failure();
  }
  // Without an ENTRY marker, XLA takes the last computation.
  if (module.entry < 0)
    module.entry = module.computations.size() - 1;
  return success();
}

} // namespace

LogicalResult parseHloModule(const llvm::SourceMgr &sourceMgr,
                             const SourceLocator &locator, Module &module) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  Cursor cursor(buffer->getBufferStart(), buffer->getBufferEnd());
  Parser parser(cursor, locator);
  return parser.parseModule(module);
}

LogicalResult parseHloShape(Cursor &cursor, const SourceLocator &locator,
                            Shape &shape) {
  Parser parser(cursor, locator);
  return parser.parseShape(shape);
}

} // namespace mlir::torus::hlo
