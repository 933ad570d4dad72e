//===- ImportReductionOps.cpp - HLO reductions to torus -------------------===//
//
// reduce (torus.reduce, or torus.argmax/argmin for a variadic reduce over
// values and an iota with a comparator) and reduce-window; and what they
// need to read reducer computations: the componentwise reducers
// (`add(x, y)` and the like), and a small interpreter that runs
// comparators on sample values to recognise argmax and argmin by what they
// compute.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"
#include "ir/ops/HloForms.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>

namespace mlir::torus::hlo {

//===----------------------------------------------------------------------===//
// Reducer computations
//===----------------------------------------------------------------------===//

/// The parameter number of `instr` if it is `parameter(N)`.
std::optional<int64_t> parameterNumber(const Instruction &instr) {
  if (instr.opcode != "parameter")
    return std::nullopt;
  int64_t n;
  if (instr.rawOperand.trim().getAsInteger(10, n))
    return std::nullopt;
  return n;
}

namespace {

/// The instruction `operand` names in `comp`, if any.
const Instruction *lookup(const Computation &comp, llvm::StringRef name) {
  auto it = comp.byName.find(name);
  return it == comp.byName.end() ? nullptr : &comp.instructions[it->second];
}

size_t countParameters(const Computation &comp) {
  size_t n = 0;
  for (const Instruction &i : comp.instructions)
    n += i.opcode == "parameter";
  return n;
}

bool isBinaryReducerOpcode(llvm::StringRef opcode) {
  return llvm::is_contained(
      {"add", "multiply", "maximum", "minimum", "and", "or"}, opcode);
}

} // namespace

/// For a reducer over `n` inputs whose result `j` is `op_j(param j, param
/// j + n)` (either order): the opcodes op_j. `replaceAllowed` also accepts
/// `ROOT parameter(1)` (scatter's overwrite) as "replace".
std::optional<llvm::SmallVector<llvm::StringRef>>
componentwiseReducer(const Computation &comp, unsigned n, bool replaceAllowed) {
  if (countParameters(comp) != 2 * n)
    return std::nullopt;
  const Instruction &root = comp.instructions[comp.root];
  llvm::SmallVector<const Instruction *> parts;
  if (n == 1) {
    parts.push_back(&root);
  } else {
    if (root.opcode != "tuple" || root.operands.size() != n)
      return std::nullopt;
    for (const Operand &o : root.operands) {
      const Instruction *part = lookup(comp, o.name);
      if (!part)
        return std::nullopt;
      parts.push_back(part);
    }
  }
  llvm::SmallVector<llvm::StringRef> opcodes;
  for (unsigned j = 0; j < n; ++j) {
    const Instruction *part = parts[j];
    if (!part->shape.isScalar())
      return std::nullopt;
    if (replaceAllowed && n == 1 && parameterNumber(*part) == 1) {
      opcodes.push_back("replace");
      continue;
    }
    if (!isBinaryReducerOpcode(part->opcode) || part->operands.size() != 2)
      return std::nullopt;
    const Instruction *a = lookup(comp, part->operands[0].name);
    const Instruction *b = lookup(comp, part->operands[1].name);
    if (!a || !b)
      return std::nullopt;
    auto pa = parameterNumber(*a), pb = parameterNumber(*b);
    if (!pa || !pb)
      return std::nullopt;
    bool ok = (*pa == j && *pb == j + n) || (*pa == j + n && *pb == j);
    if (!ok || !a->shape.isScalar() || !b->shape.isScalar() ||
        a->shape.type != part->shape.type || b->shape.type != part->shape.type)
      return std::nullopt;
    opcodes.push_back(part->opcode);
  }
  return opcodes;
}

namespace {

/// A scalar value of the small interpreter that runs reducer bodies.
struct Scalar {
  enum Kind { F, I, B } kind = F;
  double f = 0;
  int64_t i = 0;
  bool b = false;
  static Scalar ofF(double v) { return {F, v, 0, false}; }
  static Scalar ofI(int64_t v) { return {I, 0, v, false}; }
  static Scalar ofB(bool v) { return {B, 0, 0, v}; }
};

Scalar::Kind kindOf(PrimitiveType type) {
  if (type == PrimitiveType::Pred)
    return Scalar::B;
  return isFloat(type) ? Scalar::F : Scalar::I;
}

int64_t wrap(uint64_t v) {
  int64_t out;
  std::memcpy(&out, &v, sizeof(out));
  return out;
}

/// Evaluates a scalar computation on given parameters: enough to recognise
/// comparator-style reducers (argmax/argmin) by what they compute rather
/// than how they are written.
class ScalarEvaluator {
public:
  using Values = std::optional<std::vector<Scalar>>;

