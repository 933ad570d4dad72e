//===- Importer.h - The HLO importer, shared by its files -------*- C++ -*-===//
//
// Private to ir/hlo. HloImporter.cpp holds the importer's core: modules,
// computations, instructions, the opcode table that dispatches each
// instruction to its handler, and the generic path that imports any op
// HloOpInterface names (docs/hlo.md). The handlers live in one file per
// opcode family, as ir/ops/ splits the ops:
//
//   ImportValueOps.cpp        parameter constant tuple get-tuple-element
//                             copy opt-barrier
//   ImportCustomCalls.cpp     custom-call, by target
//   ImportElementwiseOps.cpp  convert compare
//   ImportShapeOps.cpp        iota broadcast transpose reverse bitcast slice
//                             dynamic-slice dynamic-update-slice
//                             concatenate pad
//   ImportReductionOps.cpp    reduce reduce-window; reducer computations
//   ImportContractionOps.cpp  dot convolution
//   ImportIndexingOps.cpp     gather scatter
//   ImportControlFlowOps.cpp  call fusion while conditional
//   ImportCollectiveOps.cpp   all-reduce all-gather reduce-scatter
//                             all-to-all collective-permute rng-bit-generator
//   ImportSortOps.cpp         sort topk select-and-scatter; scalar
//                             computations as regions
//   ImportLinearAlgebraOps.cpp  triangular-solve fft
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_IMPORTER_H
#define TORUS_IR_HLO_IMPORTER_H

#include "ir/TorusOps.h"
#include "ir/hlo/HloAst.h"
#include "ir/hlo/HloImport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::torus::hlo {

class SourceLocator;
struct Sharding;
struct WindowDim;

/// The signless tensor type of an array shape (unsigned types become the
/// signless type of their width).
RankedTensorType tensorType(MLIRContext *ctx, const Shape &shape);
/// `f32[2,3]`, `(f32[], s32[4])`: a shape as errors name it.
std::string shapeText(const Shape &shape);

/// The parameter number of `instr` if it is `parameter(N)`.
std::optional<int64_t> parameterNumber(const Instruction &instr);
/// For a reducer over `n` inputs whose result `j` is `op_j(param j, param
/// j + n)` (either order): the opcodes op_j. `replaceAllowed` also accepts
/// `ROOT parameter(1)` (scatter's overwrite) as "replace".
std::optional<llvm::SmallVector<llvm::StringRef>>
componentwiseReducer(const Computation &comp, unsigned n,
                     bool replaceAllowed = false);
/// True if `comp`, a reducer over (value, index) pairs, keeps the larger
/// (`isMax`) or smaller value with its index (ImportReductionOps.cpp).
bool isArgReducer(const Computation &comp, bool isMax, PrimitiveType valueType,
                  PrimitiveType indexType);
/// For a comparator computation (parameters 2k, 2k+1 compared, the first
/// pair deciding): true if it orders by `>` (sorts descending), false if by
/// `<`, nullopt if neither, judged by running it on sample values
/// (ImportReductionOps.cpp).
std::optional<bool> comparatorIsGreater(const Computation &comp);
/// The reduction kind of a reducer opcode (`add` is sum, ...).
std::optional<ReduceKind> reduceKindOf(llvm::StringRef opcode);

/// HLO's width-changing bitcast-convert between 32- and 64-bit elements
/// (the narrow side has a trailing dimension of 2, least significant half
/// first), written with integer ops (ImportElementwiseOps.cpp); null for
/// other widths. The StableHLO conversion uses it too.
Value bitcastAcrossWidths(OpBuilder &b, Location loc, Value x,
                          RankedTensorType to);

/// A `window={...}` as the attributes of reduce_window and convolution:
/// the sizes, and each of strides, dilations and padding only when some
/// dimension differs from the default.
struct WindowAttrs {
  DenseI64ArrayAttr size, strides, lhsDilation, rhsDilation;
  DenseIntElementsAttr padding;
};
WindowAttrs windowAttrs(OpBuilder &b, llvm::ArrayRef<WindowDim> window);

/// An HLO value: its shape (a tuple tree or an array) and its array leaves
/// in depth-first order.
struct HloValue {
  const Shape *shape = nullptr;
  llvm::SmallVector<Value, 1> leaves;
};

