//===- SourceNesting.cpp - Bounding the bracket nesting of text -----------===//

#include "ir/SourceNesting.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::torus {

LogicalResult checkSourceNesting(const llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  llvm::StringRef text = buffer->getBuffer();
  int depth = 0;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    switch (c) {
    case '"': // A string literal, with backslash escapes.
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < n && text[i + 1] == '/')
        while (i < n && text[i] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > kMaxSourceNesting) {
        auto [line, column] = sourceMgr.getLineAndColumn(
            llvm::SMLoc::getFromPointer(text.data() + i),
            sourceMgr.getMainFileID());
        emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                      line, column))
            << "brackets nested more than " << kMaxSourceNesting
            << " deep; Torus reads no deeper nesting";
        return failure();
      }
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-') // `->`
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return success();
}

} // namespace mlir::torus
