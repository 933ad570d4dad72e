//===- HloAst.h - HLO text as parsed, before import -------------*- C++ -*-===//
//
// The syntax tree of an HLO text module: what HloParser reads and the
// importer turns into the torus dialect. Names, opcodes and attribute values
// are StringRefs into the source buffer (which outlives the tree), and every
// piece carries its SMLoc so that a diagnostic can point at it. Attribute
// values are kept as raw text and parsed by the importer, which knows what
// each attribute means (HloAttrParser.h).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_HLOAST_H
#define TORUS_IR_HLO_HLOAST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::torus::hlo {

/// The HLO element types Torus reads. Signed integers become MLIR's
/// signless integers, unsigned ones `ui8`..`ui64`.
enum class PrimitiveType {
  Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128,
  F8E4M3FN, F8E5M2
};

/// `f32`, `pred`, ...: the HLO spelling.
llvm::StringRef primitiveTypeName(PrimitiveType type);
/// The type named `name`, if Torus supports it.
std::optional<PrimitiveType> parsePrimitiveType(llvm::StringRef name);
bool isUnsigned(PrimitiveType type);
bool isFloat(PrimitiveType type);
/// c64 (two f32) and c128 (two f64).
bool isComplex(PrimitiveType type);
/// Bits of one element (1 for pred).
unsigned bitWidth(PrimitiveType type);

/// An HLO shape: an array (element type, dimensions and layout) or a tuple
/// of shapes.
struct Shape {
  bool isTuple = false;
  std::vector<Shape> elements;
  PrimitiveType type = PrimitiveType::F32;
  llvm::SmallVector<int64_t> dims;
  /// The layout `{1,0}`: dimensions from minor to major, checked to name
  /// each dimension once; empty when none is written (row-major). Only
  /// `bitcast` reads it: every other op's values are logical arrays.
  llvm::SmallVector<int64_t> minorToMajor;
  llvm::SMLoc loc;

  /// The layout's dimensions from major to minor: the order in which
  /// memory holds them (row-major `0, 1, ...` when no layout is written).
  llvm::SmallVector<int64_t> majorToMinor() const;

  /// Arrays in depth-first order (an array is its own single leaf).
  void leaves(llvm::SmallVectorImpl<const Shape *> &out) const;
  size_t numLeaves() const;
  /// Index of the first leaf of element `i` of a tuple.
  size_t leafOffset(size_t i) const;
  bool sameAs(const Shape &other) const;
  bool isScalar() const { return !isTuple && dims.empty(); }
};

/// `name=value`, the value as written (balanced brackets, no trailing
/// comma).
struct Attr {
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  llvm::StringRef value;
  llvm::SMLoc valueLoc;
};

struct Operand {
  llvm::StringRef name; // without '%'
  llvm::SMLoc loc;
  /// The shape written before the name in the long form.
  std::optional<Shape> shape;
};

struct Instruction {
  llvm::StringRef name; // without '%'
  llvm::SMLoc nameLoc;
  bool isRoot = false;
  Shape shape;
  llvm::StringRef opcode;
  llvm::SMLoc opcodeLoc;
  std::vector<Operand> operands;
  /// The text between the parentheses of `constant(...)` and
  /// `parameter(...)`, which hold a literal or a number, not operands.
  llvm::StringRef rawOperand;
  llvm::SMLoc rawOperandLoc;
  std::vector<Attr> attrs;

  const Attr *attr(llvm::StringRef attrName) const {
    for (const Attr &a : attrs)
      if (a.name == attrName)
        return &a;
    return nullptr;
  }
};

/// A computation's written signature, `(x: f32[2], y: s32[]) -> f32[2]`.
struct Signature {
  llvm::SMLoc loc;
  std::vector<Shape> params;
  Shape result;
};

struct Computation {
  llvm::StringRef name; // without '%'
  llvm::SMLoc loc;
  bool isEntry = false;
  /// When written: checked against the parameter instructions and the root
  /// by the importer.
  std::optional<Signature> signature;
  std::vector<Instruction> instructions;
  llvm::StringMap<unsigned> byName;
  /// The ROOT instruction, or the last one when none is marked.
  int root = -1;
};

/// The tables XLA writes after the module header when instructions name
/// their Python stack with `metadata={stack_frame_id=N}`:
///
///   FileNames
///   1 "/src/model.py"
///   FunctionNames
///   1 "<module>"
///   FileLocations
///   1 {file_name_id=1 function_name_id=1 line=38 end_line=38 column=6 ...}
///   StackFrames
///   1 {file_location_id=1 parent_frame_id=1}
///
/// Ids are 1-based. XLA prints `parent_frame_id` one more than the parent's
/// id (its proto's 0-based field), so `parent_frame_id=1` means no parent and
/// `parent` below holds the parent's id itself (0: none).
struct StackFrameTables {
  struct FileLocation {
    int64_t fileName = 0, functionName = 0, line = 0, column = 0;
    llvm::SMLoc loc;
  };
  struct Frame {
    int64_t fileLocation = 0, parent = 0;
    llvm::SMLoc loc;
  };
  std::map<int64_t, std::string> fileNames, functionNames;
  std::map<int64_t, FileLocation> fileLocations;
  std::map<int64_t, Frame> frames;
  bool empty() const { return frames.empty(); }
};

struct Module {
  llvm::StringRef name;
  llvm::SMLoc loc;
  std::vector<Attr> attrs;
  StackFrameTables stackFrames;
  std::vector<Computation> computations;
  llvm::StringMap<unsigned> byName;
  int entry = -1;

  const Attr *attr(llvm::StringRef attrName) const {
    for (const Attr &a : attrs)
      if (a.name == attrName)
        return &a;
    return nullptr;
  }
};

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_HLOAST_H