/// Replica groups, one list of ids per group.
using Groups = std::vector<llvm::SmallVector<int64_t>>;

class Importer {
public:
  Importer(const Module &module, const SourceLocator &locator, ModuleOp out,
           const HloImportOptions &options = {});

  LogicalResult run();

private:
  using Operands = llvm::ArrayRef<const HloValue *>;
  /// Imports one instruction (its operands already imported) into `result`.
  using Handler = LogicalResult (Importer::*)(const Instruction &instr,
                                              Operands operands,
                                              HloValue &result);
  /// What the importer knows of an opcode besides HloOpInterface: its
  /// handler (null: the op HloOpInterface names, created generically) and
  /// the attributes it reads (besides those every instruction may carry).
  struct OpcodeEntry {
    Handler handler = nullptr;
    std::vector<llvm::StringRef> attrs;
  };
  static const llvm::StringMap<OpcodeEntry> &opcodeTable();

  struct Scope {
    const Computation *comp;
    llvm::ArrayRef<HloValue> params;
    std::vector<std::optional<HloValue>> values;
    std::vector<uint8_t> state; // 0 new, 1 visiting, 2 done
    std::vector<llvm::SmallVector<unsigned, 4>> operandIndices;
  };

  /// An error at `loc` in the HLO text; while an instruction with a source
  /// location is imported, with a note naming that location.
  InFlightDiagnostic error(llvm::SMLoc loc);
  /// The location of the ops `instr` creates: its position in the HLO text
  /// fused with its source location (sourceLoc).
  Location opLoc(const Instruction &instr);
  /// Where the program `instr` came from says its metadata: the Python
  /// stack of `stack_frame_id` (innermost frame first, as CallSiteLocs),
  /// else `source_file`:`source_line`, named by `op_name`.
  std::optional<Location> sourceLoc(const Instruction &instr);
  /// The stack frame `id` and its callers, as a location.
  std::optional<Location> frameLoc(int64_t id);
  /// `in function, called from file:line:col in function, ...`: the stack
  /// of `id` (its own position is the note's location).
  std::string frameText(int64_t id);
  const Computation *computationRef(const Attr &attr);
  LogicalResult checkHeader();
  /// Checks every computation's signature, written operand shapes and
  /// parameter shardings, whether or not it is imported instruction by
  /// instruction (HloComputationChecks.cpp).
  LogicalResult checkComputations();
  LogicalResult checkComputation(const Computation &comp);
  /// A reducer of `instr` (named by `apply`) takes two scalars of each
  /// accumulator type: (acc_0, ..., acc_n-1, acc_0, ..., acc_n-1).
  LogicalResult checkReducerParameters(const Instruction &instr,
                                       const Attr &apply,
                                       const Computation &reducer,
                                       llvm::ArrayRef<PrimitiveType> accumulators);
  /// The replica and partition counts where the header does not state them
  /// (HloDeviceCounts.cpp).
  LogicalResult readDeviceCounts();
  /// True if the program is already partitioned: one program per device
  /// (HloDeviceCounts.cpp).
  bool isPerDeviceProgram();
  /// In a program made per device from a manual computation: the global
  /// types and shardings of the entry's parameters that became shards
  /// (`shards`) and of its results (the ROOT's), as kGlobalTypeAttrName
  /// and kGlobalShardingAttrName attributes of `fn`.
  LogicalResult setGlobalArrays(
      func::FuncOp fn, llvm::ArrayRef<const Instruction *> params,
      const llvm::DenseMap<int64_t, llvm::SmallVector<const Shape *>> &shards,
      const Instruction &root);
  /// replica-id and partition-id: in a per-device program run as one
  /// replica per device, the device's replica and its index within it.
  LogicalResult emitDeviceId(const Instruction &instr, Operands operands,
                             HloValue &result);
  LogicalResult parameterShapes(const Computation &comp,
                                std::vector<const Instruction *> &params);
  FailureOr<func::FuncOp> emitFunction(const Computation &comp, bool isEntry);
  FailureOr<HloValue> emitComputation(const Computation &comp,
                                      llvm::ArrayRef<HloValue> params);
  LogicalResult emitAll(Scope &scope, unsigned index);
  LogicalResult emitInstruction(Scope &scope, unsigned index);
  /// Dispatches `instr` to its handler or to the generic path.
  LogicalResult emitOp(const Instruction &instr, Operands operands,
                       HloValue &result);
  /// The torus op HloOpInterface names for `opcode`, if exactly one does and
  /// it can be created from operands and a result type alone.
  std::optional<RegisteredOperationName> genericOp(llvm::StringRef opcode);
  /// Creates the op `name` from the instruction's operands and result type.
  LogicalResult emitGeneric(RegisteredOperationName name,
                            const Instruction &instr, Operands operands,
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

  // Handlers, by opcode family (see the file comment).
  LogicalResult emitParameter(const Instruction &instr, Operands operands,
                              HloValue &result);
  LogicalResult emitConstant(const Instruction &instr, Operands operands,
                             HloValue &result);
  LogicalResult emitTuple(const Instruction &instr, Operands operands,
                          HloValue &result);
  LogicalResult emitGetTupleElement(const Instruction &instr, Operands operands,
                                    HloValue &result);
  LogicalResult emitCopy(const Instruction &instr, Operands operands,
                         HloValue &result);
  /// custom-call: dispatched on its target (ImportCustomCalls.cpp).
  LogicalResult emitCustomCall(const Instruction &instr, Operands operands,
                               HloValue &result);
  /// The custom-call targets Torus reads, and their handlers.
  static const llvm::StringMap<Handler> &customCallTargets();
  LogicalResult emitShardingCall(const Instruction &instr, Operands operands,
                                 HloValue &result);
  LogicalResult emitTopKCall(const Instruction &instr, Operands operands,
                             HloValue &result);
  LogicalResult emitPassThroughCall(const Instruction &instr,
                                    Operands operands, HloValue &result);
  LogicalResult emitManualEdgeCall(const Instruction &instr, Operands operands,
                                   HloValue &result);
  /// In a per-device program, the shard shape of each entry parameter that
  /// enters a manual computation (through Sharding custom-calls and into a
  /// GlobalToLocalShape or SPMDFullToShardShape), by parameter number.
  llvm::DenseMap<int64_t, llvm::SmallVector<const Shape *>> parameterShards();
  /// The manual computation's edges found, for isPerDeviceProgram.
  bool hasManualComputation();
  /// Shardy's manual computations must cover every mesh axis.
  LogicalResult checkManualAxes();
  LogicalResult emitConvert(const Instruction &instr, Operands operands,
                            HloValue &result);
  LogicalResult emitCompare(const Instruction &instr, Operands operands,
                            HloValue &result);
  LogicalResult emitReducePrecision(const Instruction &instr,
                                    Operands operands, HloValue &result);
  LogicalResult emitBitcastConvert(const Instruction &instr, Operands operands,
                                   HloValue &result);
  LogicalResult emitIota(const Instruction &instr, Operands operands,
                         HloValue &result);
  /// broadcast, transpose, reverse: one array and `dimensions={...}`.
  template <typename OpTy>
  LogicalResult emitWithDimensions(const Instruction &instr, Operands operands,
                                   HloValue &result, bool required);
  LogicalResult emitBroadcast(const Instruction &instr, Operands operands,
                              HloValue &result);
  LogicalResult emitTranspose(const Instruction &instr, Operands operands,
                              HloValue &result);
  LogicalResult emitReverse(const Instruction &instr, Operands operands,
                            HloValue &result);
  LogicalResult emitBitcast(const Instruction &instr, Operands operands,
                            HloValue &result);
  LogicalResult emitSlice(const Instruction &instr, Operands operands,
                          HloValue &result);
  LogicalResult emitDynamicSlice(const Instruction &instr, Operands operands,
                                 HloValue &result);
  LogicalResult emitDynamicUpdateSlice(const Instruction &instr,
                                       Operands operands, HloValue &result);
  LogicalResult emitConcatenate(const Instruction &instr, Operands operands,
                                HloValue &result);
  LogicalResult emitPad(const Instruction &instr, Operands operands,
                        HloValue &result);
  LogicalResult emitReduce(const Instruction &instr, Operands operands,
                           HloValue &result);
  LogicalResult emitReduceWindow(const Instruction &instr, Operands operands,
                                 HloValue &result);
  LogicalResult emitDot(const Instruction &instr, Operands operands,
                        HloValue &result);
  LogicalResult emitConvolution(const Instruction &instr, Operands operands,
                                HloValue &result);
  LogicalResult emitGather(const Instruction &instr, Operands operands,
                           HloValue &result);
  LogicalResult emitScatter(const Instruction &instr, Operands operands,
                            HloValue &result);
  /// The value of `callee` on `operands`, its body emitted in place.
  LogicalResult emitInlined(const Computation &callee, Operands operands,
                            HloValue &result);
  LogicalResult emitCall(const Instruction &instr, Operands operands,
                         HloValue &result);
  LogicalResult emitFusion(const Instruction &instr, Operands operands,
                           HloValue &result);
  LogicalResult emitWhile(const Instruction &instr, Operands operands,
                          HloValue &result);
  LogicalResult emitConditional(const Instruction &instr, Operands operands,
                                HloValue &result);
  LogicalResult emitCollective(const Instruction &instr, Operands operands,
                               HloValue &result);
  LogicalResult emitCollectivePermute(const Instruction &instr,
                                      Operands operands, HloValue &result);
  LogicalResult emitRngBitGenerator(const Instruction &instr, Operands operands,
                                    HloValue &result);
  LogicalResult emitSort(const Instruction &instr, Operands operands,
                         HloValue &result);
  LogicalResult emitTopK(const Instruction &instr, Operands operands,
                         HloValue &result);
  LogicalResult emitSelectAndScatter(const Instruction &instr,
                                     Operands operands, HloValue &result);
  LogicalResult emitTriangularSolve(const Instruction &instr, Operands operands,
                                    HloValue &result);
  LogicalResult emitFft(const Instruction &instr, Operands operands,
                        HloValue &result);
  /// Imports the computation named by `instr`'s attribute `attrName` into
  /// `region` as a scalar computation: one `tensor<T>` block argument per
  /// entry of `params`, returning one scalar per entry of `results` (a
  /// tuple of them in HLO when there are several).
  LogicalResult scalarComputation(const Instruction &instr,
                                  llvm::StringRef attrName, Region &region,
                                  llvm::ArrayRef<PrimitiveType> params,
                                  llvm::ArrayRef<PrimitiveType> results);

  // Helpers of the handlers.
  /// The computation `attrName` of a call or fusion, checked to produce the
  /// instruction's shape.
  const Computation *calledComputation(const Instruction &instr,
                                       llvm::StringRef attrName);
  /// dynamic-slice and dynamic-update-slice: the operand, and the start
  /// indices that follow the first `fixed` operands as scalars (the old
  /// single index vector is split).
  LogicalResult dynamicSliceOperands(const Instruction &instr,
                                     Operands operands, size_t fixed,
                                     Value &operand,
                                     llvm::SmallVectorImpl<Value> &indices);
  /// Operands of a collective and their result shapes (one each; several
  /// operands for the tuple form).
  LogicalResult
  collectiveOperands(const Instruction &instr, Operands operands,
                     llvm::SmallVectorImpl<Value> &xs,
                     llvm::SmallVectorImpl<const Shape *> &resultShapes);
  /// The reduction kind of `instr`'s `to_apply` over `n` inputs, or an
  /// error naming the computation. Its parameters must be two scalars of
  /// each of `accumulators` (checkReducerParameters); an empty list checks
  /// only that they are scalars (a tuple collective over mixed types).
  FailureOr<llvm::SmallVector<llvm::StringRef>>
  reducerOpcodes(const Instruction &instr, unsigned n, bool replaceAllowed,
                 llvm::ArrayRef<PrimitiveType> accumulators);

  FailureOr<int64_t> intAttr(const Instruction &instr, llvm::StringRef name,
                             std::optional<int64_t> fallback = std::nullopt);
  FailureOr<llvm::SmallVector<int64_t>>
  listAttr(const Instruction &instr, llvm::StringRef name, bool required);
  FailureOr<bool> boolAttr(const Instruction &instr, llvm::StringRef name);
  const Attr *requireAttr(const Instruction &instr, llvm::StringRef name);

  /// reduce and reduce-window: inputs, as many init values, and an array
  /// result per input (a tuple of them for several), checked.
  struct Reduction {
    llvm::SmallVector<Value> inputs, inits;
    llvm::SmallVector<RankedTensorType> types;
    const Computation *reducer = nullptr;
    /// The opcode each result's reducer applies, when it is a kind that
    /// applies to the element type (torus.reduce, torus.reduce_window);
    /// otherwise the reducer is imported as a body.
    std::optional<llvm::SmallVector<llvm::StringRef>> kinds;
  };
  FailureOr<Reduction> reductionOperands(const Instruction &instr,
                                         Operands operands);
  /// Imports the reducer `to_apply` of `instr` into `body`: accumulators
  /// and elements of the init values' types, returning accumulators.
  LogicalResult reducerBody(const Instruction &instr, Region &body,
                            Operands inits);
  /// gather and scatter with batching dimensions (`operandBatch` of the
  /// operand paired with `indicesBatch` of the indices): rewrites
  /// `indices`, `indexVectorDim`, the collapsed (inserted) dimensions and
  /// the index map into the equivalent form without them.
  LogicalResult unbatch(const Instruction &instr, llvm::StringRef operandAttr,
                        llvm::StringRef indicesAttr,
                        llvm::ArrayRef<int64_t> operandBatch,
                        llvm::ArrayRef<int64_t> indicesBatch, Value &indices,
                        int64_t &indexVectorDim,
                        llvm::SmallVector<int64_t> &collapsed,
                        llvm::SmallVector<int64_t> &indexMap);
  /// The `window={...}` of a windowed op over an operand of `rank`
  /// dimensions (a size-1 window per dimension when absent).
  FailureOr<llvm::SmallVector<WindowDim>> windowOf(const Instruction &instr,
                                                   int64_t rank);
  /// The operand's single array value, or an error if it is a tuple.
  FailureOr<Value> array(const Instruction &instr, Operands operands, size_t i);
  /// What a handler of an instruction of `n` array operands and an array
  /// result starts from, checked (count, no tuples): its result type and
  /// operand values.
  struct Arrays {
    RankedTensorType type;
    llvm::SmallVector<Value, 4> values;
  };
  FailureOr<Arrays> arrays(const Instruction &instr, Operands operands,
                           size_t n);
  /// The instruction's array result type, or an error if it is a tuple.
  FailureOr<RankedTensorType> resultType(const Instruction &instr);
  LogicalResult checkOperandCount(const Instruction &instr, size_t n,
                                  size_t got);

  const Module &ast_;
  const SourceLocator &locator_;
  MLIRContext *ctx_;
  OpBuilder b_;
  ModuleOp module_;
  HloImportOptions options_;
  int64_t replicaCount_ = 1;
  int64_t numPartitions_ = 1;
  bool haveReplicaCount_ = false;
  bool haveNumPartitions_ = false;
  /// Where the counts came from, for errors about device ids.
  std::string replicasFrom_ = "replica_count in the HloModule header";
  std::string partitionsFrom_ = "num_partitions in the HloModule header";
  /// The program is already per device (isPerDeviceProgram): it runs as
  /// replicaCount_ x numPartitions_ replicas and its shardings are dropped.
  bool perDevice_ = false;
  int depth_ = 0;
  /// How many scalar computations (scalarComputation) enclose the
  /// instruction being emitted.
  int scalarComputationDepth_ = 0;
  /// The instructions being imported, innermost last (a fusion, then an
  /// instruction of its computation): errors name the source location of
  /// the innermost one that has one.
  llvm::SmallVector<const Instruction *, 4> active_;
  llvm::DenseMap<int64_t, Location> frameLocs_;
  /// The scope of the instruction being emitted (for `parameter`).
  const Scope *scope_ = nullptr;
  /// The torus ops HloOpInterface names, by opcode (`conditional` names
  /// two), from the context's registered ops.
  llvm::StringMap<llvm::SmallVector<RegisteredOperationName, 1>> hloOps_;
  llvm::DenseMap<const Computation *, func::FuncOp> functions_;
  llvm::SmallPtrSet<const Computation *, 8> inProgress_;
};

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_IMPORTER_H