  ScalarEvaluator(const Computation &comp, llvm::ArrayRef<Scalar> params)
      : comp_(comp), params_(params), memo_(comp.instructions.size()),
        visiting_(comp.instructions.size(), false) {}

  Values run() {
    if (comp_.instructions.size() > 256)
      return std::nullopt;
    return eval(comp_.root);
  }

private:
  static Values one(Scalar s) { return std::vector<Scalar>{s}; }

  Values operand(const Instruction &instr, size_t i) {
    if (i >= instr.operands.size())
      return std::nullopt;
    auto it = comp_.byName.find(instr.operands[i].name);
    if (it == comp_.byName.end())
      return std::nullopt;
    return eval(it->second);
  }
  std::optional<Scalar> scalarOperand(const Instruction &instr, size_t i) {
    auto v = operand(instr, i);
    if (!v || v->size() != 1)
      return std::nullopt;
    return (*v)[0];
  }

  Values eval(unsigned index) {
    if (memo_[index])
      return memo_[index];
    if (visiting_[index])
      return std::nullopt;
    visiting_[index] = true;
    auto result = compute(comp_.instructions[index]);
    visiting_[index] = false;
    memo_[index] = result;
    return result;
  }

  Values compute(const Instruction &instr) {
    llvm::StringRef op = instr.opcode;
    if (op == "tuple")
      return tuple(instr);
    if (op == "get-tuple-element")
      return getTupleElement(instr);
    if (!instr.shape.isScalar())
      return std::nullopt;
    Scalar::Kind kind = kindOf(instr.shape.type);
    if (op == "parameter")
      return parameter(instr, kind);
    if (op == "constant")
      return constant(instr, kind);
    auto x = scalarOperand(instr, 0);
    if (!x)
      return std::nullopt;
    if (op == "select") {
      auto a = scalarOperand(instr, 1), b = scalarOperand(instr, 2);
      if (!a || !b || x->kind != Scalar::B)
        return std::nullopt;
      return one(x->b ? *a : *b);
    }
    if (op == "copy" || op == "not" || op == "negate" || op == "convert")
      return unary(op, *x, kind);
    if (op == "bitcast" || op == "bitcast-convert")
      return bitcast(instr, *x);
    auto y = scalarOperand(instr, 1);
    if (!y || y->kind != x->kind)
      return std::nullopt;
    if (op == "compare")
      return compare(instr, *x, *y);
    return binary(op, *x, *y);
  }

  Values tuple(const Instruction &instr) {
    std::vector<Scalar> out;
    for (size_t i = 0; i < instr.operands.size(); ++i) {
      auto v = operand(instr, i);
      if (!v)
        return std::nullopt;
      out.insert(out.end(), v->begin(), v->end());
    }
    return out;
  }

