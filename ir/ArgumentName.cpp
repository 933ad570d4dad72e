//===- ArgumentName.cpp - The names of a function's arguments -------------===//

#include "ir/ArgumentName.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::torus {

namespace {
/// The first FileLineColLoc in `loc`, if any.
std::optional<FileLineColLoc> fileLocIn(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}
} // namespace

std::optional<std::string> argumentName(BlockArgument arg) {
  auto name = dyn_cast<NameLoc>(arg.getLoc());
  if (!name || !isa<FileLineColLoc>(name.getChildLoc()))
    return std::nullopt;
  return name.getName().str();
}

std::string argumentNameOrPosition(BlockArgument arg) {
  if (auto name = argumentName(arg))
    return *name;
  return "arg" + std::to_string(arg.getArgNumber());
}

void setArgumentName(BlockArgument arg, llvm::StringRef name,
                     Location fallback) {
  MLIRContext *ctx = arg.getContext();
  std::optional<FileLineColLoc> where = fileLocIn(arg.getLoc());
  if (!where)
    where = fileLocIn(fallback);
  if (!where)
    where = FileLineColLoc::get(ctx, name, 0, 0);
  arg.setLoc(NameLoc::get(StringAttr::get(ctx, name), *where));
}

bool isValidArgumentName(llvm::StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
  });
}

namespace {
/// Names the public functions' arguments in `parsed` after their
/// definitions in the text (`state` holds their source ranges).
void nameArgumentsAsWritten(Operation *parsed, const AsmParserState &state) {
  parsed->walk([&](func::FuncOp fn) {
    if (!fn.isPublic() || fn.isExternal())
      return;
    const auto *def = state.getBlockDef(&fn.getBody().front());
    if (!def)
      return;
    for (auto [arg, written] : llvm::zip(fn.getArguments(), def->arguments)) {
      llvm::SMRange range = written.loc;
      if (!range.isValid() || argumentName(arg))
        continue;
      llvm::StringRef name(range.Start.getPointer(),
                           range.End.getPointer() - range.Start.getPointer());
      name.consume_front("%");
      if (name.empty() ||
          name.find_first_not_of("0123456789") == llvm::StringRef::npos)
        continue;
      setArgumentName(arg, name, fn.getLoc());
    }
  });
}
} // namespace

OwningOpRef<ModuleOp> parseNamingArguments(const llvm::SourceMgr &sourceMgr,
                                           const ParserConfig &config) {
  // Parsed keeping the source ranges of definitions, for the names.
  Block parsed;
  AsmParserState state;
  if (failed(parseAsmSourceFile(sourceMgr, &parsed, config, &state)))
    return nullptr;
  for (Operation &op : parsed)
    nameArgumentsAsWritten(&op, state);
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  MLIRContext *context = config.getContext();
  return detail::constructContainerOpForParserIfNecessary<ModuleOp>(
      &parsed, context,
      FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0));
}

} // namespace mlir::torus
