//===- HloImporter.cpp - XLA HLO text to the torus dialect ----------------===//
//
// HloParser reads the text into a syntax tree; this file turns the tree into
// torus ops. Each computation is emitted where it is needed: the ENTRY one as
// the public function, `call`ed ones as private functions, while/conditional
// bodies into the regions of torus.while/if/case, fusions inline. Within a
// computation, instructions are emitted operands first (HLO allows any
// order), iteratively so that long chains cannot exhaust the stack.
//
// An HLO value is a tree of tuples whose leaves are arrays; here it is the
// list of its leaves plus its HLO shape (HloValue). `tuple` and
// `get-tuple-element` only regroup leaves and emit nothing.
//
// Unsigned types become the signless type of their width. That is exact for
// the ops that do not look at the sign (bitwise ops, add, multiply, shapes,
// collectives without max/min, ...) and for a convert between u32 and s32;
// ops that would read an unsigned value as signed are rejected.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/TorusOps.h"
#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloImport.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/HloSharding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <functional>

namespace mlir::torus::hlo {
namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type elementType(MLIRContext *ctx, PrimitiveType type) {
  switch (type) {
  case PrimitiveType::Pred:
    return IntegerType::get(ctx, 1);
  case PrimitiveType::S32:
  case PrimitiveType::U32:
    return IntegerType::get(ctx, 32);
  case PrimitiveType::S64:
  case PrimitiveType::U64:
    return IntegerType::get(ctx, 64);
  case PrimitiveType::F16:
    return Float16Type::get(ctx);
  case PrimitiveType::BF16:
    return BFloat16Type::get(ctx);
  case PrimitiveType::F32:
    return Float32Type::get(ctx);
  case PrimitiveType::F64:
    return Float64Type::get(ctx);
  }
  return {};
}

RankedTensorType tensorType(MLIRContext *ctx, const Shape &shape) {
  return RankedTensorType::get(shape.dims, elementType(ctx, shape.type));
}

std::string shapeText(const Shape &shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::function<void(const Shape &)> print = [&](const Shape &s) {
    if (s.isTuple) {
      os << "(";
      llvm::interleave(s.elements, os, print, ", ");
      os << ")";
      return;
    }
    os << primitiveTypeName(s.type) << "[";
    llvm::interleave(s.dims, os, ",");
    os << "]";
  };
  print(shape);
  return text;
}

const llvm::fltSemantics &semantics(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::F16:
    return llvm::APFloat::IEEEhalf();
  case PrimitiveType::BF16:
    return llvm::APFloat::BFloat();
  case PrimitiveType::F64:
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

  LogicalResult element() {
    llvm::SMLoc at = cur_.loc();
    llvm::StringRef token = cur_.numberToken();
    if (token.empty())
      return expected("a number");
    auto bad = [&]() {
      locator_.error(at) << "invalid " << primitiveTypeName(type_)
                         << " literal '" << token << "'";
      return failure();
    };
    if (isFloat(type_)) {
      const llvm::fltSemantics &sem = semantics(type_);
      bool negative = token.starts_with("-");
      llvm::StringRef body =
          token.drop_front(negative || token.starts_with("+"));
      if (body.starts_with("nan")) {
        floats_.push_back(llvm::APFloat::getNaN(sem, negative));
        return success();
      }
      if (body == "inf") {
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
};

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

/// For a reducer over `n` inputs whose result `j` is `op_j(param j, param
/// j + n)` (either order): the opcodes op_j. `replaceAllowed` also accepts
/// `ROOT parameter(1)` (scatter's overwrite) as "replace".
std::optional<llvm::SmallVector<llvm::StringRef>>
componentwiseReducer(const Computation &comp, unsigned n,
                     bool replaceAllowed = false) {
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
  ScalarEvaluator(const Computation &comp, llvm::ArrayRef<Scalar> params)
      : comp_(comp), params_(params), memo_(comp.instructions.size()),
        visiting_(comp.instructions.size(), false) {}

  std::optional<std::vector<Scalar>> run() {
    if (comp_.instructions.size() > 256)
      return std::nullopt;
    return eval(comp_.root);
  }

private:
  std::optional<std::vector<Scalar>> operand(const Instruction &instr,
                                             size_t i) {
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

  std::optional<std::vector<Scalar>> eval(unsigned index) {
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

  std::optional<std::vector<Scalar>> compute(const Instruction &instr) {
    llvm::StringRef op = instr.opcode;
    if (op == "tuple") {
      std::vector<Scalar> out;
      for (size_t i = 0; i < instr.operands.size(); ++i) {
        auto v = operand(instr, i);
        if (!v)
          return std::nullopt;
        out.insert(out.end(), v->begin(), v->end());
      }
      return out;
    }
    if (op == "get-tuple-element") {
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
    if (!instr.shape.isScalar())
      return std::nullopt;
    Scalar::Kind kind = kindOf(instr.shape.type);
    if (op == "parameter") {
      auto n = parameterNumber(instr);
      if (!n || *n < 0 || *n >= static_cast<int64_t>(params_.size()) ||
          params_[*n].kind != kind)
        return std::nullopt;
      return std::vector<Scalar>{params_[*n]};
    }
    if (op == "constant") {
      llvm::StringRef t = instr.rawOperand.trim();
      if (kind == Scalar::B) {
        if (t == "true" || t == "1")
          return std::vector<Scalar>{Scalar::ofB(true)};
        if (t == "false" || t == "0")
          return std::vector<Scalar>{Scalar::ofB(false)};
        return std::nullopt;
      }
      if (kind == Scalar::I) {
        int64_t v;
        if (t.getAsInteger(10, v))
          return std::nullopt;
        return std::vector<Scalar>{Scalar::ofI(v)};
      }
      std::string s = t.str();
      char *endp = nullptr;
      double v = std::strtod(s.c_str(), &endp);
      if (endp != s.c_str() + s.size())
        return std::nullopt;
      return std::vector<Scalar>{Scalar::ofF(v)};
    }
    auto x = scalarOperand(instr, 0);
    if (!x)
      return std::nullopt;
    auto one = [](Scalar s) { return std::vector<Scalar>{s}; };
    if (op == "copy")
      return one(*x);
    if (op == "not") {
      if (x->kind == Scalar::B)
        return one(Scalar::ofB(!x->b));
      if (x->kind == Scalar::I)
        return one(Scalar::ofI(~x->i));
      return std::nullopt;
    }
    if (op == "negate") {
      if (x->kind == Scalar::F)
        return one(Scalar::ofF(-x->f));
      if (x->kind == Scalar::I)
        return one(Scalar::ofI(wrap(0 - uint64_t(x->i))));
      return std::nullopt;
    }
    if (op == "convert") {
      double v = x->kind == Scalar::F   ? x->f
                 : x->kind == Scalar::I ? static_cast<double>(x->i)
                                        : static_cast<double>(x->b);
      if (kind == Scalar::F)
        return one(Scalar::ofF(v));
      if (kind == Scalar::I)
        return one(Scalar::ofI(std::isnan(v)  ? 0
                               : v >= 9.2e18  ? INT64_MAX
                               : v <= -9.2e18 ? INT64_MIN
                                              : static_cast<int64_t>(v)));
      return one(Scalar::ofB(v != 0));
    }
    if (op == "select") {
      auto a = scalarOperand(instr, 1), b = scalarOperand(instr, 2);
      if (!a || !b || x->kind != Scalar::B)
        return std::nullopt;
      return one(x->b ? *a : *b);
    }
    auto y = scalarOperand(instr, 1);
    if (!y || y->kind != x->kind)
      return std::nullopt;
    if (op == "compare") {
      const Attr *dir = instr.attr("direction");
      if (!dir)
        return std::nullopt;
      llvm::StringRef d = dir->value.trim();
      if (x->kind == Scalar::F) {
        double a = x->f, b = y->f;
        bool r = d == "EQ"   ? a == b
                 : d == "NE" ? a != b
                 : d == "LT" ? a < b
                 : d == "LE" ? a <= b
                 : d == "GT" ? a > b
                 : d == "GE" ? a >= b
                             : false;
        return one(Scalar::ofB(r));
      }
      int64_t a = x->kind == Scalar::I ? x->i : x->b;
      int64_t b = y->kind == Scalar::I ? y->i : y->b;
      bool r = d == "EQ"   ? a == b
               : d == "NE" ? a != b
               : d == "LT" ? a < b
               : d == "LE" ? a <= b
               : d == "GT" ? a > b
               : d == "GE" ? a >= b
                           : false;
      return one(Scalar::ofB(r));
    }
    if (op == "and" || op == "or" || op == "xor") {
      if (x->kind == Scalar::B) {
        bool r = op == "and"  ? (x->b && y->b)
                 : op == "or" ? (x->b || y->b)
                              : (x->b != y->b);
        return one(Scalar::ofB(r));
      }
      if (x->kind == Scalar::I) {
        int64_t r = op == "and"  ? (x->i & y->i)
                    : op == "or" ? (x->i | y->i)
                                 : (x->i ^ y->i);
        return one(Scalar::ofI(r));
      }
      return std::nullopt;
    }
    if (x->kind == Scalar::B)
      return std::nullopt;
    if (x->kind == Scalar::F) {
      double a = x->f, b = y->f;
      if (op == "add")
        return one(Scalar::ofF(a + b));
      if (op == "subtract")
        return one(Scalar::ofF(a - b));
      if (op == "multiply")
        return one(Scalar::ofF(a * b));
      if (op == "maximum")
        return one(
            Scalar::ofF(std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b)));
      if (op == "minimum")
        return one(
            Scalar::ofF(std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b)));
      return std::nullopt;
    }
    // Integers wrap, as in HLO (and without undefined behaviour here).
    int64_t a = x->i, b = y->i;
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
  std::vector<std::optional<std::vector<Scalar>>> memo_;
  std::vector<bool> visiting_;
};

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

//===----------------------------------------------------------------------===//
// Collective groups
//===----------------------------------------------------------------------===//

/// XLA's CollectiveOpGroupMode: what the ids in replica_groups name.
enum class GroupMode {
  CrossReplica,             // replica ids, within each partition
  CrossPartition,           // partition ids, within each replica
  CrossReplicaAndPartition, // replica ids, with all their partitions
  FlattenedId,              // global device ids r * P + p
};

using Groups = std::vector<llvm::SmallVector<int64_t>>;

//===----------------------------------------------------------------------===//
// The importer
//===----------------------------------------------------------------------===//

/// An HLO value: its shape (a tuple tree or an array) and its array leaves
/// in depth-first order.
struct HloValue {
  const Shape *shape = nullptr;
  llvm::SmallVector<Value, 1> leaves;
};

/// Attributes every instruction may carry: handled (metadata, sharding) or
/// without effect on the values (scheduling, backend hints, provenance).
const llvm::StringSet<> &commonAttrs() {
  static const llvm::StringSet<> set = {"metadata",
                                        "sharding",
                                        "frontend_attributes",
                                        "backend_config",
                                        "statistics",
                                        "origin",
                                        "control-predecessors",
                                        "operand_precision",
                                        "result_accuracy",
                                        "schedule",
                                        "algorithm_config"};
  return set;
}

/// The attributes each supported opcode reads (besides commonAttrs()).
const llvm::StringMap<std::vector<llvm::StringRef>> &opcodeAttrs() {
  static const llvm::StringMap<std::vector<llvm::StringRef>> map = [] {
    llvm::StringMap<std::vector<llvm::StringRef>> m;
    for (llvm::StringRef op : {"abs",
                               "negate",
                               "sign",
                               "exponential",
                               "exponential-minus-one",
                               "log",
                               "log-plus-one",
                               "sqrt",
                               "rsqrt",
                               "tanh",
                               "logistic",
                               "sine",
                               "cosine",
                               "floor",
                               "ceil",
                               "round-nearest-even",
                               "is-finite",
                               "not",
                               "add",
                               "subtract",
                               "multiply",
                               "divide",
                               "remainder",
                               "power",
                               "maximum",
                               "minimum",
                               "atan2",
                               "and",
                               "or",
                               "xor",
                               "select",
                               "clamp",
                               "convert",
                               "reshape",
                               "dynamic-update-slice",
                               "copy",
                               "tuple",
                               "replica-id",
                               "partition-id",
                               "opt-barrier"})
      m[op] = {};
    m["reshape"] = {"inferred_dimension"};
    m["parameter"] = {"parameter_replication"};
    m["constant"] = {};
    m["compare"] = {"direction", "type"};
    m["broadcast"] = {"dimensions"};
    m["transpose"] = {"dimensions"};
    m["slice"] = {"slice"};
    m["dynamic-slice"] = {"dynamic_slice_sizes"};
    m["concatenate"] = {"dimensions"};
    m["pad"] = {"padding"};
    m["reverse"] = {"dimensions"};
    m["iota"] = {"iota_dimension"};
    m["reduce"] = {"dimensions", "to_apply"};
    m["reduce-window"] = {"window", "to_apply"};
    m["dot"] = {"lhs_batch_dims", "rhs_batch_dims", "lhs_contracting_dims",
                "rhs_contracting_dims", "algorithm"};
    m["convolution"] = {"window", "dim_labels", "feature_group_count",
                        "batch_group_count"};
    m["gather"] = {"offset_dims",           "collapsed_slice_dims",
                   "start_index_map",       "index_vector_dim",
                   "slice_sizes",           "indices_are_sorted",
                   "operand_batching_dims", "start_indices_batching_dims"};
    m["scatter"] = {"update_window_dims",
                    "inserted_window_dims",
                    "scatter_dims_to_operand_dims",
                    "index_vector_dim",
                    "indices_are_sorted",
                    "unique_indices",
                    "input_batching_dims",
                    "scatter_indices_batching_dims",
                    "to_apply"};
    m["while"] = {"condition", "body", "known_trip_count"};
    m["conditional"] = {"true_computation", "false_computation",
                        "branch_computations"};
    m["call"] = {"to_apply", "is_composite"};
    m["fusion"] = {"kind", "calls", "output_to_operand_aliasing"};
    m["get-tuple-element"] = {"index"};
    m["all-reduce"] = {"replica_groups", "channel_id", "use_global_device_ids",
                       "to_apply", "constrain_layout"};
    m["all-gather"] = {"replica_groups", "channel_id", "use_global_device_ids",
                       "dimensions", "constrain_layout"};
    m["reduce-scatter"] = {
        "replica_groups", "channel_id", "use_global_device_ids",
        "dimensions",     "to_apply",   "constrain_layout"};
    m["all-to-all"] = {"replica_groups", "channel_id", "dimensions",
                       "constrain_layout"};
    m["collective-permute"] = {"source_target_pairs", "channel_id"};
    m["rng-bit-generator"] = {"algorithm"};
    m["custom-call"] = {"custom_call_target", "api_version",
                        "custom_call_has_side_effect"};
    return m;
  }();
  return map;
}

/// A `window={...}` as the attributes of reduce_window and convolution:
/// the sizes, and each of strides, dilations and padding only when some
/// dimension differs from the default.
struct WindowAttrs {
  DenseI64ArrayAttr size, strides, lhsDilation, rhsDilation;
  DenseIntElementsAttr padding;
};

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

class Importer {
public:
  Importer(const Module &module, const SourceLocator &locator, ModuleOp out)
      : ast_(module), locator_(locator), ctx_(locator.context()), b_(ctx_),
        module_(out) {}

  LogicalResult run();

private:
  struct Scope {
    const Computation *comp;
    llvm::ArrayRef<HloValue> params;
    std::vector<std::optional<HloValue>> values;
    std::vector<uint8_t> state; // 0 new, 1 visiting, 2 done
    std::vector<llvm::SmallVector<unsigned, 4>> operandIndices;
  };

  InFlightDiagnostic error(llvm::SMLoc loc) { return locator_.error(loc); }
  Location opLoc(const Instruction &instr);
  const Computation *computationRef(const Attr &attr);
  LogicalResult checkHeader();
  LogicalResult parameterShapes(const Computation &comp,
                                std::vector<const Instruction *> &params);
  FailureOr<func::FuncOp> emitFunction(const Computation &comp, bool isEntry);
  FailureOr<HloValue> emitComputation(const Computation &comp,
                                      llvm::ArrayRef<HloValue> params);
  LogicalResult emitAll(Scope &scope, unsigned index);
  LogicalResult emitInstruction(Scope &scope, unsigned index);
  LogicalResult emitOp(Scope &scope, const Instruction &instr,
                       llvm::ArrayRef<const HloValue *> operands,
                       HloValue &result);
  LogicalResult applySharding(const Instruction &instr, const HloValue &value,
                              Block *block, Operation *before);
  FailureOr<Groups> collectiveGroups(const Instruction &instr,
                                     bool hasGlobalIds);
  DenseIntElementsAttr groupsAttr(const Groups &groups);
  /// The `sharding` attribute `attr` of an instruction with `count` array
  /// values, one #torus.sharding per value (a tuple sharding gives each
  /// its element); an error at `attr` when it cannot be represented.
  FailureOr<llvm::SmallVector<ShardingAttr>> leafShardings(const Attr &attr,
                                                           size_t count);
  /// One array's sharding; an error at `attr` when it cannot be
  /// represented.
  FailureOr<ShardingAttr> shardingAttr(const Attr &attr, const Sharding &s);

  // Opcode families.
  LogicalResult emitReduce(const Instruction &instr,
                           llvm::ArrayRef<const HloValue *> operands,
                           HloValue &result);
  LogicalResult emitReduceWindow(const Instruction &instr,
                                 llvm::ArrayRef<const HloValue *> operands,
                                 HloValue &result);
  LogicalResult emitConvolution(const Instruction &instr,
                                llvm::ArrayRef<const HloValue *> operands,
                                HloValue &result);
  LogicalResult emitWhile(const Instruction &instr,
                          llvm::ArrayRef<const HloValue *> operands,
                          HloValue &result);
  LogicalResult emitConditional(const Instruction &instr,
                                llvm::ArrayRef<const HloValue *> operands,
                                HloValue &result);
  LogicalResult emitCollective(const Instruction &instr,
                               llvm::ArrayRef<const HloValue *> operands,
                               HloValue &result);

  /// The reduction kind of `instr`'s `to_apply` over `n` inputs, or an
  /// error naming the computation.
  FailureOr<llvm::SmallVector<llvm::StringRef>>
  reducerOpcodes(const Instruction &instr, unsigned n, bool replaceAllowed);

  FailureOr<int64_t> intAttr(const Instruction &instr, llvm::StringRef name,
                             std::optional<int64_t> fallback = std::nullopt);
  FailureOr<llvm::SmallVector<int64_t>>
  listAttr(const Instruction &instr, llvm::StringRef name, bool required);
  FailureOr<bool> boolAttr(const Instruction &instr, llvm::StringRef name);
  const Attr *requireAttr(const Instruction &instr, llvm::StringRef name);

  /// The operand's single array value, or an error if it is a tuple.
  FailureOr<Value> array(const Instruction &instr,
                         llvm::ArrayRef<const HloValue *> operands, size_t i);
  /// The instruction's array result type, or an error if it is a tuple.
  FailureOr<RankedTensorType> resultType(const Instruction &instr);
  LogicalResult checkOperandCount(const Instruction &instr, size_t n,
                                  size_t got);
  /// Rejects unsigned operands in ops that would read them as signed.
  LogicalResult checkSigned(const Instruction &instr,
                            llvm::ArrayRef<const HloValue *> operands);
  bool isIdentity(Value value, ReduceKind kind);
  Value combine(ReduceKind kind, Location loc, Value a, Value b);

  const Module &ast_;
  const SourceLocator &locator_;
  MLIRContext *ctx_;
  OpBuilder b_;
  ModuleOp module_;
  int64_t replicaCount_ = 1;
  int64_t numPartitions_ = 1;
  bool haveReplicaCount_ = false;
  int depth_ = 0;
  llvm::DenseMap<const Computation *, func::FuncOp> functions_;
  llvm::SmallPtrSet<const Computation *, 8> inProgress_;
};

Location Importer::opLoc(const Instruction &instr) {
  Location hloLoc = locator_.location(instr.opcodeLoc);
  // Tagged even without metadata, so that the exporter knows the position
  // is the HLO text's, not a source location to write out.
  auto tag = StringAttr::get(ctx_, kHloLocationTag);
  const Attr *meta = instr.attr("metadata");
  if (!meta)
    return FusedLoc::get(ctx_, {hloLoc}, tag);
  Metadata md;
  {
    // Malformed metadata is reported by emitInstruction; here it is only
    // read.
    ScopedDiagnosticHandler quiet(ctx_, [](Diagnostic &) { return success(); });
    if (failed(AttrParser(*meta, locator_).metadata(md)))
      return FusedLoc::get(ctx_, {hloLoc}, tag);
  }
  std::optional<Location> source;
  if (!md.sourceFile.empty())
    source = FileLineColLoc::get(ctx_, md.sourceFile,
                                 static_cast<unsigned>(md.sourceLine), 0);
  if (!md.opName.empty())
    source = NameLoc::get(StringAttr::get(ctx_, md.opName),
                          source ? *source : UnknownLoc::get(ctx_));
  if (!source)
    return FusedLoc::get(ctx_, {hloLoc}, tag);
  return FusedLoc::get(ctx_, {hloLoc, *source}, tag);
}

const Computation *Importer::computationRef(const Attr &attr) {
  llvm::StringRef name;
  if (failed(AttrParser(attr, locator_).computation(name)))
    return nullptr;
  auto it = ast_.byName.find(name);
  if (it == ast_.byName.end()) {
    error(attr.valueLoc) << "unknown computation '" << name << "'";
    return nullptr;
  }
  return &ast_.computations[it->second];
}

const Attr *Importer::requireAttr(const Instruction &instr,
                                  llvm::StringRef name) {
  const Attr *a = instr.attr(name);
  if (!a)
    error(instr.opcodeLoc) << "'" << instr.opcode << "' needs attribute '"
                           << name << "'";
  return a;
}

FailureOr<int64_t> Importer::intAttr(const Instruction &instr,
                                     llvm::StringRef name,
                                     std::optional<int64_t> fallback) {
  const Attr *a = instr.attr(name);
  if (!a) {
    if (fallback)
      return *fallback;
    requireAttr(instr, name);
    return failure();
  }
  int64_t v;
  if (failed(AttrParser(*a, locator_).integer(v)))
    return failure();
  return v;
}

FailureOr<llvm::SmallVector<int64_t>>
Importer::listAttr(const Instruction &instr, llvm::StringRef name,
                   bool required) {
  llvm::SmallVector<int64_t> values;
  const Attr *a = instr.attr(name);
  if (!a) {
    if (required) {
      requireAttr(instr, name);
      return failure();
    }
    return values;
  }
  if (failed(AttrParser(*a, locator_).intList(values)))
    return failure();
  return values;
}

FailureOr<bool> Importer::boolAttr(const Instruction &instr,
                                   llvm::StringRef name) {
  const Attr *a = instr.attr(name);
  if (!a)
    return false;
  bool v;
  if (failed(AttrParser(*a, locator_).boolean(v)))
    return failure();
  return v;
}

FailureOr<Value> Importer::array(const Instruction &instr,
                                 llvm::ArrayRef<const HloValue *> operands,
                                 size_t i) {
  if (i >= operands.size()) {
    error(instr.opcodeLoc) << "'" << instr.opcode << "' is missing operand "
                           << i;
    return failure();
  }
  const HloValue &v = *operands[i];
  if (v.shape->isTuple || v.leaves.size() != 1) {
    error(instr.operands[i].loc)
        << "operand " << i << " of '" << instr.opcode
        << "' must be an array, not the tuple " << shapeText(*v.shape);
    return failure();
  }
  return v.leaves[0];
}

FailureOr<RankedTensorType> Importer::resultType(const Instruction &instr) {
  if (instr.shape.isTuple) {
    error(instr.shape.loc) << "'" << instr.opcode
                           << "' produces an array, not the tuple "
                           << shapeText(instr.shape);
    return failure();
  }
  return tensorType(ctx_, instr.shape);
}

LogicalResult Importer::checkOperandCount(const Instruction &instr, size_t n,
                                          size_t got) {
  if (n == got)
    return success();
  error(instr.opcodeLoc) << "'" << instr.opcode << "' takes " << n << " operand"
                         << (n == 1 ? "" : "s") << ", found " << got;
  return failure();
}

LogicalResult Importer::checkSigned(const Instruction &instr,
                                    llvm::ArrayRef<const HloValue *> operands) {
  for (const HloValue *v : operands) {
    llvm::SmallVector<const Shape *> leaves;
    v->shape->leaves(leaves);
    for (const Shape *leaf : leaves)
      if (isUnsigned(leaf->type)) {
        error(instr.opcodeLoc)
            << "'" << instr.opcode << "' of the unsigned type "
            << primitiveTypeName(leaf->type)
            << " is not supported: Torus integers are signed";
        return failure();
      }
  }
  return success();
}

bool Importer::isIdentity(Value value, ReduceKind kind) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return false;
  Type et = attr.getElementType();
  TypedAttr identity = reduceIdentity(kind, et);
  if (!identity)
    return false;
  if (auto f = dyn_cast<FloatAttr>(identity))
    return attr.getSplatValue<llvm::APFloat>().bitwiseIsEqual(f.getValue());
  return attr.getSplatValue<llvm::APInt>() ==
         cast<IntegerAttr>(identity).getValue();
}

Value Importer::combine(ReduceKind kind, Location loc, Value a, Value b) {
  Type t = a.getType();
  switch (kind) {
  case ReduceKind::sum:
    return b_.create<AddOp>(loc, t, a, b);
  case ReduceKind::product:
    return b_.create<MultiplyOp>(loc, t, a, b);
  case ReduceKind::max:
    return b_.create<MaximumOp>(loc, t, a, b);
  case ReduceKind::min:
    return b_.create<MinimumOp>(loc, t, a, b);
  case ReduceKind::And:
    return b_.create<AndOp>(loc, t, a, b);
  case ReduceKind::Or:
    return b_.create<OrOp>(loc, t, a, b);
  }
  return a;
}

FailureOr<llvm::SmallVector<llvm::StringRef>>
Importer::reducerOpcodes(const Instruction &instr, unsigned n,
                         bool replaceAllowed) {
  const Attr *apply = requireAttr(instr, "to_apply");
  if (!apply)
    return failure();
  const Computation *comp = computationRef(*apply);
  if (!comp)
    return failure();
  auto opcodes = componentwiseReducer(*comp, n, replaceAllowed);
  if (!opcodes) {
    error(apply->valueLoc)
        << "unsupported reducer computation '" << comp->name << "' (line "
        << locator_.line(comp->loc) << ") of '" << instr.opcode
        << "': Torus recognises reducers that apply add, multiply, "
           "maximum, minimum, and or or to their two parameters"
        << (replaceAllowed ? ", or return parameter 1" : "");
    return failure();
  }
  return *opcodes;
}

//===----------------------------------------------------------------------===//
// Module, functions and computations
//===----------------------------------------------------------------------===//

LogicalResult Importer::checkHeader() {
  static const llvm::StringSet<> ignored = {
      "is_scheduled",
      "frontend_attributes",
      "input_output_alias",
      "buffer_donor",
      "alias_passthrough_params",
      "allow_spmd_sharding_propagation_to_parameters",
      "allow_spmd_sharding_propagation_to_output",
      "spmd_output_sharding",
      "spmd_parameters_shardings",
      "use_auto_spmd_partitioning",
      "origin_recovery_table",
      "entry_computation_layout"};
  for (const Attr &attr : ast_.attrs) {
    AttrParser parser(attr, locator_);
    if (attr.name == "replica_count" || attr.name == "num_partitions") {
      int64_t v;
      if (failed(parser.integer(v)))
        return failure();
      if (v < 1 || v > (1 << 16)) {
        error(attr.valueLoc) << attr.name << " must be between 1 and 65536";
        return failure();
      }
      if (attr.name == "replica_count") {
        replicaCount_ = v;
        haveReplicaCount_ = true;
      } else {
        numPartitions_ = v;
      }
      module_->setAttr(attr.name == "replica_count" ? kReplicaCountAttr
                                                    : kNumPartitionsAttr,
                       b_.getI64IntegerAttr(v));
      continue;
    }
    if (!ignored.contains(attr.name)) {
      error(attr.nameLoc) << "unsupported HloModule attribute '" << attr.name
                          << "'";
      return failure();
    }
  }
  if (const Attr *layout = ast_.attr("entry_computation_layout")) {
    // {(shape, ...)->shape}: checks its layouts are row-major and that it
    // agrees with the entry computation.
    Cursor c(layout->value);
    Shape params, result;
    if (!c.consume('{')) {
      error(layout->valueLoc) << "expected '{' in entry_computation_layout";
      return failure();
    }
    if (failed(parseHloShape(c, locator_, params)))
      return failure();
    if (!c.consume("->")) {
      error(c.loc()) << "expected '->' in entry_computation_layout";
      return failure();
    }
    if (failed(parseHloShape(c, locator_, result)))
      return failure();
    if (!c.consume('}') || !c.atEnd()) {
      error(c.loc()) << "expected '}' to end entry_computation_layout";
      return failure();
    }
    const Computation &entry = ast_.computations[ast_.entry];
    std::vector<const Instruction *> paramInstrs;
    if (failed(parameterShapes(entry, paramInstrs)))
      return failure();
    bool matches =
        params.isTuple && params.elements.size() == paramInstrs.size();
    for (size_t i = 0; matches && i < paramInstrs.size(); ++i)
      matches = params.elements[i].sameAs(paramInstrs[i]->shape);
    matches = matches && result.sameAs(entry.instructions[entry.root].shape);
    if (!matches) {
      error(layout->valueLoc)
          << "entry_computation_layout does not match the parameters and "
             "result of ENTRY computation '"
          << entry.name << "'";
      return failure();
    }
  }
  return success();
}

LogicalResult
Importer::parameterShapes(const Computation &comp,
                          std::vector<const Instruction *> &params) {
  for (const Instruction &instr : comp.instructions) {
    if (instr.opcode != "parameter")
      continue;
    auto n = parameterNumber(instr);
    if (!n || *n < 0 || *n >= static_cast<int64_t>(comp.instructions.size())) {
      error(instr.rawOperandLoc)
          << "expected a parameter number, found '" << instr.rawOperand << "'";
      return failure();
    }
    if (static_cast<size_t>(*n) >= params.size())
      params.resize(*n + 1, nullptr);
    if (params[*n]) {
      error(instr.rawOperandLoc) << "parameter " << *n << " of computation '"
                                 << comp.name << "' is defined twice";
      return failure();
    }
    params[*n] = &instr;
  }
  for (size_t i = 0; i < params.size(); ++i)
    if (!params[i]) {
      error(comp.loc) << "computation '" << comp.name << "' has no parameter "
                      << i;
      return failure();
    }
  return success();
}

FailureOr<func::FuncOp> Importer::emitFunction(const Computation &comp,
                                               bool isEntry) {
  if (auto it = functions_.find(&comp); it != functions_.end())
    return it->second;
  if (!inProgress_.insert(&comp).second) {
    error(comp.loc) << "computation '" << comp.name << "' calls itself";
    return failure();
  }
  std::vector<const Instruction *> params;
  if (failed(parameterShapes(comp, params)))
    return failure();
  llvm::SmallVector<Type> argTypes;
  llvm::SmallVector<Location> argLocs;
  for (const Instruction *p : params) {
    llvm::SmallVector<const Shape *> leaves;
    p->shape.leaves(leaves);
    Location loc = NameLoc::get(StringAttr::get(ctx_, p->name),
                                locator_.location(p->nameLoc));
    for (const Shape *leaf : leaves) {
      argTypes.push_back(tensorType(ctx_, *leaf));
      argLocs.push_back(loc);
    }
  }
  OpBuilder::InsertionGuard guard(b_);
  b_.setInsertionPointToEnd(module_.getBody());
  auto fn = b_.create<func::FuncOp>(locator_.location(comp.loc), comp.name,
                                    b_.getFunctionType(argTypes, {}));
  if (!isEntry)
    fn.setPrivate();
  Block *body = b_.createBlock(&fn.getBody(), {}, argTypes, argLocs);
  std::vector<HloValue> values;
  size_t next = 0;
  for (const Instruction *p : params) {
    HloValue v;
    v.shape = &p->shape;
    for (size_t k = 0, e = p->shape.numLeaves(); k < e; ++k)
      v.leaves.push_back(body->getArgument(next++));
    values.push_back(std::move(v));
  }
  b_.setInsertionPointToEnd(body);
  auto root = emitComputation(comp, values);
  if (failed(root))
    return failure();
  const Instruction &rootInstr = comp.instructions[comp.root];
  b_.create<func::ReturnOp>(locator_.location(rootInstr.nameLoc), root->leaves);
  fn.setFunctionType(
      b_.getFunctionType(argTypes, ValueRange(root->leaves).getTypes()));

  // Shardings of parameters and of the root become argument and result
  // attributes.
  size_t arg = 0;
  for (const Instruction *p : params) {
    size_t count = p->shape.numLeaves();
    if (const Attr *attr = p->attr("sharding")) {
      auto shardings = leafShardings(*attr, count);
      if (failed(shardings))
        return failure();
      for (size_t k = 0; k < count; ++k)
        fn.setArgAttr(arg + k, kShardingAttrName, (*shardings)[k]);
    }
    arg += count;
  }
  if (const Attr *attr = rootInstr.attr("sharding")) {
    auto shardings = leafShardings(*attr, root->leaves.size());
    if (failed(shardings))
      return failure();
    for (size_t k = 0; k < shardings->size(); ++k)
      fn.setResultAttr(k, kShardingAttrName, (*shardings)[k]);
  }

  inProgress_.erase(&comp);
  functions_[&comp] = fn;
  return fn;
}

FailureOr<HloValue> Importer::emitComputation(const Computation &comp,
                                              llvm::ArrayRef<HloValue> params) {
  if (depth_ > 64) {
    error(comp.loc) << "computations nested too deeply";
    return failure();
  }
  ++depth_;
  Scope scope;
  scope.comp = &comp;
  scope.params = params;
  size_t n = comp.instructions.size();
  scope.values.resize(n);
  scope.state.assign(n, 0);
  scope.operandIndices.resize(n);
  // Text order, the ROOT last (XLA may print it anywhere); operands defined
  // further down are pulled in first.
  LogicalResult result = success();
  for (unsigned i = 0; i < n && succeeded(result); ++i)
    if (static_cast<int>(i) != comp.root)
      result = emitAll(scope, i);
  if (succeeded(result))
    result = emitAll(scope, comp.root);
  --depth_;
  if (failed(result))
    return failure();
  return *scope.values[comp.root];
}

LogicalResult Importer::emitAll(Scope &scope, unsigned index) {
  if (scope.state[index] == 2)
    return success();
  const Computation &comp = *scope.comp;
  llvm::SmallVector<unsigned> stack = {index};
  while (!stack.empty()) {
    unsigned i = stack.back();
    if (scope.state[i] == 2) {
      stack.pop_back();
      continue;
    }
    const Instruction &instr = comp.instructions[i];
    if (scope.state[i] == 0) {
      scope.state[i] = 1;
      bool pushed = false;
      size_t firstPushed = stack.size();
      for (const Operand &o : instr.operands) {
        auto it = comp.byName.find(o.name);
        if (it == comp.byName.end()) {
          error(o.loc) << "use of undefined value '" << o.name << "'";
          return failure();
        }
        unsigned j = it->second;
        scope.operandIndices[i].push_back(j);
        if (scope.state[j] == 1) {
          error(o.loc) << "'" << instr.name << "' depends on itself through '"
                       << o.name << "'";
          return failure();
        }
        if (scope.state[j] == 0) {
          stack.push_back(j);
          pushed = true;
        }
      }
      // The first operand is emitted first.
      std::reverse(stack.begin() + firstPushed, stack.end());
      if (pushed)
        continue;
    }
    if (failed(emitInstruction(scope, i)))
      return failure();
    scope.state[i] = 2;
    stack.pop_back();
  }
  return success();
}

LogicalResult Importer::emitInstruction(Scope &scope, unsigned index) {
  const Instruction &instr = scope.comp->instructions[index];
  auto known = opcodeAttrs().find(instr.opcode);
  if (known == opcodeAttrs().end()) {
    error(instr.opcodeLoc) << "unsupported HLO opcode '" << instr.opcode << "'";
    return failure();
  }
  for (const Attr &attr : instr.attrs) {
    if (commonAttrs().contains(attr.name) ||
        llvm::is_contained(known->second, attr.name))
      continue;
    error(attr.nameLoc) << "unsupported attribute '" << attr.name << "' of '"
                        << instr.opcode << "'";
    return failure();
  }
  if (const Attr *meta = instr.attr("metadata")) {
    Metadata md;
    if (failed(AttrParser(*meta, locator_).metadata(md)))
      return failure();
  }
  llvm::SmallVector<const HloValue *> operands;
  for (auto [k, j] : llvm::enumerate(scope.operandIndices[index])) {
    const HloValue &v = *scope.values[j];
    const Operand &o = instr.operands[k];
    if (o.shape && !o.shape->sameAs(*v.shape)) {
      error(o.loc) << "operand '" << o.name << "' is written as "
                   << shapeText(*o.shape) << " but '" << o.name << "' is "
                   << shapeText(*v.shape);
      return failure();
    }
    operands.push_back(&v);
  }
  Block *block = b_.getInsertionBlock();
  Operation *before = block->empty() ? nullptr : &block->back();
  HloValue result;
  result.shape = &instr.shape;
  if (failed(emitOp(scope, instr, operands, result)))
    return failure();
  if (result.leaves.size() != instr.shape.numLeaves()) {
    error(instr.opcodeLoc) << "'" << instr.opcode << "' produces "
                           << result.leaves.size() << " arrays but its shape "
                           << shapeText(instr.shape) << " has "
                           << instr.shape.numLeaves();
    return failure();
  }
  // A Sharding custom-call's sharding is its constraint, not an annotation.
  if (instr.opcode != "custom-call" &&
      failed(applySharding(instr, result, block, before)))
    return failure();
  scope.values[index] = std::move(result);
  return success();
}

LogicalResult Importer::applySharding(const Instruction &instr,
                                      const HloValue &value, Block *block,
                                      Operation *before) {
  const Attr *attr = instr.attr("sharding");
  if (!attr)
    return success();
  auto shardings = leafShardings(*attr, value.leaves.size());
  if (failed(shardings))
    return failure();
  // The sharding goes on the ops this instruction created that define its
  // values (a tuple or get-tuple-element creates none): one per result.
  auto first = before ? std::next(Block::iterator(before)) : block->begin();
  for (Operation &op : llvm::make_range(first, block->end())) {
    llvm::SmallVector<Attribute> mine;
    bool any = false;
    for (Value r : op.getResults()) {
      auto it = llvm::find(value.leaves, r);
      any |= it != value.leaves.end();
      mine.push_back(it != value.leaves.end()
                         ? (*shardings)[it - value.leaves.begin()]
                         : ShardingAttr::getReplicated(ctx_));
    }
    if (!any)
      continue;
    op.setAttr(kShardingAttrName,
               mine.size() == 1 ? mine[0] : b_.getArrayAttr(mine));
  }
  return success();
}

FailureOr<llvm::SmallVector<ShardingAttr>>
Importer::leafShardings(const Attr &attr, size_t count) {
  Sharding s;
  if (failed(AttrParser(attr, locator_).sharding(s)))
    return failure();
  llvm::SmallVector<ShardingAttr> out;
  if (s.kind != Sharding::Kind::Tuple) {
    auto one = shardingAttr(attr, s);
    if (failed(one))
      return failure();
    out.assign(count, *one);
    return out;
  }
  if (s.elements.size() != count) {
    error(attr.valueLoc) << "tuple sharding has " << s.elements.size()
                         << " elements for " << count << " values";
    return failure();
  }
  for (const Sharding &e : s.elements) {
    auto one = shardingAttr(attr, e);
    if (failed(one))
      return failure();
    out.push_back(*one);
  }
  return out;
}

FailureOr<ShardingAttr> Importer::shardingAttr(const Attr &attr,
                                               const Sharding &s) {
  std::string why;
  auto sharding = convertSharding(ctx_, s, why);
  if (failed(sharding))
    error(attr.valueLoc) << "unsupported sharding " << s.toString() << ": "
                         << why;
  return sharding;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

template <typename OpTy>
LogicalResult unary(OpBuilder &b, Location loc, RankedTensorType type, Value x,
                    HloValue &result) {
  result.leaves.push_back(b.create<OpTy>(loc, type, x));
  return success();
}

template <typename OpTy>
LogicalResult binary(OpBuilder &b, Location loc, RankedTensorType type, Value x,
                     Value y, HloValue &result) {
  result.leaves.push_back(b.create<OpTy>(loc, type, x, y));
  return success();
}

LogicalResult Importer::emitOp(Scope &scope, const Instruction &instr,
                               llvm::ArrayRef<const HloValue *> operands,
                               HloValue &result) {
  llvm::StringRef op = instr.opcode;
  Location loc = opLoc(instr);
  size_t n = operands.size();

  if (op == "parameter") {
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
      error(instr.shape.loc)
          << "parameter " << *number << " of '" << scope.comp->name
          << "' is declared " << shapeText(instr.shape) << " but receives "
          << shapeText(*given.shape);
      return failure();
    }
    result.leaves = given.leaves;
    return success();
  }

  if (op == "constant") {
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

  if (op == "tuple") {
    if (!instr.shape.isTuple || instr.shape.elements.size() != n) {
      error(instr.shape.loc)
          << "'tuple' of " << n << " operands needs a tuple shape of " << n
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

  if (op == "get-tuple-element") {
    if (failed(checkOperandCount(instr, 1, n)))
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
      error(instr.shape.loc)
          << "element " << *index << " of " << shapeText(tuple) << " is "
          << shapeText(tuple.elements[*index]) << ", not "
          << shapeText(instr.shape);
      return failure();
    }
    size_t offset = tuple.leafOffset(*index);
    size_t count = tuple.elements[*index].numLeaves();
    result.leaves.append(operands[0]->leaves.begin() + offset,
                         operands[0]->leaves.begin() + offset + count);
    return success();
  }

  if (op == "copy" || op == "opt-barrier") {
    if (failed(checkOperandCount(instr, 1, n)))
      return failure();
    if (!operands[0]->shape->sameAs(instr.shape)) {
      error(instr.shape.loc)
          << "'" << op << "' of " << shapeText(*operands[0]->shape)
          << " cannot produce " << shapeText(instr.shape);
      return failure();
    }
    result.leaves = operands[0]->leaves;
    return success();
  }

  if (op == "custom-call") {
    // Only XLA's sharding annotation, `custom_call_target="Sharding"`.
    const Attr *target = requireAttr(instr, "custom_call_target");
    if (!target)
      return failure();
    std::string name;
    if (failed(AttrParser(*target, locator_).string(name)))
      return failure();
    if (name != "Sharding") {
      error(target->valueLoc)
          << "unsupported custom-call target '" << name << "'";
      return failure();
    }
    if (failed(checkOperandCount(instr, 1, n)))
      return failure();
    auto x = array(instr, operands, 0);
    auto type = resultType(instr);
    const Attr *shardingText = requireAttr(instr, "sharding");
    if (failed(x) || failed(type) || !shardingText)
      return failure();
    Sharding s;
    if (failed(AttrParser(*shardingText, locator_).sharding(s)))
      return failure();
    auto attr = shardingAttr(*shardingText, s);
    if (failed(attr))
      return failure();
    result.leaves.push_back(
        b_.create<ShardingConstraintOp>(loc, *type, *x, *attr));
    return success();
  }
  if (op == "while")
    return emitWhile(instr, operands, result);
  if (op == "conditional")
    return emitConditional(instr, operands, result);
  if (op == "call" || op == "fusion") {
    const Attr *ref = requireAttr(instr, op == "call" ? "to_apply" : "calls");
    if (!ref)
      return failure();
    const Computation *callee = computationRef(*ref);
    if (!callee)
      return failure();
    const Shape &rootShape = callee->instructions[callee->root].shape;
    if (!rootShape.sameAs(instr.shape)) {
      error(instr.shape.loc)
          << "'" << op << "' of '" << callee->name << "' produces "
          << shapeText(rootShape) << ", not " << shapeText(instr.shape);
      return failure();
    }
    if (op == "fusion") {
      // A fusion is an optimisation boundary only: its body is inlined.
      std::vector<HloValue> params;
      for (const HloValue *v : operands)
        params.push_back(*v);
      auto value = emitComputation(*callee, params);
      if (failed(value))
        return failure();
      result.leaves = value->leaves;
      return success();
    }
    auto fn = emitFunction(*callee, /*isEntry=*/false);
    if (failed(fn))
      return failure();
    llvm::SmallVector<Value> args;
    for (const HloValue *v : operands)
      args.append(v->leaves);
    if (TypeRange(fn->getFunctionType().getInputs()) !=
        ValueRange(args).getTypes()) {
      error(instr.opcodeLoc) << "the operands of 'call' do not match the "
                                "parameters of '"
                             << callee->name << "'";
      return failure();
    }
    auto call = b_.create<CallOp>(loc, fn->getFunctionType().getResults(),
                                  fn->getSymName(), args);
    result.leaves.append(call.getResults().begin(), call.getResults().end());
    return success();
  }

  if (op == "reduce")
    return emitReduce(instr, operands, result);
  if (op == "reduce-window")
    return emitReduceWindow(instr, operands, result);
  if (op == "convolution")
    return emitConvolution(instr, operands, result);
  if (op == "all-reduce" || op == "all-gather" || op == "reduce-scatter" ||
      op == "all-to-all" || op == "collective-permute")
    return emitCollective(instr, operands, result);

  if (op == "rng-bit-generator") {
    if (failed(checkOperandCount(instr, 1, n)))
      return failure();
    auto state = array(instr, operands, 0);
    if (failed(state))
      return failure();
    const Attr *algo = instr.attr("algorithm");
    RngAlgorithm algorithm = RngAlgorithm::DEFAULT;
    if (algo) {
      llvm::StringRef w;
      if (failed(AttrParser(*algo, locator_).word(w)))
        return failure();
      auto parsed = llvm::StringSwitch<std::optional<RngAlgorithm>>(w)
                        .Case("rng_default", RngAlgorithm::DEFAULT)
                        .Case("rng_three_fry", RngAlgorithm::THREE_FRY)
                        .Case("rng_philox", RngAlgorithm::PHILOX)
                        .Default(std::nullopt);
      if (!parsed) {
        error(algo->valueLoc) << "unknown rng algorithm '" << w << "'";
        return failure();
      }
      algorithm = *parsed;
    }
    if (!instr.shape.isTuple || instr.shape.elements.size() != 2 ||
        instr.shape.elements[0].isTuple || instr.shape.elements[1].isTuple) {
      error(instr.shape.loc) << "'rng-bit-generator' produces (state, bits), "
                                "not "
                             << shapeText(instr.shape);
      return failure();
    }
    auto rng = b_.create<RngBitGeneratorOp>(
        loc, tensorType(ctx_, instr.shape.elements[0]),
        tensorType(ctx_, instr.shape.elements[1]), algorithm, *state);
    result.leaves = {rng.getOutputState(), rng.getOutput()};
    return success();
  }

  if (op == "replica-id" || op == "partition-id") {
    if (failed(checkOperandCount(instr, 0, n)))
      return failure();
    auto type = resultType(instr);
    if (failed(type))
      return failure();
    if (op == "replica-id")
      result.leaves.push_back(b_.create<ReplicaIdOp>(loc, *type));
    else
      result.leaves.push_back(b_.create<PartitionIdOp>(loc, *type));
    return success();
  }

  // Everything below produces one array.
  auto type = resultType(instr);
  if (failed(type))
    return failure();

  if (op == "iota") {
    if (failed(checkOperandCount(instr, 0, n)))
      return failure();
    auto dim = intAttr(instr, "iota_dimension");
    if (failed(dim))
      return failure();
    result.leaves.push_back(
        b_.create<IotaOp>(loc, *type, b_.getI64IntegerAttr(*dim)));
    return success();
  }

  if (op == "convert") {
    if (failed(checkOperandCount(instr, 1, n)))
      return failure();
    auto x = array(instr, operands, 0);
    if (failed(x))
      return failure();
    PrimitiveType from = operands[0]->shape->type, to = instr.shape.type;
    bool sameBits =
        from == to ||
        ((from == PrimitiveType::U32 || from == PrimitiveType::S32) &&
         (to == PrimitiveType::U32 || to == PrimitiveType::S32)) ||
        ((from == PrimitiveType::U64 || from == PrimitiveType::S64) &&
         (to == PrimitiveType::U64 || to == PrimitiveType::S64));
    if (sameBits && operands[0]->shape->dims == instr.shape.dims) {
      // Same width, only the sign's reading changes: the bits stay.
      result.leaves.push_back(*x);
      return success();
    }
    if (isUnsigned(from) || isUnsigned(to)) {
      error(instr.opcodeLoc) << "'convert' from " << primitiveTypeName(from)
                             << " to " << primitiveTypeName(to)
                             << " is not supported: only u32<->s32 and "
                                "u64<->s64 keep their meaning in Torus's "
                                "signed integers";
      return failure();
    }
    return unary<ConvertOp>(b_, loc, *type, *x, result);
  }

  // Ops that read integers as signed.
  static const llvm::StringSet<> signSensitive = {
      "abs",     "sign",    "divide", "remainder", "power",
      "maximum", "minimum", "clamp",  "dot",       "convolution"};
  if (signSensitive.contains(op) && failed(checkSigned(instr, operands)))
    return failure();

  using UnaryFn = LogicalResult (*)(OpBuilder &, Location, RankedTensorType,
                                    Value, HloValue &);
  static const llvm::StringMap<UnaryFn> unaries = {
      {"abs", unary<AbsOp>},
      {"negate", unary<NegateOp>},
      {"sign", unary<SignOp>},
      {"exponential", unary<ExpOp>},
      {"exponential-minus-one", unary<Expm1Op>},
      {"log", unary<LogOp>},
      {"log-plus-one", unary<Log1pOp>},
      {"sqrt", unary<SqrtOp>},
      {"rsqrt", unary<RsqrtOp>},
      {"tanh", unary<TanhOp>},
      {"logistic", unary<LogisticOp>},
      {"sine", unary<SinOp>},
      {"cosine", unary<CosOp>},
      {"floor", unary<FloorOp>},
      {"ceil", unary<CeilOp>},
      {"round-nearest-even", unary<RoundNearestEvenOp>},
      {"is-finite", unary<IsFiniteOp>},
      {"not", unary<NotOp>},
      {"reshape", unary<ReshapeOp>},
  };
  if (auto it = unaries.find(op); it != unaries.end()) {
    if (failed(checkOperandCount(instr, 1, n)))
      return failure();
    auto x = array(instr, operands, 0);
    if (failed(x))
      return failure();
    return it->second(b_, loc, *type, *x, result);
  }

  using BinaryFn = LogicalResult (*)(OpBuilder &, Location, RankedTensorType,
                                     Value, Value, HloValue &);
  static const llvm::StringMap<BinaryFn> binaries = {
      {"add", binary<AddOp>},
      {"subtract", binary<SubtractOp>},
      {"multiply", binary<MultiplyOp>},
      {"divide", binary<DivideOp>},
      {"remainder", binary<RemainderOp>},
      {"power", binary<PowerOp>},
      {"maximum", binary<MaximumOp>},
      {"minimum", binary<MinimumOp>},
      {"atan2", binary<Atan2Op>},
      {"and", binary<AndOp>},
      {"or", binary<OrOp>},
      {"xor", binary<XorOp>},
  };
  if (auto it = binaries.find(op); it != binaries.end()) {
    if (failed(checkOperandCount(instr, 2, n)))
      return failure();
    auto x = array(instr, operands, 0), y = array(instr, operands, 1);
    if (failed(x) || failed(y))
      return failure();
    return it->second(b_, loc, *type, *x, *y, result);
  }

  if (op == "compare") {
    if (failed(checkOperandCount(instr, 2, n)))
      return failure();
    auto x = array(instr, operands, 0), y = array(instr, operands, 1);
    if (failed(x) || failed(y))
      return failure();
    const Attr *dirAttr = requireAttr(instr, "direction");
    if (!dirAttr)
      return failure();
    llvm::StringRef dirText;
    if (failed(AttrParser(*dirAttr, locator_).word(dirText)))
      return failure();
    auto dir = symbolizeComparisonDirection(dirText);
    if (!dir) {
      error(dirAttr->valueLoc) << "unknown comparison direction '" << dirText
                               << "' (EQ, NE, LT, LE, GT or GE)";
      return failure();
    }
    PrimitiveType operandType = operands[0]->shape->type;
    bool ordered =
        *dir != ComparisonDirection::EQ && *dir != ComparisonDirection::NE;
    if (const Attr *typeAttr = instr.attr("type")) {
      llvm::StringRef t;
      if (failed(AttrParser(*typeAttr, locator_).word(t)))
        return failure();
      bool ok = (t == "FLOAT" && isFloat(operandType)) ||
                (t == "SIGNED" && !isFloat(operandType) &&
                 !isUnsigned(operandType)) ||
                (t == "UNSIGNED" && (isUnsigned(operandType) ||
                                     operandType == PrimitiveType::Pred)) ||
                (t == "TOTALORDER" && !isFloat(operandType));
      if (!ok) {
        error(typeAttr->valueLoc)
            << "unsupported comparison type '" << t << "' for "
            << primitiveTypeName(operandType) << " operands";
        return failure();
      }
    }
    if (ordered && isUnsigned(operandType)) {
      error(instr.opcodeLoc) << "ordered comparison of the unsigned type "
                             << primitiveTypeName(operandType)
                             << " is not supported: Torus integers are signed";
      return failure();
    }
    result.leaves.push_back(b_.create<CompareOp>(
        loc, *type, ComparisonDirectionAttr::get(ctx_, *dir), *x, *y));
    return success();
  }

  if (op == "select" || op == "clamp") {
    if (failed(checkOperandCount(instr, 3, n)))
      return failure();
    auto a = array(instr, operands, 0), x = array(instr, operands, 1),
         c = array(instr, operands, 2);
    if (failed(a) || failed(x) || failed(c))
      return failure();
    if (op == "select")
      result.leaves.push_back(b_.create<SelectOp>(loc, *type, *a, *x, *c));
    else
      result.leaves.push_back(b_.create<ClampOp>(loc, *type, *a, *x, *c));
    return success();
  }

  if (op == "broadcast" || op == "transpose" || op == "reverse") {
    if (failed(checkOperandCount(instr, 1, n)))
      return failure();
    auto x = array(instr, operands, 0);
    auto dims = listAttr(instr, "dimensions", /*required=*/op != "broadcast");
    if (failed(x) || failed(dims))
      return failure();
    auto attr = b_.getDenseI64ArrayAttr(*dims);
    if (op == "broadcast")
      result.leaves.push_back(
          b_.create<BroadcastInDimOp>(loc, *type, *x, attr));
    else if (op == "transpose")
      result.leaves.push_back(b_.create<TransposeOp>(loc, *type, *x, attr));
    else
      result.leaves.push_back(b_.create<ReverseOp>(loc, *type, *x, attr));
    return success();
  }

  if (op == "slice") {
    if (failed(checkOperandCount(instr, 1, n)))
      return failure();
    auto x = array(instr, operands, 0);
    const Attr *s = requireAttr(instr, "slice");
    if (failed(x) || !s)
      return failure();
    llvm::SmallVector<int64_t> start, limit, stride;
    if (failed(AttrParser(*s, locator_).slice(start, limit, stride)))
      return failure();
    result.leaves.push_back(b_.create<SliceOp>(
        loc, *type, *x, b_.getDenseI64ArrayAttr(start),
        b_.getDenseI64ArrayAttr(limit), b_.getDenseI64ArrayAttr(stride)));
    return success();
  }

  if (op == "dynamic-slice" || op == "dynamic-update-slice") {
    bool update = op == "dynamic-update-slice";
    size_t fixed = update ? 2 : 1;
    if (n < fixed + 1) {
      error(instr.opcodeLoc)
          << "'" << op << "' needs "
          << (update ? "an operand, an update" : "an operand")
          << " and start indices, found " << n << " operand"
          << (n == 1 ? "" : "s");
      return failure();
    }
    auto x = array(instr, operands, 0);
    if (failed(x))
      return failure();
    llvm::SmallVector<Value> indices;
    for (size_t i = fixed; i < n; ++i) {
      auto idx = array(instr, operands, i);
      if (failed(idx))
        return failure();
      indices.push_back(*idx);
    }
    // The old form: one vector of start indices instead of scalars.
    auto idxType = cast<RankedTensorType>(indices[0].getType());
    if (indices.size() == 1 && idxType.getRank() == 1) {
      Value vector = indices[0];
      indices.clear();
      auto scalarType = RankedTensorType::get({}, idxType.getElementType());
      auto oneType = RankedTensorType::get({1}, idxType.getElementType());
      for (int64_t k = 0; k < idxType.getDimSize(0); ++k) {
        Value piece = b_.create<SliceOp>(
            loc, oneType, vector, b_.getDenseI64ArrayAttr({k}),
            b_.getDenseI64ArrayAttr({k + 1}), b_.getDenseI64ArrayAttr({1}));
        indices.push_back(b_.create<ReshapeOp>(loc, scalarType, piece));
      }
    }
    if (update) {
      auto u = array(instr, operands, 1);
      if (failed(u))
        return failure();
      result.leaves.push_back(
          b_.create<DynamicUpdateSliceOp>(loc, *type, *x, *u, indices));
      return success();
    }
    auto sizes = listAttr(instr, "dynamic_slice_sizes", /*required=*/true);
    if (failed(sizes))
      return failure();
    result.leaves.push_back(b_.create<DynamicSliceOp>(
        loc, *type, *x, indices, b_.getDenseI64ArrayAttr(*sizes)));
    return success();
  }

  if (op == "concatenate") {
    if (n == 0)
      return checkOperandCount(instr, 1, 0);
    llvm::SmallVector<Value> inputs;
    for (size_t i = 0; i < n; ++i) {
      auto v = array(instr, operands, i);
      if (failed(v))
        return failure();
      inputs.push_back(*v);
    }
    auto dims = listAttr(instr, "dimensions", /*required=*/true);
    if (failed(dims))
      return failure();
    if (dims->size() != 1) {
      error(instr.attr("dimensions")->valueLoc)
          << "'concatenate' takes one dimension";
      return failure();
    }
    result.leaves.push_back(b_.create<ConcatenateOp>(
        loc, *type, inputs, b_.getI64IntegerAttr((*dims)[0])));
    return success();
  }

  if (op == "pad") {
    if (failed(checkOperandCount(instr, 2, n)))
      return failure();
    auto x = array(instr, operands, 0), v = array(instr, operands, 1);
    const Attr *p = requireAttr(instr, "padding");
    if (failed(x) || failed(v) || !p)
      return failure();
    llvm::SmallVector<int64_t> low, high, interior;
    if (failed(AttrParser(*p, locator_).padding(low, high, interior)))
      return failure();
    result.leaves.push_back(b_.create<PadOp>(
        loc, *type, *x, *v, b_.getDenseI64ArrayAttr(low),
        b_.getDenseI64ArrayAttr(high), b_.getDenseI64ArrayAttr(interior)));
    return success();
  }

  if (op == "dot") {
    if (failed(checkOperandCount(instr, 2, n)))
      return failure();
    auto x = array(instr, operands, 0), y = array(instr, operands, 1);
    auto lb = listAttr(instr, "lhs_batch_dims", false);
    auto rb = listAttr(instr, "rhs_batch_dims", false);
    auto lc = listAttr(instr, "lhs_contracting_dims", false);
    auto rc = listAttr(instr, "rhs_contracting_dims", false);
    if (failed(x) || failed(y) || failed(lb) || failed(rb) || failed(lc) ||
        failed(rc))
      return failure();
    // Mixed precision (`f32 dot(bf16, bf16)`): Torus contracts in the
    // result type, so the operands are converted to it first.
    Type et = type->getElementType();
    auto toResult = [&](Value v) -> Value {
      auto t = cast<RankedTensorType>(v.getType());
      if (t.getElementType() == et)
        return v;
      return b_.create<ConvertOp>(loc, t.clone(et), v);
    };
    result.leaves.push_back(b_.create<DotGeneralOp>(
        loc, *type, toResult(*x), toResult(*y), b_.getDenseI64ArrayAttr(*lb),
        b_.getDenseI64ArrayAttr(*rb), b_.getDenseI64ArrayAttr(*lc),
        b_.getDenseI64ArrayAttr(*rc)));
    return success();
  }

  if (op == "gather") {
    if (failed(checkOperandCount(instr, 2, n)))
      return failure();
    auto x = array(instr, operands, 0), idx = array(instr, operands, 1);
    auto offset = listAttr(instr, "offset_dims", true);
    auto collapsed = listAttr(instr, "collapsed_slice_dims", false);
    auto startMap = listAttr(instr, "start_index_map", true);
    auto ivd = intAttr(instr, "index_vector_dim");
    auto sizes = listAttr(instr, "slice_sizes", true);
    auto sorted = boolAttr(instr, "indices_are_sorted");
    auto batch = listAttr(instr, "operand_batching_dims", false);
    auto batch2 = listAttr(instr, "start_indices_batching_dims", false);
    if (failed(x) || failed(idx) || failed(offset) || failed(collapsed) ||
        failed(startMap) || failed(ivd) || failed(sizes) || failed(sorted) ||
        failed(batch) || failed(batch2))
      return failure();
    if (!batch->empty() || !batch2->empty()) {
      error(instr
                .attr(batch->empty() ? "start_indices_batching_dims"
                                     : "operand_batching_dims")
                ->nameLoc)
          << "gather with batching dimensions is not supported";
      return failure();
    }
    result.leaves.push_back(b_.create<GatherOp>(
        loc, *type, *x, *idx, b_.getDenseI64ArrayAttr(*offset),
        b_.getDenseI64ArrayAttr(*collapsed), b_.getDenseI64ArrayAttr(*startMap),
        b_.getI64IntegerAttr(*ivd), b_.getDenseI64ArrayAttr(*sizes),
        *sorted ? b_.getUnitAttr() : UnitAttr()));
    return success();
  }

  if (op == "scatter") {
    if (failed(checkOperandCount(instr, 3, n)))
      return failure();
    auto x = array(instr, operands, 0), idx = array(instr, operands, 1),
         upd = array(instr, operands, 2);
    auto uwd = listAttr(instr, "update_window_dims", true);
    auto iwd = listAttr(instr, "inserted_window_dims", false);
    auto sdod = listAttr(instr, "scatter_dims_to_operand_dims", true);
    auto ivd = intAttr(instr, "index_vector_dim");
    auto sorted = boolAttr(instr, "indices_are_sorted");
    auto unique = boolAttr(instr, "unique_indices");
    auto batch = listAttr(instr, "input_batching_dims", false);
    auto batch2 = listAttr(instr, "scatter_indices_batching_dims", false);
    if (failed(x) || failed(idx) || failed(upd) || failed(uwd) || failed(iwd) ||
        failed(sdod) || failed(ivd) || failed(sorted) || failed(unique) ||
        failed(batch) || failed(batch2))
      return failure();
    if (!batch->empty() || !batch2->empty()) {
      error(instr
                .attr(batch->empty() ? "scatter_indices_batching_dims"
                                     : "input_batching_dims")
                ->nameLoc)
          << "scatter with batching dimensions is not supported";
      return failure();
    }
    auto opcodes = reducerOpcodes(instr, 1, /*replaceAllowed=*/true);
    if (failed(opcodes))
      return failure();
    auto kind = llvm::StringSwitch<std::optional<ScatterKind>>((*opcodes)[0])
                    .Case("replace", ScatterKind::replace)
                    .Case("add", ScatterKind::sum)
                    .Case("multiply", ScatterKind::product)
                    .Case("maximum", ScatterKind::max)
                    .Case("minimum", ScatterKind::min)
                    .Default(std::nullopt);
    if (!kind) {
      error(instr.attr("to_apply")->valueLoc)
          << "scatter combines with replace, add, multiply, maximum or "
             "minimum, not '"
          << (*opcodes)[0] << "'";
      return failure();
    }
    if ((*kind == ScatterKind::max || *kind == ScatterKind::min) &&
        failed(checkSigned(instr, operands)))
      return failure();
    result.leaves.push_back(b_.create<ScatterOp>(
        loc, *type, ScatterKindAttr::get(ctx_, *kind), *x, *idx, *upd,
        b_.getDenseI64ArrayAttr(*uwd), b_.getDenseI64ArrayAttr(*iwd),
        b_.getDenseI64ArrayAttr(*sdod), b_.getI64IntegerAttr(*ivd),
        *sorted ? b_.getUnitAttr() : UnitAttr(),
        *unique ? b_.getUnitAttr() : UnitAttr()));
    return success();
  }

  error(instr.opcodeLoc) << "unsupported HLO opcode '" << op << "'";
  return failure();
}

LogicalResult Importer::emitReduce(const Instruction &instr,
                                   llvm::ArrayRef<const HloValue *> operands,
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
      if (failed(checkSigned(instr, operands)))
        return failure();
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
    if ((kind == ReduceKind::max || kind == ReduceKind::min) &&
        failed(checkSigned(instr, operands)))
      return failure();
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

LogicalResult
Importer::emitReduceWindow(const Instruction &instr,
                           llvm::ArrayRef<const HloValue *> operands,
                           HloValue &result) {
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
  if ((kind == ReduceKind::max || kind == ReduceKind::min) &&
      failed(checkSigned(instr, operands)))
    return failure();
  if (!isIdentity(*init, kind)) {
    error(instr.operands[1].loc)
        << "'reduce-window' needs the identity of its reducer as init value "
           "(Torus pads with it)";
    return failure();
  }
  int64_t rank = cast<RankedTensorType>(x->getType()).getRank();
  llvm::SmallVector<WindowDim> window;
  if (const Attr *w = instr.attr("window")) {
    if (failed(AttrParser(*w, locator_).window(window)))
      return failure();
    if (static_cast<int64_t>(window.size()) != rank) {
      error(w->valueLoc) << "the window has " << window.size()
                         << " dimensions, the operand " << rank;
      return failure();
    }
  } else {
    window.assign(rank, WindowDim());
  }
  for (const WindowDim &d : window) {
    if (d.reversal) {
      error(instr.attr("window")->valueLoc)
          << "'reduce-window' with rhs_reversal is not supported";
      return failure();
    }
  }
  WindowAttrs w = windowAttrs(b_, window);
  result.leaves.push_back(b_.create<ReduceWindowOp>(
      opLoc(instr), *type, ReduceKindAttr::get(ctx_, kind), *x, w.size,
      w.strides, w.lhsDilation, w.rhsDilation, w.padding));
  return success();
}

LogicalResult
Importer::emitConvolution(const Instruction &instr,
                          llvm::ArrayRef<const HloValue *> operands,
                          HloValue &result) {
  if (failed(checkOperandCount(instr, 2, operands.size())))
    return failure();
  auto x = array(instr, operands, 0), w = array(instr, operands, 1);
  auto type = resultType(instr);
  if (failed(x) || failed(w) || failed(type))
    return failure();
  auto lhsType = cast<RankedTensorType>(x->getType());
  auto rhsType = cast<RankedTensorType>(w->getType());
  int64_t rank = lhsType.getRank();
  DimLabels labels;
  if (const Attr *d = instr.attr("dim_labels")) {
    if (failed(AttrParser(*d, locator_).dimLabels(labels)))
      return failure();
  } else {
    // XLA's default: bf01_oi01->bf01.
    labels.inputBatch = labels.outputBatch = 0;
    labels.inputFeature = labels.outputFeature = 1;
    labels.kernelOutput = 0;
    labels.kernelInput = 1;
    for (int64_t i = 2; i < rank; ++i) {
      labels.inputSpatial.push_back(i);
      labels.kernelSpatial.push_back(i);
      labels.outputSpatial.push_back(i);
    }
  }
  size_t spatial = labels.inputSpatial.size();
  if (labels.kernelSpatial.size() != spatial ||
      labels.outputSpatial.size() != spatial ||
      static_cast<int64_t>(spatial + 2) != rank || rhsType.getRank() != rank ||
      type->getRank() != rank) {
    error(instr.opcodeLoc) << "dim_labels do not match the ranks of the "
                              "convolution's operands and result";
    return failure();
  }
  llvm::SmallVector<WindowDim> window;
  if (const Attr *wa = instr.attr("window")) {
    if (failed(AttrParser(*wa, locator_).window(window)))
      return failure();
  } else {
    for (size_t i = 0; i < spatial; ++i) {
      WindowDim d;
      d.size = rhsType.getDimSize(labels.kernelSpatial[i]);
      window.push_back(d);
    }
  }
  if (window.size() != spatial) {
    error(instr.attr("window")->valueLoc)
        << "the window has " << window.size() << " dimensions, the "
        << "convolution " << spatial << " spatial ones";
    return failure();
  }
  for (size_t i = 0; i < spatial; ++i) {
    const WindowDim &d = window[i];
    int64_t kernel = rhsType.getDimSize(labels.kernelSpatial[i]);
    if (d.size != kernel) {
      error(instr.attr("window")->valueLoc)
          << "window size " << d.size << " in spatial dimension " << i
          << " differs from the kernel's " << kernel;
      return failure();
    }
    if (d.reversal) {
      error(instr.attr("window")->valueLoc)
          << "convolution with rhs_reversal is not supported";
      return failure();
    }
  }
  auto fgc = intAttr(instr, "feature_group_count", 1);
  auto bgc = intAttr(instr, "batch_group_count", 1);
  if (failed(fgc) || failed(bgc))
    return failure();
  auto dims = ConvDimensionNumbersAttr::get(
      ctx_, labels.inputBatch, labels.inputFeature, labels.inputSpatial,
      labels.kernelInput, labels.kernelOutput, labels.kernelSpatial,
      labels.outputBatch, labels.outputFeature, labels.outputSpatial);
  WindowAttrs win = windowAttrs(b_, window);
  result.leaves.push_back(b_.create<ConvolutionOp>(
      opLoc(instr), *type, *x, *w, dims, win.strides, win.padding,
      win.lhsDilation, win.rhsDilation, b_.getI64IntegerAttr(*fgc),
      b_.getI64IntegerAttr(*bgc)));
  return success();
}

LogicalResult Importer::emitWhile(const Instruction &instr,
                                  llvm::ArrayRef<const HloValue *> operands,
                                  HloValue &result) {
  if (failed(checkOperandCount(instr, 1, operands.size())))
    return failure();
  const Attr *condAttr = requireAttr(instr, "condition");
  const Attr *bodyAttr = condAttr ? requireAttr(instr, "body") : nullptr;
  if (!condAttr || !bodyAttr)
    return failure();
  const Computation *cond = computationRef(*condAttr);
  const Computation *body = cond ? computationRef(*bodyAttr) : nullptr;
  if (!cond || !body)
    return failure();
  const HloValue &init = *operands[0];
  if (!init.shape->sameAs(instr.shape)) {
    error(instr.shape.loc) << "'while' over " << shapeText(*init.shape)
                           << " must produce the same shape, not "
                           << shapeText(instr.shape);
    return failure();
  }
  Location loc = opLoc(instr);
  llvm::SmallVector<Type> types(ValueRange(init.leaves).getTypes());
  auto loop = b_.create<WhileOp>(loc, types, init.leaves);
  llvm::SmallVector<Location> locs(types.size(), loc);
  for (auto [region, comp, isCond] :
       {std::tuple{&loop.getCond(), cond, true},
        std::tuple{&loop.getBody(), body, false}}) {
    OpBuilder::InsertionGuard guard(b_);
    Block *block = b_.createBlock(region, {}, types, locs);
    HloValue param;
    param.shape = init.shape;
    param.leaves.assign(block->getArguments().begin(),
                        block->getArguments().end());
    auto value = emitComputation(*comp, {param});
    if (failed(value))
      return failure();
    const Instruction &root = comp->instructions[comp->root];
    if (isCond ? !(value->shape->isScalar() &&
                   value->shape->type == PrimitiveType::Pred)
               : !value->shape->sameAs(*init.shape)) {
      error(root.shape.loc)
          << "the " << (isCond ? "condition" : "body") << " '" << comp->name
          << "' of 'while' returns " << shapeText(*value->shape) << ", not "
          << (isCond ? std::string("pred[]") : shapeText(*init.shape));
      return failure();
    }
    b_.create<ReturnOp>(locator_.location(root.nameLoc), value->leaves);
  }
  result.leaves.assign(loop.getResults().begin(), loop.getResults().end());
  return success();
}

LogicalResult
Importer::emitConditional(const Instruction &instr,
                          llvm::ArrayRef<const HloValue *> operands,
                          HloValue &result) {
  llvm::SmallVector<const Computation *> branches;
  if (const Attr *list = instr.attr("branch_computations")) {
    llvm::SmallVector<llvm::StringRef> names;
    if (failed(AttrParser(*list, locator_).computations(names)))
      return failure();
    for (llvm::StringRef name : names) {
      auto it = ast_.byName.find(name);
      if (it == ast_.byName.end()) {
        error(list->valueLoc) << "unknown computation '" << name << "'";
        return failure();
      }
      branches.push_back(&ast_.computations[it->second]);
    }
  } else {
    const Attr *t = requireAttr(instr, "true_computation");
    const Attr *f = t ? requireAttr(instr, "false_computation") : nullptr;
    if (!t || !f)
      return failure();
    const Computation *tc = computationRef(*t);
    const Computation *fc = tc ? computationRef(*f) : nullptr;
    if (!tc || !fc)
      return failure();
    branches = {tc, fc};
  }
  if (branches.empty()) {
    error(instr.opcodeLoc) << "'conditional' has no branches";
    return failure();
  }
  if (failed(checkOperandCount(instr, branches.size() + 1, operands.size())))
    return failure();
  auto selector = array(instr, operands, 0);
  if (failed(selector))
    return failure();
  const Shape &selShape = *operands[0]->shape;
  bool isPred = selShape.type == PrimitiveType::Pred;
  if (!selShape.isScalar() ||
      !(isPred || selShape.type == PrimitiveType::S32)) {
    error(instr.operands[0].loc) << "the selector of 'conditional' must be "
                                    "pred[] or s32[], not "
                                 << shapeText(selShape);
    return failure();
  }
  if (isPred && instr.attr("branch_computations") && branches.size() != 2) {
    error(instr.operands[0].loc) << "a pred selector needs two branches";
    return failure();
  }
  Location loc = opLoc(instr);
  llvm::SmallVector<const Shape *> leaves;
  instr.shape.leaves(leaves);
  llvm::SmallVector<Type> types;
  for (const Shape *leaf : leaves)
    types.push_back(tensorType(ctx_, *leaf));
  Operation *cond;
  llvm::SmallVector<Region *> regions;
  if (isPred) {
    auto ifOp = b_.create<IfOp>(loc, types, *selector);
    regions = {&ifOp.getTrueBranch(), &ifOp.getFalseBranch()};
    cond = ifOp;
  } else {
    auto caseOp = b_.create<CaseOp>(loc, types, *selector,
                                    static_cast<unsigned>(branches.size()));
    for (Region &r : caseOp.getBranches())
      regions.push_back(&r);
    cond = caseOp;
  }
  for (size_t k = 0; k < branches.size(); ++k) {
    OpBuilder::InsertionGuard guard(b_);
    b_.createBlock(regions[k]);
    // Branch computations take their operand as parameter; the torus
    // regions read it from above instead.
    auto value = emitComputation(*branches[k], {*operands[k + 1]});
    if (failed(value))
      return failure();
    const Instruction &root = branches[k]->instructions[branches[k]->root];
    if (!value->shape->sameAs(instr.shape)) {
      error(root.shape.loc) << "branch '" << branches[k]->name << "' returns "
                            << shapeText(*value->shape) << ", the conditional "
                            << shapeText(instr.shape);
      return failure();
    }
    b_.create<ReturnOp>(locator_.location(root.nameLoc), value->leaves);
  }
  result.leaves.assign(cond->getResults().begin(), cond->getResults().end());
  return success();
}

DenseIntElementsAttr Importer::groupsAttr(const Groups &groups) {
  if (groups.empty())
    return {};
  int64_t width = groups[0].size();
  llvm::SmallVector<int64_t> flat;
  for (const auto &g : groups)
    flat.append(g.begin(), g.end());
  return DenseIntElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(groups.size()), width},
                            b_.getI64Type()),
      flat);
}

FailureOr<Groups> Importer::collectiveGroups(const Instruction &instr,
                                             bool hasGlobalIds) {
  Groups groups;
  const Attr *attr = instr.attr("replica_groups");
  if (attr && failed(AttrParser(*attr, locator_).replicaGroups(groups)))
    return failure();
  llvm::SMLoc at = attr ? attr->valueLoc : instr.opcodeLoc;
  for (const auto &g : groups)
    if (g.size() != groups[0].size() || g.empty()) {
      error(at) << "replica groups of different sizes are not supported";
      return failure();
    }
  auto global = boolAttr(instr, "use_global_device_ids");
  if (failed(global))
    return failure();
  bool channel = instr.attr("channel_id") != nullptr;
  if (*global && !hasGlobalIds) {
    error(instr.attr("use_global_device_ids")->nameLoc)
        << "'" << instr.opcode << "' has no use_global_device_ids";
    return failure();
  }
  if (*global && !channel) {
    error(instr.attr("use_global_device_ids")->nameLoc)
        << "use_global_device_ids needs a channel_id";
    return failure();
  }
  GroupMode mode = !channel        ? GroupMode::CrossReplica
                   : !hasGlobalIds ? GroupMode::CrossPartition
                   : *global       ? GroupMode::FlattenedId
                                   : GroupMode::CrossReplicaAndPartition;
  int64_t r = replicaCount_, p = numPartitions_;
  // Torus collectives name logical devices d = replica * P + partition;
  // with one partition every mode but cross-partition names replicas.
  if (mode == GroupMode::FlattenedId ||
      (p == 1 && mode != GroupMode::CrossPartition))
    return groups;
  auto checkIds = [&](int64_t limit, llvm::StringRef what) -> LogicalResult {
    for (const auto &g : groups)
      for (int64_t id : g)
        if (id < 0 || id >= limit) {
          error(at) << "replica_groups name " << what << " " << id
                    << ", but the module has " << limit << " " << what
                    << (limit == 1 ? "" : "s")
                    << (what == "replica" && !haveReplicaCount_
                            ? " (no replica_count in the HloModule header)"
                            : "");
          return failure();
        }
    return success();
  };
  Groups out;
  switch (mode) {
  case GroupMode::CrossReplica:
    if (groups.empty())
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, r)));
    if (failed(checkIds(r, "replica")))
      return failure();
    for (int64_t part = 0; part < p; ++part)
      for (const auto &g : groups) {
        out.emplace_back();
        for (int64_t id : g)
          out.back().push_back(id * p + part);
      }
    break;
  case GroupMode::CrossPartition:
    if (groups.empty())
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, p)));
    if (failed(checkIds(p, "partition")))
      return failure();
    for (int64_t rep = 0; rep < r; ++rep)
      for (const auto &g : groups) {
        out.emplace_back();
        for (int64_t id : g)
          out.back().push_back(rep * p + id);
      }
    break;
  case GroupMode::CrossReplicaAndPartition:
    if (groups.empty())
      return groups;
    if (failed(checkIds(r, "replica")))
      return failure();
    for (const auto &g : groups) {
      out.emplace_back();
      for (int64_t id : g)
        for (int64_t part = 0; part < p; ++part)
          out.back().push_back(id * p + part);
    }
    break;
  case GroupMode::FlattenedId:
    break;
  }
  return out;
}

