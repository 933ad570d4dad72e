//===- HloExporter.cpp - The torus dialect as XLA HLO text ----------------===//
//
// Writes the entry function and everything it reaches as HLO computations in
// XLA's long form. The text is canonical: instruction names are the opcode
// and a module-wide counter, parameters keep the names the importer recorded
// (ir/ArgumentName.h: `x` for `%x`, a traced argument's name) or are
// `Arg_<i>`, ops nothing uses and that have no effect are
// left out (the importer drops them too), so that importing the text and
// writing it again reproduces it.
//
// An op is written by its handler in handlers(), or, if it has no
// attributes and one result, generically as its HloOpInterface opcode
// applied to its operands (single()); no table names those ops.
//
// Where HLO needs more than the torus op says, the exporter writes it out:
//   - reduce, reduce-window, scatter, all-reduce, reduce-scatter: a reducer
//     computation per (kind, type) and, where HLO takes one, the identity as
//     init value;
//   - argmax/argmin: HLO's variadic reduce over (values, iota) with a
//     comparator that keeps the first extremum (and the first NaN);
//   - while/if/case regions use values defined above them: those become
//     extra tuple elements of the loop state or the branch operand;
//   - replica-id, partition-id and rng-bit-generator are unsigned in HLO:
//     converts between u32/u64 and s32/s64 (bit-preserving) surround them;
//   - a splat constant is a scalar constant and a broadcast;
//   - all_to_all with split_dimension != concat_dimension becomes
//     reshape, transpose, HLO's array all-to-all, transpose, reshape.
//
//===----------------------------------------------------------------------===//

#include "ir/ArgumentName.h"
#include "ir/Sharding.h"
#include "ir/TorusOps.h"
#include "ir/hlo/HloExport.h"
#include "ir/hlo/HloImport.h"
#include "ir/hlo/HloOpInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <complex>
#include <cstdio>

namespace mlir::torus::hlo {
namespace {

//===----------------------------------------------------------------------===//
// Types and literals
//===----------------------------------------------------------------------===//

/// `f32`, `s32`, `pred`, ...; `unsignedInts` spells integers `u32`/`u64`.
std::string elementName(Type t, bool unsignedInts = false) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isFloat8E4M3FN())
    return "f8e4m3fn";
  if (t.isFloat8E5M2())
    return "f8e5m2";
  if (t.isInteger(1))
    return "pred";
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType().isF32() ? "c64" : "c128";
  if (auto i = dyn_cast<IntegerType>(t))
    return (unsignedInts || i.isUnsigned() ? "u" : "s") +
           std::to_string(i.getWidth());
  return "";
}

std::string joinInts(llvm::ArrayRef<int64_t> values,
                     llvm::StringRef sep = ",") {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(values, os, sep);
  return text;
}

/// `f32[2,3]{1,0}` (layout written when `layout` and rank > 0).
std::string shapeOf(Type type, bool layout = true, bool unsignedInts = false) {
  auto t = cast<RankedTensorType>(type);
  std::string text = elementName(t.getElementType(), unsignedInts) + "[" +
                     joinInts(t.getShape()) + "]";
  if (layout && t.getRank() > 0) {
    llvm::SmallVector<int64_t> minorToMajor;
    for (int64_t i = t.getRank() - 1; i >= 0; --i)
      minorToMajor.push_back(i);
    text += "{" + joinInts(minorToMajor) + "}";
  }
  return text;
}

std::string tupleShapeOf(TypeRange types, bool layout = true) {
  std::string text = "(";
  for (auto [i, t] : llvm::enumerate(types))
    text += (i ? ", " : "") + shapeOf(t, layout);
  return text + ")";
}

/// The shortest decimal that reads back as `value` (XLA's RoundTripFpToString).
std::string formatFloat(const llvm::APFloat &value) {
  if (value.isNaN())
    return value.isNegative() ? "-nan" : "nan";
  if (value.isInfinity())
    return value.isNegative() ? "-inf" : "inf";
  llvm::APFloat asDouble = value;
  bool lost = false;
  asDouble.convert(llvm::APFloat::IEEEdouble(),
                   llvm::APFloat::rmNearestTiesToEven, &lost);
  double d = asDouble.convertToDouble();
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, d);
    llvm::APFloat back(value.getSemantics());
    auto status =
        back.convertFromString(buffer, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      continue;
    }
    if (back.bitwiseIsEqual(value))
      return buffer;
  }
  std::snprintf(buffer, sizeof(buffer), "%.17g", d);
  return buffer;
}

/// An integer literal of type `type` (pred, signed or unsigned).
std::string formatInt(const llvm::APInt &value, Type type, bool scalar) {
  if (type.isInteger(1))
    return scalar ? (value.isZero() ? "false" : "true")
                  : (value.isZero() ? "0" : "1");
  return llvm::toString(value, 10, /*Signed=*/!type.isUnsignedInteger(),
                        /*formatAsCLiteral=*/false);
}

std::string formatScalar(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return formatFloat(f.getValue());
  auto i = cast<IntegerAttr>(attr);
  return formatInt(i.getValue(), i.getType(), true);
}

/// The literal of `constant(...)` for `attr`: a scalar, or nested braces.
std::string formatLiteral(DenseElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  bool isFloat = isa<FloatType>(type.getElementType());
  llvm::SmallVector<std::string> elements;
  if (isa<ComplexType>(type.getElementType()))
    for (const std::complex<llvm::APFloat> &v :
         attr.getValues<std::complex<llvm::APFloat>>())
      elements.push_back("(" + formatFloat(v.real()) + ", " +
                         formatFloat(v.imag()) + ")");
  else if (isFloat)
    for (const llvm::APFloat &v : attr.getValues<llvm::APFloat>())
      elements.push_back(formatFloat(v));
  else
    for (const llvm::APInt &v : attr.getValues<llvm::APInt>())
      elements.push_back(
          formatInt(v, type.getElementType(), type.getRank() == 0));
  if (type.getRank() == 0)
    return elements.empty() ? "0" : elements[0];
  // Row-major, one brace level per dimension.
  std::string text;
  llvm::ArrayRef<int64_t> shape = type.getShape();
  size_t next = 0;
  std::function<void(size_t)> print = [&](size_t dim) {
    text += dim + 1 < shape.size() ? "{ " : "{";
    for (int64_t i = 0; i < shape[dim]; ++i) {
      if (i)
        text += ", ";
      if (dim + 1 == shape.size())
        text += next < elements.size() ? elements[next++] : "0";
      else
        print(dim + 1);
    }
    text += dim + 1 < shape.size() ? " }" : "}";
  };
  print(0);
  return text;
}

/// `tmpl` with `$0`, `$1`, ... replaced by `args` (templates of whole
/// computations are full of braces, which formatv would read).
std::string fill(llvm::StringRef tmpl, llvm::ArrayRef<std::string> args) {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '$' && i + 1 < tmpl.size() && llvm::isDigit(tmpl[i + 1])) {
      out += args[tmpl[i + 1] - '0'];
      ++i;
      continue;
    }
    out.push_back(tmpl[i]);
  }
  return out;
}

std::string reduceOpcode(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
    return "add";
  case ReduceKind::product:
    return "multiply";
  case ReduceKind::max:
    return "maximum";
  case ReduceKind::min:
    return "minimum";
  case ReduceKind::And:
    return "and";
  case ReduceKind::Or:
    return "or";
  }
  return "add";
}

/// A name HLO's lexer reads as one word.
std::string sanitize(llvm::StringRef name) {
  std::string out;
  for (char c : name)
    out.push_back(llvm::isAlnum(c) || c == '_' || c == '.' || c == '-' ? c
                                                                       : '_');
  if (out.empty() || !(llvm::isAlpha(out[0]) || out[0] == '_'))
    out.insert(out.begin(), '_');
  return out;
}

/// Ops whose results nothing (live) uses and that have no effect: left out
/// of the text, as the importer drops them.
void collectDead(Region &region, llvm::DenseSet<Operation *> &dead) {
  for (Block &block : region)
    for (Operation &op : llvm::reverse(block)) {
      for (Region &nested : op.getRegions())
        collectDead(nested, dead);
      if (!wouldOpBeTriviallyDead(&op))
        continue;
      bool unused = true;
      for (Value r : op.getResults())
        for (Operation *user : r.getUsers())
          if (!dead.contains(user)) {
            // A use inside a dead op's region counts as dead too.
            Operation *ancestor = user;
            bool inDead = false;
            while ((ancestor = ancestor->getParentOp()))
              if (dead.contains(ancestor)) {
                inDead = true;
                break;
              }
            unused &= inDead;
          }
      if (unused)
        dead.insert(&op);
    }
}

//===----------------------------------------------------------------------===//
// The exporter
//===----------------------------------------------------------------------===//

class Exporter {
public:
  Exporter(ModuleOp module, const HloExportOptions &options)
      : module_(module), options_(options), ctx_(module.getContext()) {}

  LogicalResult run(llvm::raw_ostream &os);

private:
  struct Line {
    std::string name;
    std::string text; // `<shape> <opcode>(<operands>)<, attrs>`
    std::string sharding;
    std::string metadata;
    bool root = false;
  };
  /// One computation being written.
  struct Comp {
    std::string name;
    std::vector<std::pair<std::string, std::string>> params; // name, shape
    std::vector<Line> lines;
    llvm::DenseMap<Value, std::pair<std::string, std::string>> refs;
  };

