//===- StablehloImport.cpp - StableHLO text to the torus dialect ----------===//

#include "ir/stablehlo/StablehloImport.h"

#include "ir/ArgumentName.h"
#include "ir/SourceNesting.h"
#include "ir/TorusOps.h"
#include "ir/stablehlo/ChloOps.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/SdyOps.h"
#include "ir/stablehlo/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

namespace mlir::torus::stablehlo {

void registerStablehloDialects(DialectRegistry &registry) {
  registry.insert<::mlir::stablehlo::StableHLODialect, ::mlir::chlo::CHLODialect,
                  ::mlir::sdy::SdyDialect, func::FuncDialect>();
}

bool looksLikeStablehlo(llvm::StringRef text) {
  static const llvm::Regex op("(^|[^A-Za-z0-9_])(stablehlo|chlo)\\.[a-z_]+");
  // Outside `//` comments, so that a torus program may mention them.
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    if (op.match(line.split("//").first))
      return true;
  }
  return false;
}

std::string repackBooleanHex(llvm::StringRef text) {
  static const llvm::Regex hexBool(
      "dense<\"0x([0-9A-Fa-f]*)\"> : tensor<([0-9x]*)i1>");
  std::string out;
  llvm::StringRef rest = text;
  llvm::SmallVector<llvm::StringRef, 3> m;
  while (hexBool.match(rest, &m)) {
    llvm::StringRef hex = m[1], shape = m[2];
    size_t start = m[0].data() - rest.data();
    out += rest.substr(0, start);
    rest = rest.drop_front(start + m[0].size());
    int64_t count = 1;
    llvm::SmallVector<llvm::StringRef> dims;
    shape.split(dims, 'x', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef d : dims) {
      int64_t v = 0;
      d.getAsInteger(10, v);
      count *= v;
    }
    auto byteAt = [&](size_t i) {
      unsigned v = 0;
      hex.substr(2 * i, 2).getAsInteger(16, v);
      return v;
    };
    size_t bytes = hex.size() / 2;
    std::string packed;
    if (bytes == 1) {
      // A splat: MLIR 19 reads 0x00 or 0xFF.
      packed = byteAt(0) ? "FF" : "00";
    } else if (static_cast<int64_t>(bytes) == count && count > 0) {
      std::vector<uint8_t> bits((count + 7) / 8, 0);
      for (int64_t i = 0; i < count; ++i)
        if (byteAt(i))
          bits[i / 8] |= 1u << (i % 8);
      static const char *digits = "0123456789ABCDEF";
      for (uint8_t b : bits) {
        packed += digits[b >> 4];
        packed += digits[b & 15];
      }
    } else {
      packed = hex.str(); // already packed, or not ours to fix
    }
    out += "dense<\"0x" + packed + "\"> : tensor<" + shape.str() + "i1>";
  }
  out += rest;
  return out;
}

OwningOpRef<ModuleOp> parseStablehloText(const llvm::SourceMgr &sourceMgr,
                                         MLIRContext *context) {
  DialectRegistry registry;
  registerStablehloDialects(registry);
  registry.insert<TorusDialect>();
  context->appendDialectRegistry(registry);
  context->loadDialect<::mlir::stablehlo::StableHLODialect,
                       ::mlir::chlo::CHLODialect, ::mlir::sdy::SdyDialect,
                       func::FuncDialect, TorusDialect>();
  if (failed(checkSourceNesting(sourceMgr, context)))
    return nullptr;
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string text = repackBooleanHex(buffer->getBuffer());
  llvm::SourceMgr repacked;
  repacked.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                                  text, buffer->getBufferIdentifier()),
                              llvm::SMLoc());
  return parseNamingArguments(repacked, ParserConfig(context));
}

OwningOpRef<ModuleOp> importStablehloText(const llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context) {
  OwningOpRef<ModuleOp> module = parseStablehloText(sourceMgr, context);
  if (!module)
    return nullptr;
  if (failed(convertStablehloToTorus(*module)) || failed(verify(*module)))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> importStablehloText(llvm::StringRef text,
                                          llvm::StringRef bufferName,
                                          MLIRContext *context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  return importStablehloText(sourceMgr, context);
}

} // namespace mlir::torus::stablehlo
