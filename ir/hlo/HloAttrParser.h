//===- HloAttrParser.h - Parsing HLO attribute values -----------*- C++ -*-===//
//
// The values of HLO attributes (`dimensions={1,0}`, `slice={[0:4:1]}`,
// `window={size=3x3 pad=1_1x1_1}`, `replica_groups=[2,2]<=[4]`, shardings,
// metadata, ...), each parsed from the raw text the parser kept. Every
// function reports its own errors at the offending character and returns
// failure.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_HLOATTRPARSER_H
#define TORUS_IR_HLO_HLOATTRPARSER_H

#include "ir/hlo/HloAst.h"
#include "ir/hlo/HloParser.h"

#include <string>

namespace mlir::torus::hlo {

/// One dimension of `window={...}`.
struct WindowDim {
  int64_t size = 1, stride = 1, padLow = 0, padHigh = 0, lhsDilate = 1,
          rhsDilate = 1;
  bool reversal = false;
};

/// `dim_labels=b01f_01io->b01f`: the position of each role in each operand.
struct DimLabels {
  int64_t inputBatch = -1, inputFeature = -1;
  llvm::SmallVector<int64_t> inputSpatial;
  int64_t kernelInput = -1, kernelOutput = -1;
  llvm::SmallVector<int64_t> kernelSpatial;
  int64_t outputBatch = -1, outputFeature = -1;
  llvm::SmallVector<int64_t> outputSpatial;
};

/// `metadata={op_name="..." source_file="..." source_line=12
/// source_column=3 stack_frame_id=4}`; other fields are skipped.
struct Metadata {
  std::string opName, sourceFile;
  int64_t sourceLine = 0, sourceColumn = 0;
  /// An id of the module's StackFrames table (0: none).
  int64_t stackFrameId = 0;
  /// Where `stack_frame_id`'s value is written.
  const char *stackFrameIdAt = nullptr;
};

/// An HLO sharding (`{replicated}`, `{maximal device=1}`,
/// `{devices=[2,1]0,1}`, `... last_tile_dim_replicate`, tuples).
struct Sharding {
  enum class Kind { Replicated, Manual, Maximal, Tiled, Tuple };
  Kind kind = Kind::Replicated;
  int64_t device = 0;
  llvm::SmallVector<int64_t> tileShape;
  llvm::SmallVector<int64_t> devices;
  bool lastTileDimReplicate = false;
  /// `last_tile_dims={manual, replicated}`.
  llvm::SmallVector<std::string> lastTileDims;
  std::vector<Sharding> elements;

  /// XLA's spelling, with device lists written out.
  std::string toString() const;
};

/// The elements of `arange(prod(dims)).reshape(dims).transpose(perm)` in
/// row-major order: the iota device and replica-group lists (`<=[4,2]T(1,0)`).
/// Empty `perm` means no transpose.
llvm::SmallVector<int64_t> iotaList(llvm::ArrayRef<int64_t> dims,
                                    llvm::ArrayRef<int64_t> perm);

class AttrParser {
public:
  AttrParser(const Attr &attr, const SourceLocator &locator)
      : attr_(attr), locator_(locator) {}

  /// `5`, `-1`.
  LogicalResult integer(int64_t &value);
  /// `true` or `false`.
  LogicalResult boolean(bool &value);
  /// A word such as `LT` or `rng_three_fry`.
  LogicalResult word(llvm::StringRef &value);
  /// `{1,0}` or `{}`.
  LogicalResult intList(llvm::SmallVectorImpl<int64_t> &values);
  /// `{{0,1},{2,3}}` (rows may differ in length) or `{}`.
  LogicalResult intLists(std::vector<llvm::SmallVector<int64_t>> &rows);
  /// `{{0,1},{2,3}}`, `[2,2]<=[4]`, `[2,2]<=[2,2]T(1,0)` or
  /// `mesh['x'=2,'y'=4] {'x'}` (the devices along the named mesh axes).
  LogicalResult replicaGroups(std::vector<llvm::SmallVector<int64_t>> &groups);
  /// `{[0:4:1], [2:3]}`: start, limit, stride (default 1).
  LogicalResult slice(llvm::SmallVectorImpl<int64_t> &start,
                      llvm::SmallVectorImpl<int64_t> &limit,
                      llvm::SmallVectorImpl<int64_t> &stride);
  /// `0_0x1_1` or `0_0_1x2_2_0`: low, high and interior per dimension.
  LogicalResult padding(llvm::SmallVectorImpl<int64_t> &low,
                        llvm::SmallVectorImpl<int64_t> &high,
                        llvm::SmallVectorImpl<int64_t> &interior);
  /// `{size=2x2 stride=2x2 pad=0_0x1_1 lhs_dilate=1x1 rhs_dilate=1x1
  /// rhs_reversal=0x0}`.
  LogicalResult window(llvm::SmallVectorImpl<WindowDim> &dims);
  LogicalResult dimLabels(DimLabels &labels);
  /// `%name` or `name`.
  LogicalResult computation(llvm::StringRef &name);
  /// `{%a, %b}`.
  LogicalResult computations(llvm::SmallVectorImpl<llvm::StringRef> &names);
  /// `"text"` with C escapes.
  LogicalResult string(std::string &value);
  LogicalResult metadata(Metadata &metadata);
  LogicalResult sharding(Sharding &sharding);

private:
  InFlightDiagnostic error(const char *at) {
    return locator_.error(llvm::SMLoc::getFromPointer(at));
  }
  InFlightDiagnostic errorAt(Cursor &c) { return locator_.error(c.loc()); }
  /// "expected X in 'name'" at the cursor.
  LogicalResult expected(Cursor &c, llvm::StringRef what);
  LogicalResult finish(Cursor &c);
  Cursor cursor() const { return Cursor(attr_.value); }
  LogicalResult integerAt(Cursor &c, int64_t &value);
  LogicalResult intListAt(Cursor &c, llvm::SmallVectorImpl<int64_t> &values,
                          char open, char close);
  LogicalResult quoted(Cursor &c, std::string &value);
  LogicalResult
  meshReplicaGroups(Cursor &c, std::vector<llvm::SmallVector<int64_t>> &groups);
  LogicalResult shardingAt(Cursor &c, Sharding &sharding, int depth);
  LogicalResult singleSharding(Cursor &c, Sharding &sharding);
  /// `NxMx...` integers separated by 'x'.
  LogicalResult xList(Cursor &c, llvm::SmallVectorImpl<int64_t> &values);

  const Attr &attr_;
  const SourceLocator &locator_;
};

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_HLOATTRPARSER_H