  InFlightDiagnostic error(Operation *op) { return op->emitError(); }
  std::string uniqueName(llvm::StringRef base);
  std::string nextName(llvm::StringRef opcode) {
    return uniqueName(opcode.str() + "." + std::to_string(++counter_));
  }
  /// `f32[4]{0} %x` for a value of the current computation.
  FailureOr<std::string> ref(Value v, Operation *user);
  /// Adds an instruction to the current computation; returns its name.
  std::string add(llvm::StringRef opcode, llvm::StringRef shape,
                  llvm::ArrayRef<std::string> operands,
                  llvm::StringRef attrs = "", Operation *source = nullptr);
  void bind(Value v, const std::string &name, const std::string &shape) {
    comp_->refs[v] = {name, shape};
  }
  /// Binds the results of `op`: one array, or a tuple instruction and a
  /// get-tuple-element for each result that is used.
  void bindResults(Operation *op, const std::string &name,
                   const std::string &tupleShape, bool isTuple);
  std::string metadataOf(Location loc);
  std::string shardingText(Attribute attr);
  std::string opSharding(Operation *op);

  FailureOr<std::string> exportFunction(func::FuncOp fn, bool isEntry,
                                        bool *rootIsTuple = nullptr);
  LogicalResult exportBlock(Block &block);
  /// The operands of an op as HLO writes them: `f32[4]{0} %x`.
  using Operands = llvm::ArrayRef<std::string>;
  using Handler = LogicalResult (Exporter::*)(Operation *op, Operands operands);
  /// The handler of each op that needs one, by op.
  static const llvm::DenseMap<TypeID, Handler> &handlers();
  LogicalResult exportOp(Operation *op);
  /// Writes `region` as a computation whose single tuple parameter holds
  /// `params` (block arguments, then captured values); `root` builds the
  /// ROOT from the values torus.return returns. With `flat`, each of
  /// `params` is a parameter of its own (comparators, select, scatter).
  FailureOr<std::string>
  exportRegion(llvm::StringRef base, Region &region,
               llvm::ArrayRef<Value> params,
               llvm::function_ref<LogicalResult(ValueRange)> root,
               bool flat = false);
  /// A scalar computation (sort's comparator, select-and-scatter's select
  /// and scatter): one parameter per block argument, its value ROOT.
  FailureOr<std::string> scalarComputation(llvm::StringRef base,
                                           Region &region, Operation *op);
  /// Marks the instruction of `v` ROOT, or adds a tuple of `values`.
  LogicalResult setRoot(ValueRange values, bool tuple, Operation *where,
                        llvm::StringRef sharding = "");

  std::string reducer(ReduceKind kind, Type elementType);
  std::string replaceReducer(Type elementType);
  std::string argReducer(bool isMax, Type valueType, Type indexType);
  std::string constant(Attribute scalar, Type elementType);
  /// The scalar constant of reduceIdentity(kind), also for complex numbers.
  std::string identityConstant(ReduceKind kind, Type elementType);
  std::string groupsText(Attribute groups);
  FailureOr<std::string> collectiveMode(Operation *op, Attribute groups,
                                        bool globalIds);
  /// `groups` (logical device ids) as HLO's per-replica partition groups
  /// or per-partition replica groups, if they have that form.
  std::optional<std::string>
  factorGroups(llvm::ArrayRef<llvm::SmallVector<int64_t>> groups,
               bool withinReplica);

  /// `<shape> <opcode>(<operands>)<attrs>` for an op of one result whose
  /// opcode is its HloOpInterface's.
  LogicalResult single(Operation *op, Operands operands,
                       llvm::StringRef attrs = "");

  // Handlers: the ops that need more than their opcode and operands
  // (handlers()); the others are written by single().
  template <typename OpTy, LogicalResult (Exporter::*Fn)(OpTy, Operands)>
  LogicalResult handle(Operation *op, Operands operands) {
    return (this->*Fn)(cast<OpTy>(op), operands);
  }
  template <typename OpTy, LogicalResult (Exporter::*Fn)(OpTy, Operands)>
  static std::pair<TypeID, Handler> entry() {
    return {TypeID::get<OpTy>(), &Exporter::handle<OpTy, Fn>};
  }
  LogicalResult exportConstant(ConstantOp c, Operands operands);
  LogicalResult exportIota(IotaOp o, Operands operands);
  LogicalResult exportCompare(CompareOp o, Operands operands);
  LogicalResult exportReducePrecision(ReducePrecisionOp o, Operands operands);
  LogicalResult exportBroadcast(BroadcastInDimOp o, Operands operands);
  LogicalResult exportTranspose(TransposeOp o, Operands operands);
  LogicalResult exportReverse(ReverseOp o, Operands operands);
  LogicalResult exportSlice(SliceOp o, Operands operands);
  LogicalResult exportDynamicSlice(DynamicSliceOp o, Operands operands);
  LogicalResult exportConcatenate(ConcatenateOp o, Operands operands);
  LogicalResult exportPad(PadOp o, Operands operands);
  LogicalResult exportReduce(ReduceOp o, Operands operands);
  template <typename OpTy>
  LogicalResult exportArgReduce(OpTy o, Operands operands);
  LogicalResult exportReduceWindow(ReduceWindowOp o, Operands operands);
  /// An op whose instruction carries `region` as its `to_apply`
  /// computation (named after `base`): `opcode(operands)<attrs>,
  /// to_apply=%...`, a tuple for several results.
  LogicalResult exportWithComputation(Operation *op, llvm::StringRef opcode,
                                      llvm::StringRef base, Region &region,
                                      Operands operands,
                                      const std::string &attrs);
  LogicalResult exportReduceGeneral(ReduceGeneralOp o, Operands operands);
  LogicalResult exportReduceWindowGeneral(ReduceWindowGeneralOp o,
                                          Operands operands);
  LogicalResult exportDot(DotGeneralOp o, Operands operands);
  LogicalResult exportConvolution(ConvolutionOp o, Operands operands);
  LogicalResult exportGather(GatherOp o, Operands operands);
  LogicalResult exportScatter(ScatterOp o, Operands operands);
  LogicalResult exportIf(IfOp o, Operands operands);
  LogicalResult exportCase(CaseOp o, Operands operands);
  LogicalResult exportCall(CallOp o, Operands operands);
  LogicalResult exportRngBitGenerator(RngBitGeneratorOp o, Operands operands);
  template <typename OpTy>
  LogicalResult exportProcessId(OpTy o, Operands operands);
  LogicalResult exportAllReduce(AllReduceOp o, Operands operands);
  LogicalResult exportAllGather(AllGatherOp o, Operands operands);
  LogicalResult exportReduceScatter(ReduceScatterOp o, Operands operands);
  LogicalResult exportShardingConstraint(ShardingConstraintOp o,
                                         Operands operands);
  LogicalResult exportCollectivePermute(CollectivePermuteOp o,
                                        Operands operands);
  LogicalResult exportWhile(WhileOp op, Operands operands);
  LogicalResult exportConditional(Operation *op, Value selector,
                                  llvm::MutableArrayRef<Region> regions);
  LogicalResult exportAllToAll(AllToAllOp op, Operands operands);
  LogicalResult exportSort(SortOp op, Operands operands);
  LogicalResult exportTopK(TopKOp op, Operands operands);
  LogicalResult exportTriangularSolve(TriangularSolveOp op, Operands operands);
  LogicalResult exportFft(FftOp op, Operands operands);
  LogicalResult exportSelectAndScatter(SelectAndScatterOp op,
                                       Operands operands);

  ModuleOp module_;
  const HloExportOptions &options_;
  MLIRContext *ctx_;
  int64_t counter_ = 0;
  int64_t channel_ = 0;
  int64_t numReplicas_ = 1, numPartitions_ = 1;
  llvm::StringSet<> used_;
  std::vector<std::string> computations_; // finished, callees first
  llvm::StringMap<std::string> reducers_;
  llvm::StringMap<std::pair<std::string, bool>> functions_;
  llvm::DenseSet<Operation *> dead_;
  Comp *comp_ = nullptr;
};

std::string Exporter::uniqueName(llvm::StringRef base) {
  std::string name = base.str();
  // Clashes (a parameter named like a generated name) take a suffix of
  // their own, leaving the instruction numbering alone.
  for (int64_t k = 1; !used_.insert(name).second; ++k)
    name = base.str() + "_" + std::to_string(k);
  return name;
}

FailureOr<std::string> Exporter::ref(Value v, Operation *user) {
  auto it = comp_->refs.find(v);
  if (it == comp_->refs.end()) {
    user->emitError() << "HLO export: an operand of '" << user->getName()
                      << "' is not available here";
    return failure();
  }
  return it->second.second + " %" + it->second.first;
}

std::string Exporter::add(llvm::StringRef opcode, llvm::StringRef shape,
                          llvm::ArrayRef<std::string> operands,
                          llvm::StringRef attrs, Operation *source) {
  Line line;
  line.name = nextName(opcode);
  line.text = (shape + " " + opcode + "(").str();
  llvm::raw_string_ostream os(line.text);
  llvm::interleave(operands, os, ", ");
  os << ")" << attrs;
  if (source) {
    line.sharding = opSharding(source);
    if (options_.metadata)
      line.metadata = metadataOf(source->getLoc());
  }
  comp_->lines.push_back(std::move(line));
  return comp_->lines.back().name;
}

void Exporter::bindResults(Operation *op, const std::string &name,
                           const std::string &tupleShape, bool isTuple) {
  if (!isTuple) {
    bind(op->getResult(0), name, shapeOf(op->getResult(0).getType()));
    return;
  }
  for (auto [i, r] : llvm::enumerate(op->getResults())) {
    bool used = llvm::any_of(r.getUsers(),
                             [&](Operation *u) { return !dead_.contains(u); });
    if (!used)
      continue;
    std::string shape = shapeOf(r.getType());
    std::string gte =
        add("get-tuple-element", shape, {tupleShape + " %" + name},
            ", index=" + std::to_string(i));
    bind(r, gte, shape);
  }
}