LogicalResult
Importer::emitCollective(const Instruction &instr,
                         llvm::ArrayRef<const HloValue *> operands,
                         HloValue &result) {
  llvm::StringRef op = instr.opcode;
  Location loc = opLoc(instr);
  size_t n = operands.size();
  if (n == 0)
    return checkOperandCount(instr, 1, 0);
  if (const Attr *ch = instr.attr("channel_id")) {
    int64_t id;
    if (failed(AttrParser(*ch, locator_).integer(id)))
      return failure();
  }
  // Tuple forms (`(f32[4], f32[8]) all-reduce(a, b)`) apply the collective
  // to each operand.
  llvm::SmallVector<const Shape *> resultShapes;
  if (n == 1) {
    resultShapes.push_back(&instr.shape);
  } else if (instr.shape.isTuple && instr.shape.elements.size() == n &&
             op != "collective-permute" && op != "all-to-all") {
    for (const Shape &s : instr.shape.elements)
      resultShapes.push_back(&s);
  } else {
    error(instr.opcodeLoc) << "'" << op << "' of " << n
                           << " operands is not supported";
    return failure();
  }
  llvm::SmallVector<Value> xs;
  for (size_t i = 0; i < n; ++i) {
    auto x = array(instr, operands, i);
    if (failed(x))
      return failure();
    if (resultShapes[i]->isTuple) {
      error(instr.shape.loc) << "'" << op << "' produces arrays, not "
                             << shapeText(*resultShapes[i]);
      return failure();
    }
    xs.push_back(*x);
  }

  if (op == "collective-permute") {
    const Attr *pairsAttr = requireAttr(instr, "source_target_pairs");
    if (!pairsAttr)
      return failure();
    Groups pairs;
    if (failed(AttrParser(*pairsAttr, locator_).intLists(pairs)))
      return failure();
    for (const auto &pr : pairs)
      if (pr.size() != 2) {
        error(pairsAttr->valueLoc)
            << "source_target_pairs must be {source,target} pairs";
        return failure();
      }
    bool channel = instr.attr("channel_id") != nullptr;
    int64_t r = replicaCount_, p = numPartitions_;
    Groups expanded;
    if (p == 1 && !channel) {
      expanded = pairs;
    } else {
      // Cross-replica pairs are per partition, cross-partition (with a
      // channel) per replica; Torus names devices r * P + p.
      int64_t limit = channel ? p : r;
      for (const auto &pr : pairs)
        for (int64_t id : pr)
          if (id < 0 || id >= limit) {
            error(pairsAttr->valueLoc)
                << "source_target_pairs name "
                << (channel ? "partition" : "replica") << " " << id
                << ", but the module has " << limit;
            return failure();
          }
      int64_t outer = channel ? r : p;
      for (int64_t k = 0; k < outer; ++k)
        for (const auto &pr : pairs)
          expanded.push_back(
              channel
                  ? llvm::SmallVector<int64_t>{k * p + pr[0], k * p + pr[1]}
                  : llvm::SmallVector<int64_t>{pr[0] * p + k, pr[1] * p + k});
    }
    llvm::SmallVector<int64_t> flat;
    for (const auto &pr : expanded)
      flat.append(pr.begin(), pr.end());
    auto attr = DenseIntElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(expanded.size()), 2},
                              b_.getI64Type()),
        flat);
    result.leaves.push_back(b_.create<CollectivePermuteOp>(
        loc, tensorType(ctx_, *resultShapes[0]), xs[0], attr));
    return success();
  }

  bool hasGlobalIds = op != "all-to-all";
  auto groups = collectiveGroups(instr, hasGlobalIds);
  if (failed(groups))
    return failure();
  DenseIntElementsAttr groupAttr = groupsAttr(*groups);

  std::optional<ReduceKind> kind;
  if (op == "all-reduce" || op == "reduce-scatter") {
    auto opcodes = reducerOpcodes(instr, 1, false);
    if (failed(opcodes))
      return failure();
    kind = reduceKindOf((*opcodes)[0]);
    if ((*kind == ReduceKind::max || *kind == ReduceKind::min) &&
        failed(checkSigned(instr, operands)))
      return failure();
  }
  int64_t dim = 0;
  if (op != "all-reduce") {
    auto dims = listAttr(instr, "dimensions", true);
    if (failed(dims))
      return failure();
    if (dims->size() != 1) {
      error(instr.attr("dimensions")->valueLoc)
          << "'" << op << "' takes one dimension";
      return failure();
    }
    dim = (*dims)[0];
  }
  for (size_t i = 0; i < n; ++i) {
    RankedTensorType type = tensorType(ctx_, *resultShapes[i]);
    Value v;
    if (op == "all-reduce") {
      v = b_.create<AllReduceOp>(loc, type, ReduceKindAttr::get(ctx_, *kind),
                                 xs[i], groupAttr);
    } else if (op == "reduce-scatter") {
      v = b_.create<ReduceScatterOp>(loc, type,
                                     ReduceKindAttr::get(ctx_, *kind), xs[i],
                                     b_.getI64IntegerAttr(dim), groupAttr);
    } else if (op == "all-gather") {
      v = b_.create<AllGatherOp>(loc, type, xs[i], b_.getI64IntegerAttr(dim),
                                 groupAttr);
    } else {
      // Array all-to-all: split and concatenate along the same dimension.
      int64_t count = groups->empty() ? replicaCount_ * numPartitions_
                                      : (*groups)[0].size();
      if (groups->empty() && !haveReplicaCount_) {
        error(instr.opcodeLoc) << "'all-to-all' without replica_groups "
                                  "needs replica_count in the HloModule "
                                  "header";
        return failure();
      }
      v = b_.create<AllToAllOp>(loc, type, xs[i], b_.getI64IntegerAttr(dim),
                                b_.getI64IntegerAttr(dim),
                                b_.getI64IntegerAttr(count), groupAttr);
    }
    result.leaves.push_back(v);
  }
  return success();
}

