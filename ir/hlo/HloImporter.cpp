//===- HloImporter.cpp - XLA HLO text to the torus dialect ----------------===//
//
// HloParser reads the text into a syntax tree; this file turns the tree into
// torus ops. Each computation is emitted where it is needed: the ENTRY one as
// the public function, `call`ed ones as private functions, while/conditional
// bodies into the regions of torus.while/if/case, fusions inline. Within a
// computation, instructions are emitted operands first (HLO allows any
// order), iteratively so that long chains cannot exhaust the stack.
//
// Each instruction goes to the handler its opcode has in opcodeTable(), or,
// without one, to the generic path: the torus op whose HloOpInterface names
// the opcode, if it has no attributes and one result, is created from the
// instruction's operands and result type. So an attribute-free op needs
// nothing here beyond `HloOpcode<"...">` in ODS. The handlers live in one
// file per opcode family (Importer.h lists them).
//
// An HLO value is a tree of tuples whose leaves are arrays; here it is the
// list of its leaves plus its HLO shape (HloValue). `tuple` and
// `get-tuple-element` only regroup leaves and emit nothing.
//
// Signed integers become MLIR's signless integers and unsigned ones its
// unsigned integers (`ui32`): each op's semantics reads the sign from its
// types, as HLO's do.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/TorusOps.h"
#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloImport.h"
#include "ir/hlo/HloOpInfo.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/HloSharding.h"
#include "ir/hlo/Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

#include <complex>
#include <functional>