  Values getTupleElement(const Instruction &instr) {
    const Attr *index = instr.attr("index");
    int64_t i;
    auto v = operand(instr, 0);
    auto it = comp_.byName.find(
        instr.operands.empty() ? llvm::StringRef() : instr.operands[0].name);
    if (!index || index->value.getAsInteger(10, i) || !v ||
        it == comp_.byName.end())
      return std::nullopt;
    const Shape &tuple = comp_.instructions[it->second].shape;
    if (!tuple.isTuple || i < 0 ||
        i >= static_cast<int64_t>(tuple.elements.size()))
      return std::nullopt;
    size_t offset = tuple.leafOffset(i);
    size_t count = tuple.elements[i].numLeaves();
    if (offset + count > v->size())
      return std::nullopt;
    return std::vector<Scalar>(v->begin() + offset,
                               v->begin() + offset + count);
  }

  Values parameter(const Instruction &instr, Scalar::Kind kind) {
    auto n = parameterNumber(instr);
    if (!n || *n < 0 || *n >= static_cast<int64_t>(params_.size()) ||
        params_[*n].kind != kind)
      return std::nullopt;
    return one(params_[*n]);
  }

  static Values constant(const Instruction &instr, Scalar::Kind kind) {
    llvm::StringRef t = instr.rawOperand.trim();
    if (kind == Scalar::B) {
      if (t == "true" || t == "1")
        return one(Scalar::ofB(true));
      if (t == "false" || t == "0")
        return one(Scalar::ofB(false));
      return std::nullopt;
    }
    if (kind == Scalar::I) {
      int64_t v;
      if (t.getAsInteger(10, v))
        return std::nullopt;
      return one(Scalar::ofI(v));
    }
    std::string s = t.str();
    char *endp = nullptr;
    double v = std::strtod(s.c_str(), &endp);
    if (endp != s.c_str() + s.size())
      return std::nullopt;
    return one(Scalar::ofF(v));
  }

  /// copy, not, negate and convert (to `kind`).
  static Values unary(llvm::StringRef op, Scalar x, Scalar::Kind kind) {
    if (op == "copy")
      return one(x);
    if (op == "not") {
      if (x.kind == Scalar::B)
        return one(Scalar::ofB(!x.b));
      if (x.kind == Scalar::I)
        return one(Scalar::ofI(~x.i));
      return std::nullopt;
    }
    if (op == "negate") {
      if (x.kind == Scalar::F)
        return one(Scalar::ofF(-x.f));
      if (x.kind == Scalar::I)
        return one(Scalar::ofI(wrap(0 - uint64_t(x.i))));
      return std::nullopt;
    }
    if (op != "convert")
      return std::nullopt;
    double v = x.kind == Scalar::F   ? x.f
               : x.kind == Scalar::I ? static_cast<double>(x.i)
                                     : static_cast<double>(x.b);
    if (kind == Scalar::F)
      return one(Scalar::ofF(v));
    if (kind == Scalar::I)
      return one(Scalar::ofI(std::isnan(v)  ? 0
                             : v >= 9.2e18  ? INT64_MAX
                             : v <= -9.2e18 ? INT64_MIN
                                            : static_cast<int64_t>(v)));
    return one(Scalar::ofB(v != 0));
  }

  /// The bits of a 32- or 64-bit scalar read as another type of that width
  /// (XLA's total-order comparators compare floats as integers).
  Values bitcast(const Instruction &instr, Scalar x) {
    auto it = comp_.byName.find(instr.operands[0].name);
    if (it == comp_.byName.end())
      return std::nullopt;
    PrimitiveType from = comp_.instructions[it->second].shape.type;
    PrimitiveType to = instr.shape.type;
    unsigned width = bitWidth(from);
    if (width != bitWidth(to) || (width != 32 && width != 64) ||
        x.kind == Scalar::B || isComplex(from) || isComplex(to))
      return std::nullopt;
    uint64_t bits;
    if (isFloat(from)) {
      if (width == 32) {
        float f = static_cast<float>(x.f);
        uint32_t b32;
        std::memcpy(&b32, &f, 4);
        bits = b32;
      } else {
        std::memcpy(&bits, &x.f, 8);
      }
    } else {
      bits = static_cast<uint64_t>(x.i);
    }
    if (width == 32)
      bits &= 0xffffffffu;
    if (isFloat(to)) {
      if (width == 32) {
        uint32_t b32 = static_cast<uint32_t>(bits);
        float f;
        std::memcpy(&f, &b32, 4);
        return one(Scalar::ofF(f));
      }
      double d;
      std::memcpy(&d, &bits, 8);
      return one(Scalar::ofF(d));
    }
    if (width == 32)
      return one(Scalar::ofI(isUnsigned(to) ? int64_t(uint32_t(bits))
                                            : int64_t(int32_t(bits))));
    return one(Scalar::ofI(wrap(bits)));
  }