std::string Exporter::metadataOf(Location loc) {
  std::string opName, file;
  unsigned line = 0;
  auto visit = [&](Location l) {
    l->walk([&](Location inner) {
      if (auto name = dyn_cast<NameLoc>(inner)) {
        if (opName.empty())
          opName = name.getName().str();
      } else if (auto f = dyn_cast<FileLineColLoc>(inner)) {
        if (file.empty()) {
          file = f.getFilename().str();
          line = f.getLine();
        }
      }
      return WalkResult::advance();
    });
  };
  auto fused = dyn_cast<FusedLoc>(loc);
  auto tag = fused ? dyn_cast_if_present<StringAttr>(fused.getMetadata())
                   : StringAttr();
  if (tag && tag.getValue() == kHloLocationTag) {
    // Imported from HLO: the first location is the HLO text's, the rest
    // came from `metadata={...}`.
    for (Location l : fused.getLocations().drop_front())
      visit(l);
  } else {
    visit(loc);
  }
  if (opName.empty() && file.empty())
    return "";
  std::string text = "metadata={";
  auto quote = [](llvm::StringRef s) {
    std::string q = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\')
        q.push_back('\\');
      if (c == '\n') {
        q += "\\n";
        continue;
      }
      q.push_back(c);
    }
    return q + "\"";
  };
  bool first = true;
  if (!opName.empty()) {
    text += "op_name=" + quote(opName);
    first = false;
  }
  if (!file.empty()) {
    text += (first ? "" : " ") + ("source_file=" + quote(file)) +
            " source_line=" + std::to_string(line);
  }
  return text + "}";
}

std::string Exporter::shardingText(Attribute attr) {
  if (auto s = dyn_cast_if_present<StringAttr>(attr)) {
    // HLO text: written as the attribute would write it, so that reading
    // it back (which makes it an attribute) gives the same text.
    if (ShardingAttr sharding = toShardingAttr(s, ctx_))
      return sharding.toString();
    return s.getValue().str();
  }
  if (auto array = dyn_cast_if_present<ArrayAttr>(attr)) {
    std::string text = "{";
    for (auto [i, e] : llvm::enumerate(array))
      text += (i ? ", " : "") + shardingText(e);
    return text + "}";
  }
  if (auto sharding = dyn_cast_if_present<ShardingAttr>(attr))
    return sharding.toString();
  return "";
}

std::string Exporter::opSharding(Operation *op) {
  return shardingText(op->getAttr(kShardingAttrName));
}

//===----------------------------------------------------------------------===//
// Synthesised computations
//===----------------------------------------------------------------------===//

std::string Exporter::reducer(ReduceKind kind, Type elementType) {
  std::string type = elementName(elementType);
  std::string opcode = reduceOpcode(kind);
  std::string key = stringifyReduceKind(kind).lower() + "_" + type;
  auto it = reducers_.find(key);
  if (it != reducers_.end())
    return it->second;
  std::string name = uniqueName(key);
  std::string s = type + "[]";
  std::string text = fill("%$0 (x: $1, y: $1) -> $1 {\n"
                          "  %x.$0 = $1 parameter(0)\n"
                          "  %y.$0 = $1 parameter(1)\n"
                          "  ROOT %$2.$0 = $1 $2($1 %x.$0, $1 %y.$0)\n"
                          "}\n",
                          {name, s, opcode});
  computations_.push_back(text);
  reducers_[key] = name;
  return name;
}

std::string Exporter::replaceReducer(Type elementType) {
  std::string type = elementName(elementType);
  std::string key = "replace_" + type;
  auto it = reducers_.find(key);
  if (it != reducers_.end())
    return it->second;
  std::string name = uniqueName(key);
  std::string s = type + "[]";
  computations_.push_back(fill("%$0 (x: $1, y: $1) -> $1 {\n"
                               "  %x.$0 = $1 parameter(0)\n"
                               "  ROOT %y.$0 = $1 parameter(1)\n"
                               "}\n",
                               {name, s}));
  reducers_[key] = name;
  return name;
}

std::string Exporter::argReducer(bool isMax, Type valueType, Type indexType) {
  std::string v = elementName(valueType), i = elementName(indexType);
  std::string key = (isMax ? "argmax_" : "argmin_") + v + "_" + i;
  auto it = reducers_.find(key);
  if (it != reducers_.end())
    return it->second;
  std::string name = uniqueName(key);
  // Keeps (a, ai) over (b, bi) when a is larger (smaller), or a is NaN and
  // b is not, or both are equal (or NaN) and ai < bi: the first extremum,
  // whatever order the reduction visits the elements in.
  std::string text =
      fill("%$0 (a: $1[], ai: $2[], b: $1[], bi: $2[]) -> ($1[], $2[]) {\n"
           "  %a.$0 = $1[] parameter(0)\n"
           "  %ai.$0 = $2[] parameter(1)\n"
           "  %b.$0 = $1[] parameter(2)\n"
           "  %bi.$0 = $2[] parameter(3)\n"
           "  %better.$0 = pred[] compare($1[] %a.$0, $1[] %b.$0), "
           "direction=$3\n"
           "  %anan.$0 = pred[] compare($1[] %a.$0, $1[] %a.$0), "
           "direction=NE\n"
           "  %bnan.$0 = pred[] compare($1[] %b.$0, $1[] %b.$0), "
           "direction=NE\n"
           "  %bnum.$0 = pred[] not(pred[] %bnan.$0)\n"
           "  %nanfirst.$0 = pred[] and(pred[] %anan.$0, pred[] %bnum.$0)\n"
           "  %wins.$0 = pred[] or(pred[] %better.$0, pred[] %nanfirst.$0)\n"
           "  %eq.$0 = pred[] compare($1[] %a.$0, $1[] %b.$0), "
           "direction=EQ\n"
           "  %bothnan.$0 = pred[] and(pred[] %anan.$0, pred[] %bnan.$0)\n"
           "  %same.$0 = pred[] or(pred[] %eq.$0, pred[] %bothnan.$0)\n"
           "  %lower.$0 = pred[] compare($2[] %ai.$0, $2[] %bi.$0), "
           "direction=LT\n"
           "  %tie.$0 = pred[] and(pred[] %same.$0, pred[] %lower.$0)\n"
           "  %pick.$0 = pred[] or(pred[] %wins.$0, pred[] %tie.$0)\n"
           "  %value.$0 = $1[] select(pred[] %pick.$0, $1[] %a.$0, $1[] "
           "%b.$0)\n"
           "  %index.$0 = $2[] select(pred[] %pick.$0, $2[] %ai.$0, $2[] "
           "%bi.$0)\n"
           "  ROOT %result.$0 = ($1[], $2[]) tuple($1[] %value.$0, $2[] "
           "%index.$0)\n"
           "}\n",
           {name, v, i, isMax ? "GT" : "LT"});
  computations_.push_back(text);
  reducers_[key] = name;
  return name;
}

std::string Exporter::identityConstant(ReduceKind kind, Type elementType) {
  if (isa<ComplexType>(elementType) && kind == ReduceKind::product) {
    std::string shape = elementName(elementType) + "[]";
    return shape + " %" + add("constant", shape, {"(1, 0)"});
  }
  return constant(reduceIdentity(kind, elementType), elementType);
}

std::string Exporter::constant(Attribute scalar, Type elementType) {
  std::string shape = elementName(elementType) + "[]";
  // Complex numbers have no TypedAttr scalar: a null `scalar` of complex
  // type is the additive identity (reduceIdentity has none for them).
  std::string literal = isa<ComplexType>(elementType) ? "(0, 0)"
                                                      : formatScalar(scalar);
  std::string name = add("constant", shape, {literal});
  // `constant(x)`: the literal is not an operand reference.
  return shape + " %" + name;
}

std::string Exporter::groupsText(Attribute groups) {
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(groups);
  if (!dense || dense.getNumElements() == 0)
    return "{}";
  auto type = cast<RankedTensorType>(dense.getType());
  int64_t width = type.getRank() == 2 ? type.getDimSize(1) : 1;
  std::vector<int64_t> flat(dense.getValues<int64_t>().begin(),
                            dense.getValues<int64_t>().end());
  std::string text = "{";
  for (size_t g = 0; g * width < flat.size(); ++g) {
    text += g ? ",{" : "{";
    text += joinInts(llvm::ArrayRef<int64_t>(flat).slice(g * width, width));
    text += "}";
  }
  return text + "}";
}