namespace mlir::torus::hlo {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

namespace {

Type elementType(MLIRContext *ctx, PrimitiveType type) {
  switch (type) {
  case PrimitiveType::F16:
    return Float16Type::get(ctx);
  case PrimitiveType::BF16:
    return BFloat16Type::get(ctx);
  case PrimitiveType::F8E4M3FN:
    return Float8E4M3FNType::get(ctx);
  case PrimitiveType::F8E5M2:
    return Float8E5M2Type::get(ctx);
  case PrimitiveType::F32:
    return Float32Type::get(ctx);
  case PrimitiveType::F64:
    return Float64Type::get(ctx);
  case PrimitiveType::C64:
    return ComplexType::get(Float32Type::get(ctx));
  case PrimitiveType::C128:
    return ComplexType::get(Float64Type::get(ctx));
  default:
    return IntegerType::get(ctx, bitWidth(type),
                            isUnsigned(type) ? IntegerType::Unsigned
                                             : IntegerType::Signless);
  }
}

} // namespace

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

//===----------------------------------------------------------------------===//
// The opcode table
//===----------------------------------------------------------------------===//

namespace {

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

} // namespace

const llvm::StringMap<Importer::OpcodeEntry> &Importer::opcodeTable() {
  static const llvm::StringMap<OpcodeEntry> table = [] {
    llvm::StringMap<OpcodeEntry> t;
    auto add = [&](llvm::StringRef opcode, Handler handler,
                   std::vector<llvm::StringRef> attrs = {}) {
      t[opcode] = {handler, std::move(attrs)};
    };
    // Values and tuples (ImportValueOps.cpp).
    add("parameter", &Importer::emitParameter, {"parameter_replication"});
    add("constant", &Importer::emitConstant);
    add("tuple", &Importer::emitTuple);
    add("get-tuple-element", &Importer::emitGetTupleElement, {"index"});
    add("copy", &Importer::emitCopy);
    add("opt-barrier", &Importer::emitCopy);
    add("custom-call", &Importer::emitCustomCall,
        {"custom_call_target", "api_version", "custom_call_has_side_effect",
         "called_computations", "output_to_operand_aliasing",
         "operand_layout_constraints"});
    // Elementwise (ImportElementwiseOps.cpp); the attribute-free ones are
    // generic.
    add("convert", &Importer::emitConvert);
    add("compare", &Importer::emitCompare, {"direction", "type"});
    add("reduce-precision", &Importer::emitReducePrecision,
        {"exponent_bits", "mantissa_bits"});
    add("bitcast-convert", &Importer::emitBitcastConvert);
    // Shapes (ImportShapeOps.cpp). reshape is generic; XLA may write its
    // inferred_dimension, which the result shape already says.
    add("reshape", nullptr, {"inferred_dimension"});
    add("iota", &Importer::emitIota, {"iota_dimension"});
    add("broadcast", &Importer::emitBroadcast, {"dimensions"});
    add("transpose", &Importer::emitTranspose, {"dimensions"});
    add("reverse", &Importer::emitReverse, {"dimensions"});
    add("bitcast", &Importer::emitBitcast);
    add("slice", &Importer::emitSlice, {"slice"});
    add("dynamic-slice", &Importer::emitDynamicSlice, {"dynamic_slice_sizes"});
    add("dynamic-update-slice", &Importer::emitDynamicUpdateSlice);
    add("concatenate", &Importer::emitConcatenate, {"dimensions"});
    add("pad", &Importer::emitPad, {"padding"});
    // Reductions (ImportReductionOps.cpp).
    add("reduce", &Importer::emitReduce, {"dimensions", "to_apply"});
    add("reduce-window", &Importer::emitReduceWindow, {"window", "to_apply"});
    // Sorting and selection (ImportSortOps.cpp).
    add("sort", &Importer::emitSort, {"dimensions", "is_stable", "to_apply"});
    add("topk", &Importer::emitTopK, {"k", "largest"});
    add("select-and-scatter", &Importer::emitSelectAndScatter,
        {"window", "select", "scatter"});
    // Linear algebra (ImportLinearAlgebraOps.cpp).
    add("triangular-solve", &Importer::emitTriangularSolve,
        {"left_side", "lower", "unit_diagonal", "transpose_a"});
    add("fft", &Importer::emitFft, {"fft_type", "fft_length"});
    // Contractions (ImportContractionOps.cpp).
    add("dot", &Importer::emitDot,
        {"lhs_batch_dims", "rhs_batch_dims", "lhs_contracting_dims",
         "rhs_contracting_dims", "algorithm"});
    add("convolution", &Importer::emitConvolution,
        {"window", "dim_labels", "feature_group_count", "batch_group_count"});
    // Indexing (ImportIndexingOps.cpp).
    add("gather", &Importer::emitGather,
        {"offset_dims", "collapsed_slice_dims", "start_index_map",
         "index_vector_dim", "slice_sizes", "indices_are_sorted",
         "operand_batching_dims", "start_indices_batching_dims"});
    add("scatter", &Importer::emitScatter,
        {"update_window_dims", "inserted_window_dims",
         "scatter_dims_to_operand_dims", "index_vector_dim",
         "indices_are_sorted", "unique_indices", "input_batching_dims",
         "scatter_indices_batching_dims", "to_apply"});
    // Control flow (ImportControlFlowOps.cpp).
    add("call", &Importer::emitCall, {"to_apply", "is_composite"});
    add("fusion", &Importer::emitFusion,
        {"kind", "calls", "output_to_operand_aliasing"});
    add("while", &Importer::emitWhile,
        {"condition", "body", "known_trip_count"});
    add("conditional", &Importer::emitConditional,
        {"true_computation", "false_computation", "branch_computations"});
    // Collectives and random bits (ImportCollectiveOps.cpp).
    add("all-reduce", &Importer::emitCollective,
        {"replica_groups", "channel_id", "use_global_device_ids", "to_apply",
         "constrain_layout"});
    add("all-gather", &Importer::emitCollective,
        {"replica_groups", "channel_id", "use_global_device_ids", "dimensions",
         "constrain_layout"});
    add("reduce-scatter", &Importer::emitCollective,
        {"replica_groups", "channel_id", "use_global_device_ids", "dimensions",
         "to_apply", "constrain_layout"});
    add("all-to-all", &Importer::emitCollective,
        {"replica_groups", "channel_id", "dimensions", "constrain_layout"});
    add("collective-permute", &Importer::emitCollectivePermute,
        {"source_target_pairs", "channel_id"});
    add("rng-bit-generator", &Importer::emitRngBitGenerator, {"algorithm"});
    add("replica-id", &Importer::emitDeviceId);
    add("partition-id", &Importer::emitDeviceId);
    return t;
  }();
  return table;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Importer::Importer(const Module &module, const SourceLocator &locator,
                   ModuleOp out, const HloImportOptions &options)
    : ast_(module), locator_(locator), ctx_(locator.context()), b_(ctx_),
      module_(out), options_(options) {
  for (RegisteredOperationName name : ctx_->getRegisteredOperations())
    if (llvm::StringRef opcode = hloOpcode(name); !opcode.empty())
      hloOps_[opcode].push_back(name);
}

InFlightDiagnostic Importer::error(llvm::SMLoc loc) {
  InFlightDiagnostic diag = locator_.error(loc);
  const Instruction *from = nullptr;
  std::optional<Location> source;
  for (const Instruction *instr : llvm::reverse(active_))
    if ((source = sourceLoc(*instr))) {
      from = instr;
      break;
    }
  if (!from)
    return diag;
  Metadata md;
  {
    ScopedDiagnosticHandler quiet(ctx_, [](Diagnostic &) { return success(); });
    (void)AttrParser(*from->attr("metadata"), locator_).metadata(md);
  }
  // The note's location gives the innermost file:line:col; the text names
  // the op and the calls that led there.
  Diagnostic &note = diag.attachNote(*source);
  note << "'" << from->name << "' comes from";
  if (!md.opName.empty())
    note << " '" << md.opName << "'";
  if (md.stackFrameId && ast_.stackFrames.frames.count(md.stackFrameId))
    note << " " << frameText(md.stackFrameId);
  return diag;
}

std::string Importer::frameText(int64_t id) {
  const StackFrameTables &t = ast_.stackFrames;
  std::string text;
  llvm::SmallPtrSet<const StackFrameTables::Frame *, 8> seen;
  for (auto it = t.frames.find(id); it != t.frames.end();
       it = t.frames.find(it->second.parent)) {
    if (!seen.insert(&it->second).second)
      break;
    const StackFrameTables::FileLocation &l =
        t.fileLocations.at(it->second.fileLocation);
    if (!text.empty())
      text += ", called from " + t.fileNames.at(l.fileName) + ":" +
              std::to_string(l.line) + ":" + std::to_string(l.column) + " ";
    text += "in " + t.functionNames.at(l.functionName);
    if (it->second.parent == 0)
      break;
  }
  return text;
}

std::optional<Location> Importer::frameLoc(int64_t id) {
  const StackFrameTables &t = ast_.stackFrames;
  if (auto it = frameLocs_.find(id); it != frameLocs_.end())
    return it->second;
  // The frame and its callers, innermost first; a cycle ends the chain.
  llvm::SmallVector<Location> chain;
  llvm::SmallPtrSet<const StackFrameTables::Frame *, 8> seen;
  for (auto it = t.frames.find(id); it != t.frames.end();
       it = t.frames.find(it->second.parent)) {
    if (!seen.insert(&it->second).second)
      break;
    const StackFrameTables::FileLocation &l =
        t.fileLocations.at(it->second.fileLocation);
    chain.push_back(FileLineColLoc::get(
        ctx_, t.fileNames.at(l.fileName), static_cast<unsigned>(l.line),
        static_cast<unsigned>(l.column)));
    if (it->second.parent == 0)
      break;
  }
  if (chain.empty())
    return std::nullopt;
  Location loc = chain.back();
  for (Location callee : llvm::reverse(llvm::ArrayRef(chain).drop_back()))
    loc = CallSiteLoc::get(callee, loc);
  frameLocs_.try_emplace(id, loc);
  return loc;
}

std::optional<Location> Importer::sourceLoc(const Instruction &instr) {
  const Attr *meta = instr.attr("metadata");
  if (!meta)
    return std::nullopt;
  Metadata md;
  {
    // Malformed metadata is reported by emitInstruction; here it is only
    // read.
    ScopedDiagnosticHandler quiet(ctx_, [](Diagnostic &) { return success(); });
    if (failed(AttrParser(*meta, locator_).metadata(md)))
      return std::nullopt;
  }
  std::optional<Location> source;
  if (md.stackFrameId)
    source = frameLoc(md.stackFrameId);
  if (!source && !md.sourceFile.empty())
    source = FileLineColLoc::get(ctx_, md.sourceFile,
                                 static_cast<unsigned>(md.sourceLine),
                                 static_cast<unsigned>(md.sourceColumn));
  if (!md.opName.empty())
    source = NameLoc::get(StringAttr::get(ctx_, md.opName),
                          source ? *source : UnknownLoc::get(ctx_));
  return source;
}

Location Importer::opLoc(const Instruction &instr) {
  Location hloLoc = locator_.location(instr.opcodeLoc);
  // Tagged even without metadata, so that the exporter knows the position
  // is the HLO text's, not a source location to write out.
  auto tag = StringAttr::get(ctx_, kHloLocationTag);
  std::optional<Location> source = sourceLoc(instr);
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

FailureOr<Value> Importer::array(const Instruction &instr, Operands operands,
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

FailureOr<Importer::Arrays>
Importer::arrays(const Instruction &instr, Operands operands, size_t n) {
  auto type = resultType(instr);
  if (failed(type) || failed(checkOperandCount(instr, n, operands.size())))
    return failure();
  Arrays in{*type, {}};
  for (size_t i = 0; i < n; ++i) {
    auto v = array(instr, operands, i);
    if (failed(v))
      return failure();
    in.values.push_back(*v);
  }
  return in;
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


FailureOr<llvm::SmallVector<llvm::StringRef>>
Importer::reducerOpcodes(const Instruction &instr, unsigned n,
                         bool replaceAllowed,
                         llvm::ArrayRef<PrimitiveType> accumulators) {
  const Attr *apply = requireAttr(instr, "to_apply");
  if (!apply)
    return failure();
  const Computation *comp = computationRef(*apply);
  if (!comp)
    return failure();
  if (!accumulators.empty() &&
      failed(checkReducerParameters(instr, *apply, *comp, accumulators)))
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
        haveNumPartitions_ = true;
      }
      continue;
    }
    if (!ignored.contains(attr.name)) {
      error(attr.nameLoc) << "unsupported HloModule attribute '" << attr.name
                          << "'";
      return failure();
    }
  }
  if (failed(readDeviceCounts()))
    return failure();
  perDevice_ = isPerDeviceProgram();
  if (perDevice_ && hasManualComputation() && failed(checkManualAxes()))
    return failure();
  if (perDevice_) {
    // Every device runs the program as it is: one replica per device.
    module_->setAttr(kNumReplicasAttrName,
                     b_.getI64IntegerAttr(replicaCount_ * numPartitions_));
    module_->setAttr(kNumPartitionsAttrName, b_.getI64IntegerAttr(1));
  } else {
    if (haveReplicaCount_ || replicaCount_ > 1)
      module_->setAttr(kNumReplicasAttrName,
                       b_.getI64IntegerAttr(replicaCount_));
    if (haveNumPartitions_ || numPartitions_ > 1)
      module_->setAttr(kNumPartitionsAttrName,
                       b_.getI64IntegerAttr(numPartitions_));
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
  // A per-device program's parameters that enter a manual computation are
  // given as each device's shard.
  llvm::DenseMap<int64_t, llvm::SmallVector<const Shape *>> shards;
  if (isEntry && perDevice_)
    shards = parameterShards();
  for (auto [n, p] : llvm::enumerate(params)) {
    llvm::SmallVector<const Shape *> leaves;
    p->shape.leaves(leaves);
    if (auto it = shards.find(n); it != shards.end())
      leaves = it->second;
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
  // attributes; in a program made per device from a manual computation,
  // the global arrays' types and shardings.
  if (isEntry && perDevice_ && hasManualComputation() &&
      failed(setGlobalArrays(fn, params, shards, rootInstr)))
    return failure();
  size_t arg = 0;
  for (const Instruction *p : params) {
    size_t count = p->shape.numLeaves();
    if (const Attr *attr = p->attr("sharding"); attr && !perDevice_) {
      auto shardings = leafShardings(*attr, count);
      if (failed(shardings))
        return failure();
      for (size_t k = 0; k < count; ++k)
        fn.setArgAttr(arg + k, kShardingAttrName, (*shardings)[k]);
    }
    arg += count;
  }
  if (const Attr *attr = rootInstr.attr("sharding"); attr && !perDevice_) {
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

LogicalResult Importer::setGlobalArrays(
    func::FuncOp fn, llvm::ArrayRef<const Instruction *> params,
    const llvm::DenseMap<int64_t, llvm::SmallVector<const Shape *>> &shards,
    const Instruction &root) {
  // Each leaf whose global shape and sharding the program states.
  auto set = [&](const Instruction &instr,
                 auto setAttr) -> LogicalResult {
    const Attr *attr = instr.attr("sharding");
    if (!attr)
      return success();
    llvm::SmallVector<const Shape *> leaves;
    instr.shape.leaves(leaves);
    auto shardings = leafShardings(*attr, leaves.size());
    if (failed(shardings))
      return failure();
    for (auto [k, leaf] : llvm::enumerate(leaves)) {
      setAttr(k, kGlobalTypeAttrName, TypeAttr::get(tensorType(ctx_, *leaf)));
      setAttr(k, kGlobalShardingAttrName, (*shardings)[k]);
    }
    return success();
  };
  size_t arg = 0;
  for (auto [n, p] : llvm::enumerate(params)) {
    size_t count = p->shape.numLeaves();
    if (shards.count(n) &&
        failed(set(*p, [&](size_t k, llvm::StringRef name, Attribute value) {
          fn.setArgAttr(arg + k, name, value);
        })))
      return failure();
    arg += count;
  }
  if (root.shape.numLeaves() != fn.getNumResults())
    return success();
  return set(root, [&](size_t k, llvm::StringRef name, Attribute value) {
    fn.setResultAttr(k, name, value);
  });
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
  active_.push_back(&instr);
  auto popActive = llvm::make_scope_exit([&] { active_.pop_back(); });
  auto known = opcodeTable().find(instr.opcode);
  bool inTable = known != opcodeTable().end();
  if (!inTable && !genericOp(instr.opcode)) {
    error(instr.opcodeLoc) << "unsupported HLO opcode '" << instr.opcode << "'";
    return failure();
  }
  for (const Attr &attr : instr.attrs) {
    if (commonAttrs().contains(attr.name) ||
        (inTable && llvm::is_contained(known->second.attrs, attr.name)))
      continue;
    error(attr.nameLoc) << "unsupported attribute '" << attr.name << "' of '"
                        << instr.opcode << "'";
    return failure();
  }
  if (const Attr *meta = instr.attr("metadata")) {
    Metadata md;
    if (failed(AttrParser(*meta, locator_).metadata(md)))
      return failure();
    // Without the tables (HLO text printed without them) the id names
    // nothing and is ignored; with them it must name a frame.
    if (md.stackFrameId && !ast_.stackFrames.empty() &&
        !ast_.stackFrames.frames.count(md.stackFrameId)) {
      locator_.error(llvm::SMLoc::getFromPointer(md.stackFrameIdAt))
          << "stack_frame_id " << md.stackFrameId
          << " is not in the module's StackFrames table";
      return failure();
    }
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
  scope_ = &scope;
  if (failed(emitOp(instr, operands, result)))
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
  // A per-device program's shardings describe the program XLA partitioned.
  if (!attr || perDevice_)
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
// Dispatch and the generic path
//===----------------------------------------------------------------------===//

LogicalResult Importer::emitOp(const Instruction &instr, Operands operands,
                               HloValue &result) {
  auto entry = opcodeTable().find(instr.opcode);
  if (entry != opcodeTable().end() && entry->second.handler)
    return (this->*entry->second.handler)(instr, operands, result);
  if (std::optional<RegisteredOperationName> name = genericOp(instr.opcode))
    return emitGeneric(*name, instr, operands, result);
  error(instr.opcodeLoc) << "unsupported HLO opcode '" << instr.opcode << "'";
  return failure();
}

std::optional<RegisteredOperationName>
Importer::genericOp(llvm::StringRef opcode) {
  auto it = hloOps_.find(opcode);
  if (it == hloOps_.end() || it->second.size() != 1 ||
      !isGenericHloOp(it->second.front()))
    return std::nullopt;
  return it->second.front();
}

LogicalResult Importer::emitGeneric(RegisteredOperationName name,
                                    const Instruction &instr, Operands operands,
                                    HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  if (std::optional<unsigned> count = fixedOperandCount(name);
      count && failed(checkOperandCount(instr, *count, operands.size())))
    return failure();
  llvm::SmallVector<Value> values;
  bool ok = true;
  for (size_t i = 0; i < operands.size(); ++i) {
    auto v = array(instr, operands, i);
    ok &= succeeded(v);
    if (succeeded(v))
      values.push_back(*v);
  }
  if (!ok)
    return failure();
  OperationState state(opLoc(instr), name);
  state.addOperands(values);
  state.addTypes(*type);
  result.leaves.push_back(b_.create(state)->getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

namespace {

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

} // namespace

LogicalResult Importer::run() {
  module_.setSymName(ast_.name);
  if (failed(checkHeader()) || failed(checkComputations()))
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

OwningOpRef<ModuleOp> importHloText(const llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context,
                                    const HloImportOptions &options) {
  SourceLocator locator(sourceMgr, context);
  Module ast;
  if (failed(parseHloModule(sourceMgr, locator, ast)))
    return nullptr;
  OwningOpRef<ModuleOp> module = ModuleOp::create(locator.location(ast.loc));
  Importer importer(ast, locator, *module, options);
  if (failed(importer.run()))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> importHloText(llvm::StringRef text,
                                    llvm::StringRef bufferName,
                                    MLIRContext *context,
                                    const HloImportOptions &options) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  return importHloText(sourceMgr, context, options);
}

} // namespace mlir::torus::hlo