  static Values compare(const Instruction &instr, Scalar x, Scalar y) {
    const Attr *dir = instr.attr("direction");
    if (!dir)
      return std::nullopt;
    llvm::StringRef d = dir->value.trim();
    auto test = [&](auto a, auto b) {
      return d == "EQ"   ? a == b
             : d == "NE" ? a != b
             : d == "LT" ? a < b
             : d == "LE" ? a <= b
             : d == "GT" ? a > b
             : d == "GE" ? a >= b
                         : false;
    };
    if (x.kind == Scalar::F)
      return one(Scalar::ofB(test(x.f, y.f)));
    int64_t a = x.kind == Scalar::I ? x.i : x.b;
    int64_t b = y.kind == Scalar::I ? y.i : y.b;
    return one(Scalar::ofB(test(a, b)));
  }

  /// and, or, xor, add, subtract, multiply, maximum, minimum.
  static Values binary(llvm::StringRef op, Scalar x, Scalar y) {
    if (op == "and" || op == "or" || op == "xor") {
      if (x.kind == Scalar::B) {
        bool r = op == "and"  ? (x.b && y.b)
                 : op == "or" ? (x.b || y.b)
                              : (x.b != y.b);
        return one(Scalar::ofB(r));
      }
      if (x.kind == Scalar::I) {
        int64_t r = op == "and"  ? (x.i & y.i)
                    : op == "or" ? (x.i | y.i)
                                 : (x.i ^ y.i);
        return one(Scalar::ofI(r));
      }
      return std::nullopt;
    }
    if (x.kind == Scalar::B)
      return std::nullopt;
    if (x.kind == Scalar::F) {
      double a = x.f, b = y.f;
      bool nan = std::isnan(a) || std::isnan(b);
      if (op == "add")
        return one(Scalar::ofF(a + b));
      if (op == "subtract")
        return one(Scalar::ofF(a - b));
      if (op == "multiply")
        return one(Scalar::ofF(a * b));
      if (op == "maximum")
        return one(Scalar::ofF(nan ? NAN : std::max(a, b)));
      if (op == "minimum")
        return one(Scalar::ofF(nan ? NAN : std::min(a, b)));
      return std::nullopt;
    }
    // Integers wrap, as in HLO (and without undefined behaviour here).
    int64_t a = x.i, b = y.i;
    if (op == "add")
      return one(Scalar::ofI(wrap(uint64_t(a) + uint64_t(b))));
    if (op == "subtract")
      return one(Scalar::ofI(wrap(uint64_t(a) - uint64_t(b))));
    if (op == "multiply")
      return one(Scalar::ofI(wrap(uint64_t(a) * uint64_t(b))));
    if (op == "maximum")
      return one(Scalar::ofI(std::max(a, b)));
    if (op == "minimum")
      return one(Scalar::ofI(std::min(a, b)));
    return std::nullopt;
  }