FailureOr<std::string> Exporter::collectiveMode(Operation *op, Attribute groups,
                                                bool globalIds) {
  if (numPartitions_ == 1)
    return ", replica_groups=" + groupsText(groups);
  // Torus names logical devices r * P + p: HLO's flattened ids.
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(groups);
  std::string groupText = groupsText(groups);
  if (!dense || dense.getNumElements() == 0) {
    groupText = "{" +
                joinInts(llvm::to_vector(
                    llvm::seq<int64_t>(0, numReplicas_ * numPartitions_))) +
                "}";
    groupText = "{" + groupText + "}";
  }
  if (globalIds)
    return llvm::formatv(", channel_id={0}, replica_groups={1}, "
                         "use_global_device_ids=true",
                         ++channel_, groupText)
        .str();
  // all-to-all has no flattened-id mode: the groups must be the same
  // partitions of every replica (with a channel) or the same replicas of
  // every partition (without).
  std::vector<llvm::SmallVector<int64_t>> groupList;
  if (dense && dense.getNumElements() > 0) {
    int64_t width = cast<RankedTensorType>(dense.getType()).getDimSize(1);
    auto values = llvm::to_vector(dense.getValues<int64_t>());
    for (size_t g = 0; g * width < values.size(); ++g)
      groupList.emplace_back(values.begin() + g * width,
                             values.begin() + (g + 1) * width);
  } else {
    groupList.push_back(
        llvm::to_vector(llvm::seq<int64_t>(0, numReplicas_ * numPartitions_)));
  }
  if (auto factored = factorGroups(groupList, /*withinReplica=*/true))
    return llvm::formatv(", channel_id={0}, replica_groups={1}", ++channel_,
                         *factored)
        .str();
  if (auto factored = factorGroups(groupList, /*withinReplica=*/false))
    return ", replica_groups=" + *factored;
  op->emitError() << "HLO export: the replica groups of '" << op->getName()
                  << "' mix replicas and partitions in a way HLO cannot "
                     "express";
  return failure();
}

std::optional<std::string>
Exporter::factorGroups(llvm::ArrayRef<llvm::SmallVector<int64_t>> groups,
                       bool withinReplica) {
  // withinReplica: every group is partitions of one replica, replica-major,
  // the same partitions for every replica (HLO's cross-partition mode).
  // Otherwise every group is replicas of one partition, partition-major
  // (cross-replica mode). The importer expands them in these orders.
  int64_t p = numPartitions_, r = numReplicas_;
  int64_t outer = withinReplica ? r : p;
  if (groups.empty() || groups.size() % outer != 0)
    return std::nullopt;
  size_t perOuter = groups.size() / outer;
  std::vector<llvm::SmallVector<int64_t>> pattern;
  for (size_t g = 0; g < groups.size(); ++g) {
    int64_t k = g / perOuter;
    llvm::SmallVector<int64_t> inner;
    for (int64_t id : groups[g]) {
      int64_t rep = id / p, part = id % p;
      if ((withinReplica ? rep : part) != k)
        return std::nullopt;
      inner.push_back(withinReplica ? part : rep);
    }
    if (g < perOuter)
      pattern.push_back(inner);
    else if (pattern[g % perOuter] != inner)
      return std::nullopt;
  }
  std::string text = "{";
  for (auto [i, g] : llvm::enumerate(pattern))
    text += (i ? ",{" : "{") + joinInts(g) + "}";
  return text + "}";
}

//===----------------------------------------------------------------------===//
// Computations
//===----------------------------------------------------------------------===//

LogicalResult Exporter::setRoot(ValueRange values, bool tuple, Operation *where,
                                llvm::StringRef sharding) {
  if (!tuple) {
    if (values.size() != 1) {
      where->emitError() << "HLO export: expected one value to return";
      return failure();
    }
    auto it = comp_->refs.find(values[0]);
    if (it == comp_->refs.end()) {
      where->emitError() << "HLO export: the returned value is not "
                            "available here";
      return failure();
    }
    for (Line &line : comp_->lines)
      if (line.name == it->second.first) {
        line.root = true;
        if (line.sharding.empty())
          line.sharding = sharding.str();
        return success();
      }
    // A parameter of a function: give it a line of its own.
    where->emitError() << "HLO export: cannot make the returned value ROOT";
    return failure();
  }
  llvm::SmallVector<std::string> operands;
  for (Value v : values) {
    auto r = ref(v, where);
    if (failed(r))
      return failure();
    operands.push_back(*r);
  }
  add("tuple", tupleShapeOf(values.getTypes()), operands);
  comp_->lines.back().root = true;
  comp_->lines.back().sharding = sharding.str();
  return success();
}

