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
/// (`isMax`) or smaller value with its index: checked by running it on
/// sample pairs in both orders. On equal values any of the two indices is
/// accepted (torus.argmax/argmin then take the lowest, a valid choice for a
/// reduction whose order XLA leaves open).
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
      if (got != p.a || (gotIndex != p.ia && gotIndex != p.ib))
        return false;
      continue;
    }
    bool aWins = isMax ? p.a > p.b : p.a < p.b;
    if (got != (aWins ? p.a : p.b) || gotIndex != (aWins ? p.ia : p.ib))
      return false;
  }
  return true;
}

/// True if `comp`, a reducer over n-tuples (value, payload...) whose
/// parameters are the n accumulated values then the n new ones, returns
/// the whole tuple with the larger (`isMax`) or smaller value, either one
/// on ties: what XLA makes of a max pool's select-and-scatter (payloads
/// are indices). Checked by running it on samples, as isArgReducer.
bool isArgTupleReducer(const Computation &comp, unsigned n, bool isMax) {
  if (n < 2 || countParameters(comp) != 2 * n)
    return false;
  std::vector<const Instruction *> params(2 * n, nullptr);
  for (const Instruction &instr : comp.instructions)
    if (auto k = parameterNumber(instr);
        k && *k >= 0 && *k < static_cast<int64_t>(2 * n))
      params[*k] = &instr;
  if (llvm::is_contained(params, nullptr))
    return false;
  for (const Instruction *p : params)
    if (!p->shape.isScalar() || isComplex(p->shape.type) ||
        kindOf(p->shape.type) == Scalar::B)
      return false;
  const std::pair<double, double> probes[] = {
      {1, 2}, {2, 1}, {-4, 7}, {7, -4}, {3, 3}, {0, 0}, {-6, -5}};
  for (auto [a, b] : probes) {
    llvm::SmallVector<Scalar> args;
    for (unsigned i = 0; i < 2 * n; ++i) {
      unsigned j = i % n;
      bool rhs = i >= n;
      double v = j == 0 ? (rhs ? b : a) : double(10 * j + (rhs ? 5 : 1));
      args.push_back(kindOf(params[i]->shape.type) == Scalar::F
                         ? Scalar::ofF(v)
                         : Scalar::ofI(static_cast<int64_t>(v)));
    }
    auto out = ScalarEvaluator(comp, args).run();
    if (!out || out->size() != n)
      return false;
    auto equals = [&](unsigned from) {
      for (unsigned j = 0; j < n; ++j) {
        const Scalar &got = (*out)[j], &want = args[from + j];
        if (got.kind != want.kind ||
            (got.kind == Scalar::F ? got.f != want.f : got.i != want.i))
          return false;
      }
      return true;
    };
    bool lhsWins = isMax ? a > b : a < b;
    if (a == b ? !(equals(0) || equals(n)) : !equals(lhsWins ? 0 : n))
      return false;
  }
  return true;
}