  const Computation &comp_;
  llvm::ArrayRef<Scalar> params_;
  std::vector<Values> memo_;
  std::vector<bool> visiting_;
};

} // namespace

/// True if `comp`, a reducer over (value, index) pairs, keeps the larger
/// (`isMax`) or smaller value with its index, and the lower index of equal
/// values (JAX's argmax/argmin): checked by running it on sample pairs in
/// both orders. A reducer that breaks ties otherwise depends on the order
/// of combination and is imported as it is (reduce_general).
bool isArgReducer(const Computation &comp, bool isMax, PrimitiveType valueType,
                  PrimitiveType indexType) {
  if (countParameters(comp) != 4)
    return false;
  Scalar::Kind vk = kindOf(valueType), ik = kindOf(indexType);
  if (vk == Scalar::B || ik != Scalar::I)
    return false;
  auto value = [&](double v) {
    return vk == Scalar::F ? Scalar::ofF(v)
                           : Scalar::ofI(static_cast<int64_t>(v));
  };
  struct Probe {
    double a;
    int64_t ia;
    double b;
    int64_t ib;
  };
  const Probe probes[] = {{1, 3, 2, 5},  {2, 5, 1, 3},  {-4, 0, 7, 9},
                          {7, 9, -4, 0}, {5, 1, -6, 2}, {-6, 2, 5, 1},
                          {3, 2, 3, 6},  {3, 6, 3, 2},  {0, 0, 0, 0}};
  for (const Probe &p : probes) {
    Scalar params[] = {value(p.a), Scalar::ofI(p.ia), value(p.b),
                       Scalar::ofI(p.ib)};
    auto out = ScalarEvaluator(comp, params).run();
    if (!out || out->size() != 2 || (*out)[0].kind != vk ||
        (*out)[1].kind != Scalar::I)
      return false;
    double got =
        vk == Scalar::F ? (*out)[0].f : static_cast<double>((*out)[0].i);
    int64_t gotIndex = (*out)[1].i;
    if (p.a == p.b) {
      if (got != p.a || gotIndex != std::min(p.ia, p.ib))
        return false;
      continue;
    }
    bool aWins = isMax ? p.a > p.b : p.a < p.b;
    if (got != (aWins ? p.a : p.b) || gotIndex != (aWins ? p.ia : p.ib))
      return false;
  }
  return true;
}

/// Runs `comp`, a comparator over (lhs, rhs) pairs of one or more operands
/// (parameters 2k and 2k+1), on sample values of the first operand: true if
/// it answers lhs > rhs for each, false if lhs < rhs, nullopt otherwise.
/// Distinct values of the other operands go with each side.
std::optional<bool> comparatorIsGreater(const Computation &comp) {
  std::vector<const Instruction *> params;
  for (const Instruction &instr : comp.instructions)
    if (auto n = parameterNumber(instr)) {
      if (*n < 0 || *n >= 64)
        return std::nullopt;
      if (static_cast<size_t>(*n) >= params.size())
        params.resize(*n + 1, nullptr);
      params[*n] = &instr;
    }
  if (params.size() < 2 || params.size() % 2 != 0 ||
      llvm::is_contained(params, nullptr))
    return std::nullopt;
  for (const Instruction *p : params)
    if (!p->shape.isScalar() || isComplex(p->shape.type))
      return std::nullopt;
  Scalar::Kind vk = kindOf(params[0]->shape.type);
  if (vk == Scalar::B)
    return std::nullopt;
  const std::pair<double, double> probes[] = {
      {1, 2}, {2, 1}, {-4, 7}, {7, -4}, {-6, -5}, {-5, -6}, {3, 3}, {0, 5}};
  bool allGreater = true, allLess = true;
  for (auto [a, b] : probes) {
    llvm::SmallVector<Scalar> args;
    for (size_t i = 0; i < params.size(); ++i) {
      Scalar::Kind k = kindOf(params[i]->shape.type);
      double v = i < 2 ? (i == 0 ? a : b) : double(i);
      args.push_back(k == Scalar::F   ? Scalar::ofF(v)
                     : k == Scalar::I ? Scalar::ofI(static_cast<int64_t>(v))
                                      : Scalar::ofB(i % 2 == 0));
    }
    auto out = ScalarEvaluator(comp, args).run();
    if (!out || out->size() != 1 || (*out)[0].kind != Scalar::B)
      return std::nullopt;
    bool got = (*out)[0].b;
    allGreater &= got == (a > b);
    allLess &= got == (a < b);
  }
  if (allGreater)
    return true;
  if (allLess)
    return false;
  return std::nullopt;
}

std::optional<ReduceKind> reduceKindOf(llvm::StringRef opcode) {
  return llvm::StringSwitch<std::optional<ReduceKind>>(opcode)
      .Case("add", ReduceKind::sum)
      .Case("multiply", ReduceKind::product)
      .Case("maximum", ReduceKind::max)
      .Case("minimum", ReduceKind::min)
      .Case("and", ReduceKind::And)
      .Case("or", ReduceKind::Or)
      .Default(std::nullopt);
}

WindowAttrs windowAttrs(OpBuilder &b, llvm::ArrayRef<WindowDim> window) {
  llvm::SmallVector<int64_t> size, stride, lhsDil, rhsDil, pad;
  bool anyStride = false, anyLhs = false, anyRhs = false, anyPad = false;
  for (const WindowDim &d : window) {
    size.push_back(d.size);
    stride.push_back(d.stride);
    lhsDil.push_back(d.lhsDilate);
    rhsDil.push_back(d.rhsDilate);
    pad.append({d.padLow, d.padHigh});
    anyStride |= d.stride != 1;
    anyLhs |= d.lhsDilate != 1;
    anyRhs |= d.rhsDilate != 1;
    anyPad |= d.padLow != 0 || d.padHigh != 0;
  }
  auto optional = [&](bool any, llvm::ArrayRef<int64_t> v) {
    return any ? b.getDenseI64ArrayAttr(v) : DenseI64ArrayAttr();
  };
  WindowAttrs attrs;
  attrs.size = b.getDenseI64ArrayAttr(size);
  attrs.strides = optional(anyStride, stride);
  attrs.lhsDilation = optional(anyLhs, lhsDil);
  attrs.rhsDilation = optional(anyRhs, rhsDil);
  if (anyPad)
    attrs.padding = DenseIntElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(window.size()), 2},
                              b.getI64Type()),
        pad);
  return attrs;
}

