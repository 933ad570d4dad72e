//===- HloParser.h - Reading HLO text into a syntax tree --------*- C++ -*-===//
//
// HloParser reads XLA's HLO text format, long form (operands written with
// their shapes) or short form, into the tree of HloAst.h. Cursor is the
// character-level scanner it and the attribute parsers share; SourceLocator
// turns a position in the buffer into an MLIR location (file:line:col), so
// that every diagnostic points at the token it is about.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_HLO_HLOPARSER_H
#define TORUS_IR_HLO_HLOPARSER_H

#include "ir/hlo/HloAst.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::torus::hlo {

/// Locations and errors for one source buffer.
class SourceLocator {
public:
  SourceLocator(const llvm::SourceMgr &sourceMgr, MLIRContext *context);

  /// `file:line:col` of `loc` (a pointer into the main buffer).
  FileLineColLoc location(llvm::SMLoc loc) const;
  InFlightDiagnostic error(llvm::SMLoc loc) const {
    return emitError(location(loc));
  }
  /// The 1-based line of `loc`.
  unsigned line(llvm::SMLoc loc) const;
  MLIRContext *context() const { return context_; }

private:
  const llvm::SourceMgr &sourceMgr_;
  MLIRContext *context_;
  StringAttr bufferName_;
};

/// A scanner over [pos, end): whitespace and `/* */` and `//` comments are
/// skipped before every token.
class Cursor {
public:
  Cursor(const char *begin, const char *end) : pos(begin), end(end) {}
  explicit Cursor(llvm::StringRef text) : pos(text.begin()), end(text.end()) {}

  /// Skips whitespace and comments. An unterminated block comment is
  /// skipped to the end and remembered in `badComment`.
  void skip();
  bool atEnd() {
    skip();
    return pos >= end;
  }
  char peek() {
    skip();
    return pos < end ? *pos : '\0';
  }
  /// The character after the next one (after skipping), or '\0'.
  char peek2() {
    skip();
    return pos + 1 < end ? pos[1] : '\0';
  }
  bool consume(char c);
  /// Consumes `text` if it comes next (as characters, not as a word).
  bool consume(llvm::StringRef text);
  /// Consumes the word `keyword` if the next word is exactly it.
  bool consumeKeyword(llvm::StringRef keyword);
  llvm::SMLoc loc() {
    skip();
    return llvm::SMLoc::getFromPointer(pos);
  }
  /// A word: `[A-Za-z_][A-Za-z0-9_.-]*`; empty if none comes next.
  llvm::StringRef word();
  /// A value name: an optional `%` then `[A-Za-z0-9_.-]+` (the `%` is not
  /// part of the result); empty if none comes next.
  llvm::StringRef name();
  /// A signed decimal integer. Sets `overflow` if it does not fit in int64.
  std::optional<int64_t> integer(bool &overflow);
  /// A number or word token as written (`-1.5e+3`, `-inf`, `nan`, `true`,
  /// `0x1p-3`): the characters `[A-Za-z0-9_.+-]` (and `(...)` after `nan`).
  llvm::StringRef numberToken();
  /// Skips a balanced attribute value and returns it trimmed: it ends at
  /// a `,` or newline outside brackets, or at an unmatched closing
  /// bracket. Sets `unbalanced` if the text ends inside brackets or a
  /// string.
  llvm::StringRef rawValue(bool &unbalanced);

  const char *pos;
  const char *end;
  const char *badComment = nullptr;
};

/// Parses the main buffer of `sourceMgr` as an HLO module. Errors are
/// emitted through `locator` (as `file:line:col: error: ...`).
LogicalResult parseHloModule(const llvm::SourceMgr &sourceMgr,
                             const SourceLocator &locator, Module &module);

/// Parses a shape at `cursor` (used for `entry_computation_layout`).
LogicalResult parseHloShape(Cursor &cursor, const SourceLocator &locator,
                            Shape &shape);

} // namespace mlir::torus::hlo

#endif // TORUS_IR_HLO_HLOPARSER_H