FailureOr<std::string> Exporter::exportFunction(func::FuncOp fn, bool isEntry,
                                                bool *rootIsTuple) {
  if (auto it = functions_.find(fn.getSymName()); it != functions_.end()) {
    if (rootIsTuple)
      *rootIsTuple = it->second.second;
    return it->second.first;
  }
  if (fn.isExternal() || !fn.getBody().hasOneBlock()) {
    fn.emitError() << "HLO export: @" << fn.getSymName()
                   << " needs a body of one block";
    return failure();
  }
  Comp comp;
  Comp *outer = comp_;
  comp_ = &comp;
  comp.name = uniqueName(sanitize(fn.getSymName()));
  // Placeholder so that recursion is caught.
  functions_[fn.getSymName()] = {"", false};
  Block &body = fn.getBody().front();
  for (BlockArgument arg : body.getArguments()) {
    std::string base = "Arg_" + std::to_string(arg.getArgNumber());
    if (std::optional<std::string> name = argumentName(arg))
      base = sanitize(*name);
    std::string shape = shapeOf(arg.getType());
    Line line;
    line.name = uniqueName(base);
    line.text =
        shape + " parameter(" + std::to_string(arg.getArgNumber()) + ")";
    line.sharding =
        shardingText(fn.getArgAttr(arg.getArgNumber(), kShardingAttrName));
    comp.params.push_back({line.name, shapeOf(arg.getType(), false)});
    comp.lines.push_back(line);
    bind(arg, line.name, shape);
  }
  if (failed(exportBlock(body)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  bool tuple = ret.getNumOperands() != 1;
  std::string sharding;
  if (!tuple) {
    sharding = shardingText(fn.getResultAttr(0, kShardingAttrName));
  } else {
    bool any = false;
    std::string text = "{";
    for (unsigned i = 0; i < ret.getNumOperands(); ++i) {
      std::string s = shardingText(fn.getResultAttr(i, kShardingAttrName));
      any |= !s.empty();
      text += (i ? ", " : "") + (s.empty() ? std::string("{replicated}") : s);
    }
    if (any)
      sharding = text + "}";
  }
  if (failed(setRoot(ret.getOperands(), tuple, ret, sharding)))
    return failure();

  std::string rootShape;
  if (tuple)
    rootShape = tupleShapeOf(fn.getResultTypes(), false);
  else
    rootShape = shapeOf(fn.getResultTypes()[0], false);

  std::string text;
  llvm::raw_string_ostream os(text);
  os << (isEntry ? "ENTRY " : "") << "%" << comp.name << " (";
  llvm::interleave(
      comp.params, os,
      [&](const auto &p) { os << p.first << ": " << p.second; }, ", ");
  os << ") -> " << rootShape << " {\n";
  for (const Line &line : comp.lines) {
    os << "  " << (line.root ? "ROOT " : "") << "%" << line.name << " = "
       << line.text;
    if (!line.sharding.empty())
      os << ", sharding=" << line.sharding;
    if (!line.metadata.empty())
      os << ", " << line.metadata;
    os << "\n";
  }
  os << "}\n";
  computations_.push_back(text);
  comp_ = outer;
  functions_[fn.getSymName()] = {comp.name, tuple};
  if (rootIsTuple)
    *rootIsTuple = tuple;
  return comp.name;
}

FailureOr<std::string>
Exporter::exportRegion(llvm::StringRef base, Region &region,
                       llvm::ArrayRef<Value> params,
                       llvm::function_ref<LogicalResult(ValueRange)> root,
                       bool flat) {
  Comp comp;
  Comp *outer = comp_;
  comp_ = &comp;
  comp.name = nextName(base);
  for (auto [i, v] : llvm::enumerate(flat ? params : llvm::ArrayRef<Value>())) {
    std::string s = shapeOf(v.getType());
    std::string param = nextName("parameter");
    comp.params.push_back({param, shapeOf(v.getType(), false)});
    Line line;
    line.name = param;
    line.text = s + " parameter(" + std::to_string(i) + ")";
    comp.lines.push_back(line);
    bind(v, param, s);
  }
  std::string shape = tupleShapeOf(ValueRange(params).getTypes());
  std::string param = flat ? "" : nextName("parameter");
  if (!flat) {
    comp.params.push_back(
        {param, tupleShapeOf(ValueRange(params).getTypes(), false)});
    Line line;
    line.name = param;
    line.text = shape + " parameter(0)";
    comp.lines.push_back(line);
  }
  for (auto [i, v] : llvm::enumerate(flat ? llvm::ArrayRef<Value>() : params)) {
    std::string s = shapeOf(v.getType());
    std::string gte = add("get-tuple-element", s, {shape + " %" + param},
                          ", index=" + std::to_string(i));
    bind(v, gte, s);
  }
  Block &block = region.front();
  if (failed(exportBlock(block)))
    return failure();
  Operation *term = block.getTerminator();
  if (failed(root(term->getOperands())))
    return failure();

  std::string rootShape;
  for (const Line &l : comp.lines)
    if (l.root) {
      // `<shape> opcode(...)`: a tuple shape is parenthesised.
      const std::string &t = l.text;
      if (!t.empty() && t[0] == '(') {
        int depth = 0;
        size_t k = 0;
        for (; k < t.size(); ++k) {
          depth += t[k] == '(' ? 1 : t[k] == ')' ? -1 : 0;
          if (depth == 0)
            break;
        }
        rootShape = t.substr(0, k + 1);
      } else {
        rootShape = t.substr(0, t.find(' '));
      }
    }
  // Signatures are written without layouts.
  std::string bare;
  for (size_t k = 0; k < rootShape.size(); ++k) {
    if (rootShape[k] == '{') {
      while (k < rootShape.size() && rootShape[k] != '}')
        ++k;
      continue;
    }
    bare.push_back(rootShape[k]);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "%" << comp.name << " (";
  for (auto [i, p] : llvm::enumerate(comp.params))
    os << (i ? ", " : "") << p.first << ": " << p.second;
  os << ") -> " << bare << " {\n";
  for (const Line &l : comp.lines) {
    os << "  " << (l.root ? "ROOT " : "") << "%" << l.name << " = " << l.text;
    if (!l.sharding.empty())
      os << ", sharding=" << l.sharding;
    if (!l.metadata.empty())
      os << ", " << l.metadata;
    os << "\n";
  }
  os << "}\n";
  computations_.push_back(text);
  comp_ = outer;
  return comp.name;
}

LogicalResult Exporter::exportBlock(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (dead_.contains(&op))
      continue;
    if (failed(exportOp(&op)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

std::string dimsAttr(llvm::StringRef name, llvm::ArrayRef<int64_t> dims) {
  return (", " + name + "={" + joinInts(dims) + "}").str();
}

std::string windowText(llvm::ArrayRef<int64_t> size,
                       llvm::ArrayRef<int64_t> stride,
                       llvm::ArrayRef<std::pair<int64_t, int64_t>> pad,
                       llvm::ArrayRef<int64_t> lhsDilate,
                       llvm::ArrayRef<int64_t> rhsDilate) {
  auto allEqual = [](llvm::ArrayRef<int64_t> v, int64_t x) {
    return llvm::all_of(v, [&](int64_t e) { return e == x; });
  };
  std::string text = "{size=" + joinInts(size, "x");
  if (!allEqual(stride, 1))
    text += " stride=" + joinInts(stride, "x");
  if (llvm::any_of(pad, [](auto p) { return p.first || p.second; })) {
    text += " pad=";
    for (auto [i, p] : llvm::enumerate(pad))
      text += (i ? "x" : "") + std::to_string(p.first) + "_" +
              std::to_string(p.second);
  }
  if (!allEqual(lhsDilate, 1))
    text += " lhs_dilate=" + joinInts(lhsDilate, "x");
  if (!allEqual(rhsDilate, 1))
    text += " rhs_dilate=" + joinInts(rhsDilate, "x");
  return text + "}";
}

const llvm::DenseMap<TypeID, Exporter::Handler> &Exporter::handlers() {
  static const llvm::DenseMap<TypeID, Handler> table = [] {
    const std::pair<TypeID, Handler> entries[] = {
        entry<ConstantOp, &Exporter::exportConstant>(),
        entry<IotaOp, &Exporter::exportIota>(),
        entry<CompareOp, &Exporter::exportCompare>(),
        entry<ReducePrecisionOp, &Exporter::exportReducePrecision>(),
        entry<BroadcastInDimOp, &Exporter::exportBroadcast>(),
        entry<TransposeOp, &Exporter::exportTranspose>(),
        entry<ReverseOp, &Exporter::exportReverse>(),
        entry<SliceOp, &Exporter::exportSlice>(),
        entry<DynamicSliceOp, &Exporter::exportDynamicSlice>(),
        entry<ConcatenateOp, &Exporter::exportConcatenate>(),
        entry<PadOp, &Exporter::exportPad>(),
        entry<ReduceOp, &Exporter::exportReduce>(),
        entry<ArgMaxOp, &Exporter::exportArgReduce<ArgMaxOp>>(),
        entry<ArgMinOp, &Exporter::exportArgReduce<ArgMinOp>>(),
        entry<ReduceWindowOp, &Exporter::exportReduceWindow>(),
        entry<ReduceGeneralOp, &Exporter::exportReduceGeneral>(),
        entry<ReduceWindowGeneralOp, &Exporter::exportReduceWindowGeneral>(),
        entry<DotGeneralOp, &Exporter::exportDot>(),
        entry<ConvolutionOp, &Exporter::exportConvolution>(),
        entry<GatherOp, &Exporter::exportGather>(),
        entry<ScatterOp, &Exporter::exportScatter>(),
        entry<WhileOp, &Exporter::exportWhile>(),
        entry<IfOp, &Exporter::exportIf>(),
        entry<CaseOp, &Exporter::exportCase>(),
        entry<CallOp, &Exporter::exportCall>(),
        entry<RngBitGeneratorOp, &Exporter::exportRngBitGenerator>(),
        entry<ReplicaIdOp, &Exporter::exportProcessId<ReplicaIdOp>>(),
        entry<PartitionIdOp, &Exporter::exportProcessId<PartitionIdOp>>(),
        entry<AllReduceOp, &Exporter::exportAllReduce>(),
        entry<AllGatherOp, &Exporter::exportAllGather>(),
        entry<ReduceScatterOp, &Exporter::exportReduceScatter>(),
        entry<AllToAllOp, &Exporter::exportAllToAll>(),
        entry<CollectivePermuteOp, &Exporter::exportCollectivePermute>(),
        entry<ShardingConstraintOp, &Exporter::exportShardingConstraint>(),
        entry<SortOp, &Exporter::exportSort>(),
        entry<TopKOp, &Exporter::exportTopK>(),
        entry<TriangularSolveOp, &Exporter::exportTriangularSolve>(),
        entry<FftOp, &Exporter::exportFft>(),
        entry<SelectAndScatterOp, &Exporter::exportSelectAndScatter>(),
    };
    return llvm::DenseMap<TypeID, Handler>(std::begin(entries),
                                           std::end(entries));
  }();
  return table;
}

LogicalResult Exporter::exportOp(Operation *op) {
  llvm::SmallVector<std::string> operands;
  for (Value v : op->getOperands()) {
    auto r = ref(v, op);
    if (failed(r))
      return failure();
    operands.push_back(*r);
  }
  if (auto it = handlers().find(op->getName().getTypeID());
      it != handlers().end())
    return (this->*it->second)(op, operands);
  // An attribute-free op: its HloOpInterface says all there is to write.
  if (isGenericHloOp(op->getName()))
    return single(op, operands);
  op->emitError() << "HLO export: '" << op->getName()
                  << "' has no HLO counterpart";
  return failure();
}

LogicalResult Exporter::single(Operation *op, Operands operands,
                               llvm::StringRef attrs) {
  std::string shape = shapeOf(op->getResult(0).getType());
  std::string name = add(hloOpcode(op->getName()), shape, operands, attrs, op);
  bind(op->getResult(0), name, shape);
  return success();
}

LogicalResult Exporter::exportConstant(ConstantOp c, Operands operands) {
  auto resultShape = [&](unsigned i = 0) {
    return shapeOf(c.getOperation()->getResult(i).getType());
  };
  Operation *op = c;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense) {
    c.emitError() << "HLO export: constants must be dense elements";
    return failure();
  }
  auto type = cast<RankedTensorType>(dense.getType());
  if (dense.isSplat() && type.getNumElements() > 1 &&
      !isa<ComplexType>(type.getElementType())) {
    // A scalar and a broadcast instead of every element.
    Type et = type.getElementType();
    Attribute scalar =
        isa<FloatType>(et)
            ? Attribute(
                  FloatAttr::get(et, dense.getSplatValue<llvm::APFloat>()))
            : Attribute(
                  IntegerAttr::get(et, dense.getSplatValue<llvm::APInt>()));
    std::string s = constant(scalar, et);
    std::string name =
        add("broadcast", resultShape(), {s}, ", dimensions={}", op);
    bind(c.getResult(), name, resultShape());
    return success();
  }
  std::string name =
      add("constant", resultShape(), {formatLiteral(dense)}, "", op);
  bind(c.getResult(), name, resultShape());
  return success();
}

LogicalResult Exporter::exportIota(IotaOp o, Operands operands) {
  Operation *op = o;
  return single(op, operands,
                ", iota_dimension=" + std::to_string(o.getIotaDimension()));
}

LogicalResult Exporter::exportCompare(CompareOp o, Operands operands) {
  Operation *op = o;
  return single(op, operands,
                (", direction=" +
                 stringifyComparisonDirection(o.getComparisonDirection()) +
                 (o.getTotalOrder() ? ", type=TOTALORDER" : ""))
                    .str());
}

LogicalResult Exporter::exportBroadcast(BroadcastInDimOp o, Operands operands) {
  Operation *op = o;
  return single(op, operands,
                dimsAttr("dimensions", o.getBroadcastDimensions()));
}

LogicalResult Exporter::exportTranspose(TransposeOp o, Operands operands) {
  Operation *op = o;
  return single(op, operands, dimsAttr("dimensions", o.getPermutation()));
}

LogicalResult Exporter::exportReducePrecision(ReducePrecisionOp o,
                                              Operands operands) {
  Operation *op = o;
  return single(op, operands,
                ", exponent_bits=" + std::to_string(o.getExponentBits()) +
                    ", mantissa_bits=" + std::to_string(o.getMantissaBits()));
}

LogicalResult Exporter::exportReverse(ReverseOp o, Operands operands) {
  Operation *op = o;
  return single(op, operands, dimsAttr("dimensions", o.getDimensions()));
}

LogicalResult Exporter::exportSlice(SliceOp o, Operands operands) {
  Operation *op = o;
  std::string text = ", slice={";
  for (size_t i = 0; i < o.getStartIndices().size(); ++i)
    text +=
        llvm::formatv("{0}[{1}:{2}:{3}]", i ? ", " : "", o.getStartIndices()[i],
                      o.getLimitIndices()[i], o.getStrides()[i]);
  return single(op, operands, text + "}");
}

LogicalResult Exporter::exportDynamicSlice(DynamicSliceOp o,
                                           Operands operands) {
  Operation *op = o;
  return single(op, operands,
                dimsAttr("dynamic_slice_sizes", o.getSliceSizes()));
}

LogicalResult Exporter::exportConcatenate(ConcatenateOp o, Operands operands) {
  Operation *op = o;
  return single(op, operands,
                ", dimensions={" + std::to_string(o.getDimension()) + "}");
}

LogicalResult Exporter::exportPad(PadOp o, Operands operands) {
  Operation *op = o;
  bool interior =
      llvm::any_of(o.getInteriorPadding(), [](int64_t v) { return v != 0; });
  std::string text = ", padding=";
  for (size_t i = 0; i < o.getEdgePaddingLow().size(); ++i) {
    text += (i ? "x" : "") + std::to_string(o.getEdgePaddingLow()[i]) + "_" +
            std::to_string(o.getEdgePaddingHigh()[i]);
    if (interior)
      text += "_" + std::to_string(o.getInteriorPadding()[i]);
  }
  return single(op, operands, text);
}

LogicalResult Exporter::exportReduce(ReduceOp o, Operands operands) {
  auto resultShape = [&](unsigned i = 0) {
    return shapeOf(o.getOperation()->getResult(i).getType());
  };
  Operation *op = o;
  Type et = cast<RankedTensorType>(o.getOperand().getType()).getElementType();
  std::string init = identityConstant(o.getKind(), et);
  std::string name = add("reduce", resultShape(), {operands[0], init},
                         dimsAttr("dimensions", o.getDimensions()) +
                             ", to_apply=%" + reducer(o.getKind(), et),
                         op);
  bind(o.getResult(), name, resultShape());
  return success();
}

template <typename OpTy>
LogicalResult Exporter::exportArgReduce(OpTy o, Operands operands) {
  Operation *op = o;
  bool isMax = isa<ArgMaxOp>(op);
  auto inType = cast<RankedTensorType>(o.getOperand().getType());
  Type vt = inType.getElementType();
  Type it = cast<RankedTensorType>(o.getIndices().getType()).getElementType();
  std::string iotaShape = shapeOf(inType.clone(it));
  std::string iota =
      add("iota", iotaShape, {},
          ", iota_dimension=" + std::to_string(o.getDimension()));
  std::string initValue = constant(
      reduceIdentity(isMax ? ReduceKind::max : ReduceKind::min, vt), vt);
  std::string initIndex = constant(IntegerAttr::get(it, 0), it);
  std::string shape = tupleShapeOf(op->getResultTypes());
  std::string name =
      add("reduce", shape,
          {operands[0], iotaShape + " %" + iota, initValue, initIndex},
          ", dimensions={" + std::to_string(o.getDimension()) +
              "}, to_apply=%" + argReducer(isMax, vt, it),
          op);
  bindResults(op, name, shape, true);
  return success();
}

LogicalResult Exporter::exportReduceWindow(ReduceWindowOp o,
                                           Operands operands) {
  auto resultShape = [&](unsigned i = 0) {
    return shapeOf(o.getOperation()->getResult(i).getType());
  };
  Operation *op = o;
  Type et = cast<RankedTensorType>(o.getOperand().getType()).getElementType();
  std::string init = identityConstant(o.getKind(), et);
  std::string window =
      windowText(o.getWindowDimensions(), o.getStrides(), o.getPaddingPairs(),
                 o.getBaseDilationsOr1(), o.getWindowDilationsOr1());
  std::string name =
      add("reduce-window", resultShape(), {operands[0], init},
          ", window=" + window + ", to_apply=%" + reducer(o.getKind(), et), op);
  bind(o.getResult(), name, resultShape());
  return success();
}

LogicalResult Exporter::exportWithComputation(Operation *op,
                                              llvm::StringRef opcode,
                                              llvm::StringRef base,
                                              Region &region,
                                              Operands operands,
                                              const std::string &attrs) {
  auto computation = scalarComputation(base, region, op);
  if (failed(computation))
    return failure();
  bool tuple = op->getNumResults() != 1;
  std::string shape = tuple ? tupleShapeOf(op->getResultTypes())
                            : shapeOf(op->getResult(0).getType());
  std::string name =
      add(opcode, shape, operands, attrs + ", to_apply=%" + *computation, op);
  bindResults(op, name, shape, tuple);
  return success();
}

LogicalResult Exporter::exportReduceGeneral(ReduceGeneralOp o,
                                            Operands operands) {
  return exportWithComputation(o, "reduce", "reducer", o.getBody(), operands,
                               dimsAttr("dimensions", o.getDimensions()));
}

LogicalResult Exporter::exportReduceWindowGeneral(ReduceWindowGeneralOp o,
                                                  Operands operands) {
  std::string window =
      windowText(o.getWindowDimensions(), o.getStrides(), o.getPaddingPairs(),
                 o.getBaseDilationsOr1(), o.getWindowDilationsOr1());
  return exportWithComputation(o, "reduce-window", "reducer", o.getBody(),
                               operands, ", window=" + window);
}

LogicalResult Exporter::exportDot(DotGeneralOp o, Operands operands) {
  Operation *op = o;
  std::string attrs;
  if (!o.getLhsBatchingDimensions().empty() ||
      !o.getRhsBatchingDimensions().empty())
    attrs += dimsAttr("lhs_batch_dims", o.getLhsBatchingDimensions());
  attrs += dimsAttr("lhs_contracting_dims", o.getLhsContractingDimensions());
  if (!o.getLhsBatchingDimensions().empty() ||
      !o.getRhsBatchingDimensions().empty())
    attrs += dimsAttr("rhs_batch_dims", o.getRhsBatchingDimensions());
  attrs += dimsAttr("rhs_contracting_dims", o.getRhsContractingDimensions());
  return single(op, operands, attrs);
}

LogicalResult Exporter::exportConvolution(ConvolutionOp o, Operands operands) {
  Operation *op = o;
  ConvDimensionNumbersAttr d = o.getDimensionNumbers();
  auto rhsType = cast<RankedTensorType>(o.getRhs().getType());
  llvm::SmallVector<int64_t> size;
  for (int64_t dim : d.getKernelSpatialDimensions())
    size.push_back(rhsType.getDimSize(dim));
  auto labels = [](int64_t rank, int64_t a, int64_t b, char ca, char cb,
                   llvm::ArrayRef<int64_t> spatial) {
    std::string s(rank, '?');
    if (a >= 0 && a < rank)
      s[a] = ca;
    if (b >= 0 && b < rank)
      s[b] = cb;
    for (auto [i, p] : llvm::enumerate(spatial))
      if (p >= 0 && p < rank)
        s[p] = static_cast<char>('0' + i);
    return s;
  };
  int64_t rank = rhsType.getRank();
  std::string attrs;
  if (!size.empty())
    attrs +=
        ", window=" + windowText(size, o.getStrides(), o.getPaddingPairs(),
                                 o.getLhsDilationOr1(), o.getRhsDilationOr1());
  attrs +=
      ", dim_labels=" +
      labels(rank, d.getInputBatchDimension(), d.getInputFeatureDimension(),
             'b', 'f', d.getInputSpatialDimensions()) +
      "_" +
      labels(rank, d.getKernelInputFeatureDimension(),
             d.getKernelOutputFeatureDimension(), 'i', 'o',
             d.getKernelSpatialDimensions()) +
      "->" +
      labels(rank, d.getOutputBatchDimension(), d.getOutputFeatureDimension(),
             'b', 'f', d.getOutputSpatialDimensions());
  if (o.getFeatureGroupCount() != 1)
    attrs +=
        ", feature_group_count=" + std::to_string(o.getFeatureGroupCount());
  if (o.getBatchGroupCount() != 1)
    attrs += ", batch_group_count=" + std::to_string(o.getBatchGroupCount());
  return single(op, operands, attrs);
}

LogicalResult Exporter::exportGather(GatherOp o, Operands operands) {
  Operation *op = o;
  std::string attrs =
      dimsAttr("offset_dims", o.getOffsetDims()) +
      dimsAttr("collapsed_slice_dims", o.getCollapsedSliceDims()) +
      dimsAttr("start_index_map", o.getStartIndexMap()) +
      ", index_vector_dim=" + std::to_string(o.getIndexVectorDim()) +
      dimsAttr("slice_sizes", o.getSliceSizes());
  if (o.getIndicesAreSorted())
    attrs += ", indices_are_sorted=true";
  return single(op, operands, attrs);
}

LogicalResult Exporter::exportScatter(ScatterOp o, Operands operands) {
  Operation *op = o;
  Type et = cast<RankedTensorType>(o.getOperand().getType()).getElementType();
  std::string apply;
  switch (o.getKind()) {
  case ScatterKind::replace:
    apply = replaceReducer(et);
    break;
  case ScatterKind::sum:
    apply = reducer(ReduceKind::sum, et);
    break;
  case ScatterKind::product:
    apply = reducer(ReduceKind::product, et);
    break;
  case ScatterKind::max:
    apply = reducer(ReduceKind::max, et);
    break;
  case ScatterKind::min:
    apply = reducer(ReduceKind::min, et);
    break;
  }
  std::string attrs =
      dimsAttr("update_window_dims", o.getUpdateWindowDims()) +
      dimsAttr("inserted_window_dims", o.getInsertedWindowDims()) +
      dimsAttr("scatter_dims_to_operand_dims",
               o.getScatterDimsToOperandDims()) +
      ", index_vector_dim=" + std::to_string(o.getIndexVectorDim());
  if (o.getIndicesAreSorted())
    attrs += ", indices_are_sorted=true";
  if (o.getUniqueIndices())
    attrs += ", unique_indices=true";
  return single(op, operands, attrs + ", to_apply=%" + apply);
}

LogicalResult Exporter::exportIf(IfOp o, Operands operands) {
  Operation *op = o;
  return exportConditional(op, o.getPred(), op->getRegions());
}

LogicalResult Exporter::exportCase(CaseOp o, Operands operands) {
  Operation *op = o;
  return exportConditional(op, o.getIndex(), op->getRegions());
}

LogicalResult Exporter::exportCall(CallOp o, Operands operands) {
  auto resultShape = [&](unsigned i = 0) {
    return shapeOf(o.getOperation()->getResult(i).getType());
  };
  Operation *op = o;
  auto fn = module_.lookupSymbol<func::FuncOp>(o.getCallee());
  if (!fn) {
    o.emitError() << "HLO export: no function @" << o.getCallee();
    return failure();
  }
  if (auto it = functions_.find(fn.getSymName());
      it != functions_.end() && it->second.first.empty()) {
    o.emitError() << "HLO export: @" << fn.getSymName()
                  << " calls itself; HLO has no recursion";
    return failure();
  }
  Comp *saved = comp_;
  bool tuple = false;
  auto name = exportFunction(fn, false, &tuple);
  comp_ = saved;
  if (failed(name))
    return failure();
  std::string shape =
      tuple ? tupleShapeOf(op->getResultTypes()) : resultShape();
  std::string call = add("call", shape, operands, ", to_apply=%" + *name, op);
  bindResults(op, call, shape, tuple);
  return success();
}

LogicalResult Exporter::exportRngBitGenerator(RngBitGeneratorOp o,
                                              Operands operands) {
  Operation *op = o;
  // HLO's state and bits are unsigned: bit-preserving converts.
  Type stateType = o.getInitialState().getType();
  std::string ustate = shapeOf(stateType, true, true);
  std::string state = ustate == shapeOf(stateType)
                          ? operands[0].substr(operands[0].rfind('%') + 1)
                          : add("convert", ustate, {operands[0]});
  std::string bitsShape = shapeOf(o.getOutput().getType(), true, true);
  std::string shape = "(" + shapeOf(o.getOutputState().getType(), true, true) +
                      ", " + bitsShape + ")";
  const char *algorithm =
      o.getRngAlgorithm() == RngAlgorithm::THREE_FRY ? "rng_three_fry"
      : o.getRngAlgorithm() == RngAlgorithm::PHILOX  ? "rng_philox"
                                                     : "rng_default";
  std::string rng = add("rng-bit-generator", shape, {ustate + " %" + state},
                        std::string(", algorithm=") + algorithm, op);
  for (unsigned i = 0; i < 2; ++i) {
    Value r = op->getResult(i);
    if (llvm::none_of(r.getUsers(),
                      [&](Operation *u) { return !dead_.contains(u); }))
      continue;
    std::string us = shapeOf(r.getType(), true, true);
    std::string gte = add("get-tuple-element", us, {shape + " %" + rng},
                          ", index=" + std::to_string(i));
    std::string s = shapeOf(r.getType());
    bind(r, s == us ? gte : add("convert", s, {us + " %" + gte}), s);
  }
  return success();
}

template <typename OpTy>
LogicalResult Exporter::exportProcessId(OpTy o, Operands operands) {
  Operation *idOp = o;
  auto resultShape = [&](unsigned i = 0) {
    return shapeOf(idOp->getResult(i).getType());
  };
  std::string us = shapeOf(idOp->getResult(0).getType(), true, true);
  std::string id = add(hloOpcode(idOp->getName()), us, {}, "", idOp);
  bind(idOp->getResult(0),
       us == resultShape() ? id
                           : add("convert", resultShape(), {us + " %" + id}),
       resultShape());
  return success();
}

LogicalResult Exporter::exportAllReduce(AllReduceOp o, Operands operands) {
  Operation *op = o;
  auto mode = collectiveMode(op, o.getReplicaGroupsAttr(), true);
  if (failed(mode))
    return failure();
  return single(op, operands,
                *mode + ", to_apply=%" +
                    reducer(o.getKind(), o.getType().getElementType()));
}

LogicalResult Exporter::exportAllGather(AllGatherOp o, Operands operands) {
  Operation *op = o;
  auto mode = collectiveMode(op, o.getReplicaGroupsAttr(), true);
  if (failed(mode))
    return failure();
  return single(op, operands,
                *mode + ", dimensions={" + std::to_string(o.getAllGatherDim()) +
                    "}");
}

LogicalResult Exporter::exportReduceScatter(ReduceScatterOp o,
                                            Operands operands) {
  Operation *op = o;
  auto mode = collectiveMode(op, o.getReplicaGroupsAttr(), true);
  if (failed(mode))
    return failure();
  return single(op, operands,
                *mode + ", dimensions={" +
                    std::to_string(o.getScatterDimension()) + "}, to_apply=%" +
                    reducer(o.getKind(), o.getType().getElementType()));
}

LogicalResult Exporter::exportShardingConstraint(ShardingConstraintOp o,
                                                 Operands operands) {
  auto resultShape = [&](unsigned i = 0) {
    return shapeOf(o.getOperation()->getResult(i).getType());
  };
  Operation *op = o;
  std::string name = add("custom-call", resultShape(), operands,
                         ", custom_call_target=\"Sharding\"", op);
  comp_->lines.back().sharding = o.getSharding().toString();
  bind(o.getResult(), name, resultShape());
  return success();
}

LogicalResult Exporter::exportCollectivePermute(CollectivePermuteOp o,
                                                Operands operands) {
  Operation *op = o;
  std::string pairs = groupsText(o.getSourceTargetPairs());
  if (numPartitions_ == 1)
    return single(op, operands, ", source_target_pairs=" + pairs);
  // Pairs of devices: the same partition pairs in every replica (a
  // channel), or the same replica pairs in every partition.
  std::vector<llvm::SmallVector<int64_t>> list;
  auto values = llvm::to_vector(o.getSourceTargetPairs().getValues<int64_t>());
  for (size_t k = 0; k + 1 < values.size(); k += 2)
    list.push_back({values[k], values[k + 1]});
  if (auto f = factorGroups(list, /*withinReplica=*/true))
    return single(op, operands,
                  llvm::formatv(", channel_id={0}, "
                                "source_target_pairs={1}",
                                ++channel_, *f)
                      .str());
  if (auto f = factorGroups(list, /*withinReplica=*/false))
    return single(op, operands, ", source_target_pairs=" + *f);
  o.emitError() << "HLO export: the pairs of collective_permute mix "
                   "replicas and partitions in a way HLO cannot "
                   "express";
  return failure();
}

FailureOr<std::string> Exporter::scalarComputation(llvm::StringRef base,
                                                   Region &region,
                                                   Operation *op) {
  llvm::SmallVector<Value> params(region.getArguments().begin(),
                                  region.getArguments().end());
  return exportRegion(
      base, region, params,
      [&](ValueRange returned) {
        if (returned.size() > 1) // a variadic reducer's tuple
          return setRoot(returned, true, op);
        if (isa<BlockArgument>(returned[0])) {
          // ROOT parameter(i): HLO needs an instruction of its own.
          auto r = ref(returned[0], op);
          if (failed(r))
            return failure();
          add("copy", shapeOf(returned[0].getType()), {*r});
          comp_->lines.back().root = true;
          return success();
        }
        return setRoot(returned, false, op);
      },
      /*flat=*/true);
}

LogicalResult Exporter::exportSort(SortOp o, Operands operands) {
  return exportWithComputation(
      o, "sort", "compare", o.getComparator(), operands,
      ", dimensions={" + std::to_string(o.getDimension()) + "}" +
          (o.getIsStable() ? ", is_stable=true" : ""));
}

LogicalResult Exporter::exportTopK(TopKOp o, Operands operands) {
  Operation *op = o;
  std::string shape = tupleShapeOf(op->getResultTypes());
  std::string name = add("topk", shape, operands,
                         ", k=" + std::to_string(o.getK()) + ", largest=" +
                             (o.getLargest() ? "true" : "false"),
                         op);
  bindResults(op, name, shape, true);
  return success();
}

LogicalResult Exporter::exportTriangularSolve(TriangularSolveOp o,
                                              Operands operands) {
  Operation *op = o;
  // XLA writes the options that are true, and transpose_a always.
  std::string attrs;
  if (o.getLeftSide())
    attrs += ", left_side=true";
  if (o.getLower())
    attrs += ", lower=true";
  if (o.getUnitDiagonal())
    attrs += ", unit_diagonal=true";
  attrs += ", transpose_a=" + stringifyTransposeKind(o.getTransposeA()).str();
  return single(op, operands, attrs);
}

LogicalResult Exporter::exportFft(FftOp o, Operands operands) {
  Operation *op = o;
  return single(op, operands,
                ", fft_type=" + stringifyFftType(o.getFftType()).str() +
                    dimsAttr("fft_length", o.getFftLength()));
}

LogicalResult Exporter::exportSelectAndScatter(SelectAndScatterOp o,
                                               Operands operands) {
  Operation *op = o;
  auto select = scalarComputation("select", o.getSelect(), op);
  if (failed(select))
    return failure();
  auto scatter = scalarComputation("scatter", o.getScatter(), op);
  if (failed(scatter))
    return failure();
  llvm::SmallVector<int64_t> ones(o.getWindowDimensions().size(), 1);
  std::string shape = shapeOf(o.getType());
  std::string name = add(
      "select-and-scatter", shape, operands,
      ", window=" +
          windowText(o.getWindowDimensions(), o.getStrides(),
                     o.getPaddingPairs(), ones, ones) +
          ", select=%" + *select + ", scatter=%" + *scatter,
      op);
  bind(o.getResult(), name, shape);
  return success();
}

LogicalResult Exporter::exportWhile(WhileOp op, Operands) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  llvm::SmallVector<Value> state(op.getOperand().begin(),
                                 op.getOperand().end());
  state.append(captured.begin(), captured.end());
  llvm::SmallVector<std::string> operands;
  for (Value v : state) {
    auto r = ref(v, op);
    if (failed(r))
      return failure();
    operands.push_back(*r);
  }
  std::string shape = tupleShapeOf(ValueRange(state).getTypes());
  std::string init = add("tuple", shape, operands);
  unsigned n = op.getNumOperands();
  auto paramsOf = [&](Region &region) {
    llvm::SmallVector<Value> params(region.getArguments().begin(),
                                    region.getArguments().end());
    params.append(captured.begin(), captured.end());
    return params;
  };
  auto cond = exportRegion(
      "while_cond", op.getCond(), paramsOf(op.getCond()),
      [&](ValueRange returned) { return setRoot(returned, false, op); });
  if (failed(cond))
    return failure();
  llvm::SmallVector<Value> bodyParams = paramsOf(op.getBody());
  auto body = exportRegion(
      "while_body", op.getBody(), bodyParams, [&](ValueRange returned) {
        // The captured values ride along unchanged.
        llvm::SmallVector<Value> next(returned.begin(), returned.end());
        next.append(bodyParams.begin() + n, bodyParams.end());
        return setRoot(next, true, op);
      });
  if (failed(body))
    return failure();
  std::string loop = add("while", shape, {shape + " %" + init},
                         ", condition=%" + *cond + ", body=%" + *body, op);
  for (auto [i, r] : llvm::enumerate(op.getResults())) {
    if (llvm::none_of(r.getUsers(),
                      [&](Operation *u) { return !dead_.contains(u); }))
      continue;
    std::string s = shapeOf(r.getType());
    bind(r,
         add("get-tuple-element", s, {shape + " %" + loop},
             ", index=" + std::to_string(i)),
         s);
  }
  return success();
}

LogicalResult
Exporter::exportConditional(Operation *op, Value selector,
                            llvm::MutableArrayRef<Region> regions) {
  auto sel = ref(selector, op);
  if (failed(sel))
    return failure();
  bool tuple = op->getNumResults() != 1;
  std::string shape = tuple ? tupleShapeOf(op->getResultTypes())
                            : shapeOf(op->getResult(0).getType());
  llvm::SmallVector<std::string> operands = {*sel};
  llvm::SmallVector<std::string> names;
  for (Region &region : regions) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(region, captured);
    llvm::SmallVector<std::string> elements;
    for (Value v : captured) {
      auto r = ref(v, op);
      if (failed(r))
        return failure();
      elements.push_back(*r);
    }
    llvm::SmallVector<Value> params(captured.begin(), captured.end());
    std::string operandShape = tupleShapeOf(ValueRange(params).getTypes());
    operands.push_back(operandShape + " %" +
                       add("tuple", operandShape, elements));
    auto name = exportRegion(
        isa<IfOp>(op) ? (names.empty() ? "true_branch" : "false_branch")
                      : "branch",
        region, params,
        [&](ValueRange returned) { return setRoot(returned, tuple, op); });
    if (failed(name))
      return failure();
    names.push_back("%" + *name);
  }
  std::string attrs;
  if (isa<IfOp>(op)) {
    attrs =
        ", true_computation=" + names[0] + ", false_computation=" + names[1];
  } else {
    attrs = ", branch_computations={";
    for (auto [i, n] : llvm::enumerate(names))
      attrs += (i ? ", " : "") + n;
    attrs += "}";
  }
  std::string cond = add("conditional", shape, operands, attrs, op);
  bindResults(op, cond, shape, tuple);
  return success();
}

LogicalResult Exporter::exportAllToAll(AllToAllOp op, Operands) {
  auto x = ref(op.getOperand(), op);
  if (failed(x))
    return failure();
  auto mode = collectiveMode(op, op.getReplicaGroupsAttr(), false);
  if (failed(mode))
    return failure();
  int64_t split = op.getSplitDimension(), concat = op.getConcatDimension();
  int64_t count = op.getSplitCount();
  if (numPartitions_ == 1 && !op.getReplicaGroupsAttr() &&
      !module_->hasAttr(kNumReplicasAttrName) && count > 0 && count <= (1 << 16))
    // All replicas, which the split count says are `count`: HLO needs
    // replica_count to know that, so the group is written out.
    *mode = ", replica_groups={{" +
            joinInts(llvm::to_vector(llvm::seq<int64_t>(0, count))) + "}}";
  if (split == concat) {
    std::string s = shapeOf(op.getType());
    bind(op.getResult(),
         add("all-to-all", s, {*x},
             *mode + ", dimensions={" + std::to_string(split) + "}", op),
         s);
    return success();
  }
  // HLO's array all-to-all splits and concatenates along one dimension:
  // bring the `count` blocks of `split` to a leading dimension, exchange
  // along it, then move the received blocks in front of `concat` and merge.
  auto in = cast<RankedTensorType>(op.getOperand().getType());
  llvm::ArrayRef<int64_t> s = in.getShape();
  int64_t rank = in.getRank();
  if (count <= 0 || split < 0 || split >= rank || concat < 0 ||
      concat >= rank || s[split] % count != 0) {
    op.emitError() << "HLO export: invalid all_to_all";
    return failure();
  }
  Type et = in.getElementType();
  // [.., s[split], ..] -> [.., count, s[split]/count, ..]
  llvm::SmallVector<int64_t> expanded;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == split) {
      expanded.push_back(count);
      expanded.push_back(s[d] / count);
    } else {
      expanded.push_back(s[d]);
    }
  }
  auto typeOf = [&](llvm::ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, et);
  };
  std::string t1 = shapeOf(typeOf(expanded));
  std::string r1 = add("reshape", t1, {*x}, "", op);
  // Move the count dimension (at `split`) to the front.
  llvm::SmallVector<int64_t> perm = {split};
  for (int64_t d = 0; d < rank + 1; ++d)
    if (d != split)
      perm.push_back(d);
  llvm::SmallVector<int64_t> front;
  for (int64_t p : perm)
    front.push_back(expanded[p]);
  std::string t2 = shapeOf(typeOf(front));
  std::string r2 =
      add("transpose", t2, {t1 + " %" + r1}, dimsAttr("dimensions", perm), op);
  std::string r3 =
      add("all-to-all", t2, {t2 + " %" + r2}, *mode + ", dimensions={0}", op);
  // front = [count, rest...] where rest is the operand's shape with
  // s[split]/count. Move the count dimension just before `concat`.
  llvm::SmallVector<int64_t> rest(front.begin() + 1, front.end());
  llvm::SmallVector<int64_t> perm2;
  llvm::SmallVector<int64_t> back;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == concat) {
      perm2.push_back(0);
      back.push_back(count);
    }
    perm2.push_back(d + 1);
    back.push_back(rest[d]);
  }
  std::string t4 = shapeOf(typeOf(back));
  std::string r4 =
      add("transpose", t4, {t2 + " %" + r3}, dimsAttr("dimensions", perm2), op);
  std::string t5 = shapeOf(op.getType());
  bind(op.getResult(), add("reshape", t5, {t4 + " %" + r4}, "", op), t5);
  return success();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