//===----------------------------------------------------------------------===//
// reduce and reduce-window
//===----------------------------------------------------------------------===//

FailureOr<Importer::Reduction>
Importer::reductionOperands(const Instruction &instr, Operands operands) {
  size_t n = operands.size();
  if (n == 0 || n % 2 != 0) {
    error(instr.opcodeLoc) << "'" << instr.opcode
                           << "' takes inputs and as many init values, found "
                           << n << " operands";
    return failure();
  }
  size_t inputs = n / 2;
  llvm::SmallVector<const Shape *> shapes;
  if (inputs == 1) {
    shapes.push_back(&instr.shape);
  } else {
    if (!instr.shape.isTuple || instr.shape.elements.size() != inputs) {
      error(instr.shape.loc) << "a '" << instr.opcode << "' of " << inputs
                             << " inputs produces a tuple of " << inputs;
      return failure();
    }
    for (const Shape &s : instr.shape.elements)
      shapes.push_back(&s);
  }
  Reduction r;
  for (const Shape *s : shapes) {
    if (s->isTuple) {
      error(instr.shape.loc) << "'" << instr.opcode
                             << "' results must be arrays";
      return failure();
    }
    r.types.push_back(tensorType(ctx_, *s));
  }
  for (size_t i = 0; i < n; ++i) {
    auto v = array(instr, operands, i);
    if (failed(v))
      return failure();
    (i < inputs ? r.inputs : r.inits).push_back(*v);
  }
  const Attr *apply = requireAttr(instr, "to_apply");
  r.reducer = apply ? computationRef(*apply) : nullptr;
  if (!r.reducer)
    return failure();
  // The reducer combines two of each init value's element type.
  llvm::SmallVector<PrimitiveType> accumulators;
  for (size_t i = inputs; i < n; ++i)
    accumulators.push_back(operands[i]->shape->type);
  if (failed(checkReducerParameters(instr, *apply, *r.reducer, accumulators)))
    return failure();
  // The kinds, if the reducer applies one to each pair and each kind
  // applies to its element type (XLA's `add` of pred is `or`: general).
  r.kinds = componentwiseReducer(*r.reducer, inputs, false);
  if (r.kinds)
    for (size_t i = 0; i < inputs; ++i)
      if (operands[i]->shape->type == PrimitiveType::Pred &&
          (r.kinds.value()[i] == "add" || r.kinds.value()[i] == "multiply"))
        r.kinds.reset();
  return r;
}