/// Erases the ops of `region` whose results nothing uses and that have no
/// effect, last first so that their operands' producers follow them.
void eraseDeadOps(Region &region) {
  for (Block &block : region)
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      for (Region &nested : op.getRegions())
        eraseDeadOps(nested);
      if (isOpTriviallyDead(&op))
        op.erase();
    }
}

LogicalResult Importer::run() {
  module_.setSymName(ast_.name);
  if (failed(checkHeader()))
    return failure();
  const Computation &entry = ast_.computations[ast_.entry];
  auto fn = emitFunction(entry, /*isEntry=*/true);
  if (failed(fn))
    return failure();
  // The entry function comes first.
  if (fn->getOperation() != &module_.getBody()->front())
    fn->getOperation()->moveBefore(&module_.getBody()->front());
  // Instructions nothing uses (an init constant that became a kind, an iota
  // that became argmax's index) leave dead ops behind; XLA would drop them
  // too.
  eraseDeadOps(module_.getBodyRegion());
  return success();
}

} // namespace

OwningOpRef<ModuleOp> importHloText(const llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context) {
  SourceLocator locator(sourceMgr, context);
  Module ast;
  if (failed(parseHloModule(sourceMgr, locator, ast)))
    return nullptr;
  OwningOpRef<ModuleOp> module = ModuleOp::create(locator.location(ast.loc));
  Importer importer(ast, locator, *module);
  if (failed(importer.run()))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> importHloText(llvm::StringRef text,
                                    llvm::StringRef bufferName,
                                    MLIRContext *context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  return importHloText(sourceMgr, context);
}

} // namespace mlir::torus::hlo