/// True if the init tuple `init` of an arg-tuple reducer never wins: the
/// reducer returns the other tuple whatever its value (XLA's reducers mark
/// the init with index -1 and let any real element replace it).
static bool initNeverWins(const Computation &comp, unsigned n,
                          llvm::ArrayRef<Scalar> init) {
  for (double v : {-1e30, -1.0, 0.0, 1.0, 1e30}) {
    llvm::SmallVector<Scalar> args(init.begin(), init.end());
    for (unsigned j = 0; j < n; ++j) {
      Scalar s = init[j];
      if (s.kind == Scalar::F)
        s.f = j == 0 ? v : double(7 + j);
      else
        s.i = j == 0 ? static_cast<int64_t>(v < -1e18 ? -1000000 : v)
                     : int64_t(7 + j);
      args.push_back(s);
    }
    auto out = ScalarEvaluator(comp, args).run();
    if (!out || out->size() != n)
      return false;
    for (unsigned j = 0; j < n; ++j) {
      const Scalar &got = (*out)[j], &want = args[n + j];
      if (got.kind != want.kind ||
          (got.kind == Scalar::F ? got.f != want.f : got.i != want.i))
        return false;
    }
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

LogicalResult Importer::emitReduce(const Instruction &instr, Operands operands,
                                   HloValue &result) {
  size_t n = operands.size();
  if (n == 0 || n % 2 != 0) {
    error(instr.opcodeLoc) << "'reduce' takes inputs and as many init "
                              "values, found "
                           << n << " operands";
    return failure();
  }
  size_t inputs = n / 2;
  Location loc = opLoc(instr);
  auto dims = listAttr(instr, "dimensions", true);
  if (failed(dims))
    return failure();
  llvm::SmallVector<const Shape *> resultShapes;
  if (inputs == 1) {
    resultShapes.push_back(&instr.shape);
  } else {
    if (!instr.shape.isTuple || instr.shape.elements.size() != inputs) {
      error(instr.shape.loc) << "a 'reduce' of " << inputs
                             << " inputs produces a tuple of " << inputs;
      return failure();
    }
    for (const Shape &s : instr.shape.elements)
      resultShapes.push_back(&s);
  }
  for (const Shape *s : resultShapes)
    if (s->isTuple) {
      error(instr.shape.loc) << "'reduce' results must be arrays";
      return failure();
    }
  llvm::SmallVector<Value> in, init;
  for (size_t i = 0; i < n; ++i) {
    auto v = array(instr, operands, i);
    if (failed(v))
      return failure();
    (i < inputs ? in : init).push_back(*v);
  }

  const Attr *apply = requireAttr(instr, "to_apply");
  if (!apply)
    return failure();
  const Computation *reducer = computationRef(*apply);
  if (!reducer)
    return failure();

  // argmax / argmin: reduce(values, iota, init, init_index) with a
  // comparator that keeps the larger (smaller) value and its index.
  if (inputs == 2 && !componentwiseReducer(*reducer, 2)) {
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
      if (!isIdentity(init[0], isMax ? ReduceKind::max : ReduceKind::min)) {
        error(instr.operands[2].loc)
            << "the init value of an " << (isMax ? "argmax" : "argmin")
            << "-style 'reduce' must be " << (isMax ? "-inf" : "+inf")
            << " (or the integer type's " << (isMax ? "minimum" : "maximum")
            << ")";
        return failure();
      }
      Type vType = tensorType(ctx_, *resultShapes[0]);
      Type iType = tensorType(ctx_, *resultShapes[1]);
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

  auto opcodes = reducerOpcodes(instr, inputs, /*replaceAllowed=*/false);
  if (failed(opcodes))
    return failure();
  for (size_t i = 0; i < inputs; ++i) {
    ReduceKind kind = *reduceKindOf((*opcodes)[i]);
    RankedTensorType type = tensorType(ctx_, *resultShapes[i]);
    Value reduced =
        b_.create<ReduceOp>(loc, type, ReduceKindAttr::get(ctx_, kind), in[i],
                            b_.getDenseI64ArrayAttr(*dims));
    // HLO combines the init value once more; the identity changes nothing.
    if (!isIdentity(init[i], kind)) {
      Value initValue = init[i];
      if (type.getRank() > 0)
        initValue = b_.create<BroadcastInDimOp>(loc, type, init[i],
                                                b_.getDenseI64ArrayAttr({}));
      reduced = combine(kind, loc, reduced, initValue);
    }
    result.leaves.push_back(reduced);
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
  if (operands.size() > 2 && operands.size() % 2 == 0)
    return emitArgReduceWindow(instr, operands, result);
  if (failed(checkOperandCount(instr, 2, operands.size())))
    return failure();
  auto x = array(instr, operands, 0), init = array(instr, operands, 1);
  auto type = resultType(instr);
  if (failed(x) || failed(init) || failed(type))
    return failure();
  auto opcodes = reducerOpcodes(instr, 1, false);
  if (failed(opcodes))
    return failure();
  ReduceKind kind = *reduceKindOf((*opcodes)[0]);
  auto window =
      windowOf(instr, cast<RankedTensorType>(x->getType()).getRank());
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
  auto reduceWindow = [&](Value operand) -> Value {
    return b_.create<ReduceWindowOp>(loc, *type,
                                     ReduceKindAttr::get(ctx_, kind), operand,
                                     w.size, w.strides, w.lhsDilation,
                                     w.rhsDilation, w.padding);
  };
  Value reduced = reduceWindow(*x);
  if (!isIdentity(*init, kind)) {
    // XLA folds the init value into every window, and its padding (edges
    // and base-dilation holes) holds the init value too. Torus reduces
    // with the identity, then combines the init value once (max, min, and,
    // or: once is as good as many) or once per padding element plus one
    // (sum, product).
    Value initValue = *init;
    if (type->getRank() > 0)
      initValue = b_.create<BroadcastInDimOp>(loc, *type, *init,
                                              b_.getDenseI64ArrayAttr({}));
    bool padded = llvm::any_of(*window, [](const WindowDim &d) {
      return d.padLow != 0 || d.padHigh != 0 || d.lhsDilate != 1;
    });
    if (padded && (kind == ReduceKind::sum || kind == ReduceKind::product)) {
      // times = window size + 1 - (real elements in the window)
      Type et = type->getElementType();
      auto splat = [&](RankedTensorType t, double v) -> Value {
        TypedAttr a = isa<FloatType>(et)
                          ? TypedAttr(FloatAttr::get(et, v))
                          : TypedAttr(IntegerAttr::get(et, (int64_t)v));
        return b_.create<ConstantOp>(loc, DenseElementsAttr::get(t, a));
      };
      int64_t size = 1;
      for (const WindowDim &d : *window)
        size *= d.size;
      auto xType = cast<RankedTensorType>(x->getType());
      Value count = b_.create<ReduceWindowOp>(
          loc, *type, ReduceKindAttr::get(ctx_, ReduceKind::sum),
          splat(xType, 1), w.size, w.strides, w.lhsDilation, w.rhsDilation,
          w.padding);
      Value times =
          b_.create<SubtractOp>(loc, *type, splat(*type, size + 1), count);
      initValue =
          kind == ReduceKind::sum
              ? Value(b_.create<MultiplyOp>(loc, *type, initValue, times))
              : Value(b_.create<PowerOp>(loc, *type, initValue, times));
    }
    reduced = combine(kind, loc, reduced, initValue);
  }
  result.leaves.push_back(reduced);
  return success();
}

// reduce-window of (values, payloads...) with a reducer that keeps the
// tuple of the larger (or smaller) value: XLA's CPU pipeline writes it for
// a max pool's gradient, the payloads being the iota indices of each
// element, so that a scatter can send each window's gradient to its
// maximum. Torus has no variadic reduce_window; it stacks the W elements of
// every window along a new leading dimension (one strided slice per window
// offset), takes argmax/argmin along it (the first maximum in window order,
// as XLA:CPU's reduction, which keeps the accumulator on ties), and picks
// each payload at that position. Windows without padding or dilation.
LogicalResult Importer::emitArgReduceWindow(const Instruction &instr,
                                            Operands operands,
                                            HloValue &result) {
  size_t n = operands.size() / 2;
  llvm::SmallVector<Value> inputs, inits;
  for (size_t i = 0; i < 2 * n; ++i) {
    auto v = array(instr, operands, i);
    if (failed(v))
      return failure();
    (i < n ? inputs : inits).push_back(*v);
  }
  llvm::SmallVector<const Shape *> shapes;
  instr.shape.leaves(shapes);
  const Attr *apply = requireAttr(instr, "to_apply");
  if (!apply || shapes.size() != n)
    return failure();
  const Computation *comp = computationRef(*apply);
  if (!comp)
    return failure();
  bool isMax = isArgTupleReducer(*comp, n, /*isMax=*/true);
  if (!isMax && !isArgTupleReducer(*comp, n, /*isMax=*/false)) {
    error(apply->valueLoc)
        << "'reduce-window' of " << n << " arrays with reducer '"
        << comp->name << "' (line " << locator_.line(comp->loc)
        << ") is not supported: Torus reads a variadic reduce-window whose "
           "reducer keeps the tuple with the larger or smaller first value "
           "(XLA's form of a max pool's gradient)";
    return failure();
  }
  ReduceKind kind = isMax ? ReduceKind::max : ReduceKind::min;
  // The init must never be chosen: the identity, or a tuple the reducer
  // always replaces.
  llvm::SmallVector<Scalar> initScalars;
  for (Value v : inits) {
    DenseElementsAttr attr;
    if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
      break;
    Type et = attr.getElementType();
    if (isa<FloatType>(et))
      initScalars.push_back(
          Scalar::ofF(attr.getSplatValue<llvm::APFloat>().convertToDouble()));
    else if (isa<IntegerType>(et) && et.getIntOrFloatBitWidth() > 1)
      initScalars.push_back(
          Scalar::ofI(attr.getSplatValue<llvm::APInt>().getSExtValue()));
    else
      break;
  }
  bool initIgnored = initScalars.size() == n &&
                     initNeverWins(*comp, static_cast<unsigned>(n), initScalars);
  if (!initIgnored && !isIdentity(inits[0], kind)) {
    error(instr.operands[n].loc)
        << "'reduce-window' of " << n << " arrays: the first init value must "
        << (isMax ? "be -inf (or the type's minimum)"
                  : "be +inf (or the type's maximum)");
    return failure();
  }
  auto inType = cast<RankedTensorType>(inputs[0].getType());
  int64_t rank = inType.getRank();
  auto window = windowOf(instr, rank);
  if (failed(window))
    return failure();
  for (const WindowDim &d : *window)
    if (d.padLow || d.padHigh || d.lhsDilate != 1 || d.rhsDilate != 1 ||
        d.reversal) {
      error(instr.attr("window")->valueLoc)
          << "'reduce-window' of " << n
          << " arrays with padding or dilation is not supported";
      return failure();
    }
  llvm::ArrayRef<int64_t> outDims = shapes[0]->dims;
  if (static_cast<int64_t>(outDims.size()) != rank)
    return failure();
  for (size_t i = 0; i < n; ++i)
    if (shapes[i]->isTuple || llvm::ArrayRef(shapes[i]->dims) != outDims ||
        cast<RankedTensorType>(inputs[i].getType()).getShape() !=
            inType.getShape()) {
      error(instr.shape.loc) << "'reduce-window' of " << n
                             << " arrays needs arrays of one shape";
      return failure();
    }
  Location loc = opLoc(instr);
  // Every window offset, row-major: one strided slice per input.
  llvm::SmallVector<int64_t> offset(rank, 0);
  int64_t count = 1;
  for (const WindowDim &d : *window)
    count *= d.size;
  llvm::SmallVector<int64_t> stackedDims = {count};
  stackedDims.append(outDims.begin(), outDims.end());
  llvm::SmallVector<int64_t> oneDims = {1};
  oneDims.append(outDims.begin(), outDims.end());
  llvm::SmallVector<llvm::SmallVector<Value>> pieces(n);
  for (int64_t w = 0; w < count; ++w) {
    llvm::SmallVector<int64_t> start, limit, stride;
    for (int64_t d = 0; d < rank; ++d) {
      const WindowDim &wd = (*window)[d];
      start.push_back(offset[d]);
      limit.push_back(offset[d] + (outDims[d] - 1) * wd.stride + 1);
      stride.push_back(wd.stride);
    }
    for (size_t i = 0; i < n; ++i) {
      Type et = cast<RankedTensorType>(inputs[i].getType()).getElementType();
      Value slice = b_.create<SliceOp>(
          loc, RankedTensorType::get(outDims, et), inputs[i],
          b_.getDenseI64ArrayAttr(start), b_.getDenseI64ArrayAttr(limit),
          b_.getDenseI64ArrayAttr(stride));
      pieces[i].push_back(
          b_.create<ReshapeOp>(loc, RankedTensorType::get(oneDims, et), slice));
    }
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++offset[d] < (*window)[d].size)
        break;
      offset[d] = 0;
    }
  }
  llvm::SmallVector<Value> stacked;
  for (size_t i = 0; i < n; ++i)
    stacked.push_back(pieces[i].size() == 1
                          ? pieces[i][0]
                          : b_.create<ConcatenateOp>(loc, pieces[i], 0)
                                .getResult());
  Type indexType = b_.getI32Type();
  auto valueType = tensorType(ctx_, *shapes[0]);
  auto indicesType = RankedTensorType::get(outDims, indexType);
  Operation *arg =
      isMax ? b_.create<ArgMaxOp>(loc, valueType, indicesType, stacked[0],
                                  b_.getI64IntegerAttr(0))
                  .getOperation()
            : b_.create<ArgMinOp>(loc, valueType, indicesType, stacked[0],
                                  b_.getI64IntegerAttr(0))
                  .getOperation();
  result.leaves.push_back(arg->getResult(0));
  // Each payload at the chosen offset: a one-hot select summed over the
  // stacked dimension.
  auto stackedIndexType = RankedTensorType::get(stackedDims, indexType);
  Value iota =
      b_.create<IotaOp>(loc, stackedIndexType, b_.getI64IntegerAttr(0));
  llvm::SmallVector<int64_t> keep;
  for (int64_t d = 1; d <= rank; ++d)
    keep.push_back(d);
  Value chosen = b_.create<BroadcastInDimOp>(loc, stackedIndexType,
                                             arg->getResult(1),
                                             b_.getDenseI64ArrayAttr(keep));
  Value hot = b_.create<CompareOp>(
      loc, RankedTensorType::get(stackedDims, b_.getI1Type()),
      ComparisonDirectionAttr::get(ctx_, ComparisonDirection::EQ), iota,
      chosen, UnitAttr());
  for (size_t i = 1; i < n; ++i) {
    auto type = cast<RankedTensorType>(stacked[i].getType());
    auto zero = b_.create<ConstantOp>(
        loc, DenseElementsAttr::get(
                 type, b_.getZeroAttr(type.getElementType())));
    Value picked = b_.create<SelectOp>(loc, type, hot, stacked[i], zero);
    result.leaves.push_back(b_.create<ReduceOp>(
        loc, tensorType(ctx_, *shapes[i]),
        ReduceKindAttr::get(ctx_, ReduceKind::sum), picked,
        b_.getDenseI64ArrayAttr({0})));
  }
  return success();
}

} // namespace mlir::torus::hlo