LogicalResult Importer::reducerBody(const Instruction &instr, Region &body,
                                    Operands inits) {
  llvm::SmallVector<PrimitiveType> accs;
  for (const HloValue *v : inits)
    accs.push_back(v->shape->type);
  llvm::SmallVector<PrimitiveType> params(accs);
  params.append(accs);
  return scalarComputation(instr, "to_apply", body, params, accs);
}

LogicalResult Importer::emitReduce(const Instruction &instr, Operands operands,
                                   HloValue &result) {
  auto r = reductionOperands(instr, operands);
  auto dims = listAttr(instr, "dimensions", true);
  if (failed(r) || failed(dims))
    return failure();
  size_t inputs = r->inputs.size();
  Location loc = opLoc(instr);
  const Computation *reducer = r->reducer;
  llvm::SmallVector<Value> &in = r->inputs, &init = r->inits;

  // argmax / argmin: reduce(values, iota, init, init_index) with a
  // comparator that keeps the larger (smaller) value and its index.
  if (inputs == 2 && !r->kinds) {
    PrimitiveType vt = operands[0]->shape->type, it = operands[1]->shape->type;
    bool isMax = isArgReducer(*reducer, true, vt, it);
    bool isMin = !isMax && isArgReducer(*reducer, false, vt, it);
    if (isMax || isMin) {
      if (dims->size() != 1) {
        error(instr.attr("dimensions")->valueLoc)
            << "an argmax/argmin-style 'reduce' must reduce one dimension";
        return failure();
      }
      int64_t dim = (*dims)[0];
      // The index operand must number positions along `dim`.
      bool isIota = false;
      if (auto iota = in[1].getDefiningOp<IotaOp>())
        isIota = iota.getIotaDimension() == dim;
      else if (auto bcast = in[1].getDefiningOp<BroadcastInDimOp>())
        if (auto iota = bcast.getOperand().getDefiningOp<IotaOp>())
          isIota = iota.getType().getRank() == 1 &&
                   bcast.getBroadcastDimensions().size() == 1 &&
                   bcast.getBroadcastDimensions()[0] == dim;
      DenseIntElementsAttr constant;
      if (!isIota && matchPattern(in[1], m_Constant(&constant))) {
        // A constant iota (XLA folds one along a dimension of size 1).
        ArrayRef<int64_t> shape = constant.getType().getShape();
        int64_t stride = 1;
        for (int64_t d = shape.size() - 1; d > dim; --d)
          stride *= shape[d];
        isIota = true;
        for (auto [i, v] : llvm::enumerate(constant.getValues<APInt>()))
          isIota &= v.getSExtValue() ==
                    static_cast<int64_t>(i) / stride % shape[dim];
      }
      if (!isIota) {
        error(instr.operands[1].loc)
            << "the indices of an argmax/argmin-style 'reduce' must be an "
               "iota along dimension "
            << dim;
        return failure();
      }
      if (!isReduceIdentity(init[0],
                            isMax ? ReduceKind::max : ReduceKind::min)) {
        error(instr.operands[2].loc)
            << "the init value of an " << (isMax ? "argmax" : "argmin")
            << "-style 'reduce' must be " << (isMax ? "-inf" : "+inf")
            << " (or the integer type's " << (isMax ? "minimum" : "maximum")
            << ")";
        return failure();
      }
      Type vType = r->types[0], iType = r->types[1];
      auto dimAttr = b_.getI64IntegerAttr(dim);
      Operation *arg =
          isMax ? b_.create<ArgMaxOp>(loc, vType, iType, in[0], dimAttr)
                      .getOperation()
                : b_.create<ArgMinOp>(loc, vType, iType, in[0], dimAttr)
                      .getOperation();
      result.leaves = {arg->getResult(0), arg->getResult(1)};
      return success();
    }
  }

  if (!r->kinds) {
    auto general = b_.create<ReduceGeneralOp>(
        loc, llvm::to_vector_of<Type>(r->types), in, init,
        b_.getDenseI64ArrayAttr(*dims));
    if (failed(reducerBody(instr, general.getBody(),
                           operands.drop_front(inputs))))
      return failure();
    result.leaves.append(general.getResults().begin(),
                         general.getResults().end());
    return success();
  }
  for (size_t i = 0; i < inputs; ++i) {
    ReduceKind kind = *reduceKindOf((*r->kinds)[i]);
    RankedTensorType type = r->types[i];
    Value reduced =
        b_.create<ReduceOp>(loc, type, ReduceKindAttr::get(ctx_, kind), in[i],
                            b_.getDenseI64ArrayAttr(*dims));
    // HLO combines the init value once more; the identity changes nothing.
    result.leaves.push_back(
        foldInitValue(b_, loc, kind, in[i], reduced, init[i]));
  }
  return success();
}