LogicalResult Exporter::run(llvm::raw_ostream &os) {
  func::FuncOp entry;
  for (auto fn : module_.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (entry) {
      fn.emitError() << "HLO export: the module has more than one public "
                        "function (@"
                     << entry.getSymName() << " and @" << fn.getSymName()
                     << "); HLO has one ENTRY";
      return failure();
    }
    entry = fn;
  }
  if (!entry) {
    module_.emitError() << "HLO export: the module has no public function";
    return failure();
  }
  for (auto [name, slot] : {std::pair{kNumReplicasAttrName, &numReplicas_},
                            std::pair{kNumPartitionsAttrName, &numPartitions_}}) {
    auto attr = module_->getAttrOfType<IntegerAttr>(name);
    if (!attr)
      continue;
    if (attr.getInt() < 1 || attr.getInt() > (1 << 16)) {
      module_.emitError() << "HLO export: " << name
                          << " must be between 1 and 65536, not "
                          << attr.getInt();
      return failure();
    }
    *slot = attr.getInt();
  }
  for (auto fn : module_.getOps<func::FuncOp>())
    collectDead(fn.getBody(), dead_);
  std::string moduleName = sanitize(module_.getSymName() ? *module_.getSymName()
                                                         : entry.getSymName());
  auto name = exportFunction(entry, /*isEntry=*/true);
  if (failed(name))
    return failure();

  std::string params;
  for (auto [i, t] : llvm::enumerate(entry.getArgumentTypes()))
    params += (i ? ", " : "") + shapeOf(t);
  std::string result = entry.getNumResults() == 1
                           ? shapeOf(entry.getResultTypes()[0])
                           : tupleShapeOf(entry.getResultTypes());
  os << "HloModule " << moduleName << ", entry_computation_layout={(" << params
     << ")->" << result << "}";
  if (module_->hasAttr(kNumReplicasAttrName))
    os << ", replica_count=" << numReplicas_;
  if (module_->hasAttr(kNumPartitionsAttrName))
    os << ", num_partitions=" << numPartitions_;
  os << "\n";
  for (const std::string &comp : computations_)
    os << "\n" << comp;
  return success();
}

} // namespace

LogicalResult exportHloText(ModuleOp module, llvm::raw_ostream &os,
                            const HloExportOptions &options) {
  Exporter exporter(module, options);
  std::string text;
  llvm::raw_string_ostream buffer(text);
  if (failed(exporter.run(buffer)))
    return failure();
  os << text;
  return success();
}

} // namespace mlir::torus::hlo