FailureOr<llvm::SmallVector<WindowDim>>
Importer::windowOf(const Instruction &instr, int64_t rank) {
  llvm::SmallVector<WindowDim> window;
  const Attr *w = instr.attr("window");
  if (!w) {
    window.assign(rank, WindowDim());
    return window;
  }
  if (failed(AttrParser(*w, locator_).window(window)))
    return failure();
  if (static_cast<int64_t>(window.size()) != rank) {
    error(w->valueLoc) << "the window has " << window.size()
                       << " dimensions, the operand " << rank;
    return failure();
  }
  return window;
}

LogicalResult Importer::emitReduceWindow(const Instruction &instr,
                                         Operands operands, HloValue &result) {
  auto r = reductionOperands(instr, operands);
  if (failed(r))
    return failure();
  size_t inputs = r->inputs.size();
  auto window = windowOf(instr, r->types[0].getRank());
  if (failed(window))
    return failure();
  for (const WindowDim &d : *window) {
    if (d.reversal) {
      error(instr.attr("window")->valueLoc)
          << "'reduce-window' with rhs_reversal is not supported";
      return failure();
    }
  }
  WindowAttrs w = windowAttrs(b_, *window);
  Location loc = opLoc(instr);
  if (!r->kinds || inputs != 1) {
    auto general = b_.create<ReduceWindowGeneralOp>(
        loc, llvm::to_vector_of<Type>(r->types), r->inputs, r->inits, w.size,
        w.strides, w.lhsDilation,
        w.rhsDilation, w.padding);
    if (failed(reducerBody(instr, general.getBody(),
                           operands.drop_front(inputs))))
      return failure();
    result.leaves.append(general.getResults().begin(),
                         general.getResults().end());
    return success();
  }
  ReduceKind kind = *reduceKindOf((*r->kinds)[0]);
  Value x = r->inputs[0], init = r->inits[0];
  RankedTensorType type = r->types[0];
  auto reduced = b_.create<ReduceWindowOp>(
      loc, type, ReduceKindAttr::get(ctx_, kind), x, w.size, w.strides,
      w.lhsDilation, w.rhsDilation, w.padding);
  // XLA folds the init value into every window, and its padding (edges and
  // base-dilation holes) holds it too.
  result.leaves.push_back(
      foldInitValue(b_, loc, kind, x, reduced, init, reduced));
  return success();
}

} // namespace mlir::torus::hlo
