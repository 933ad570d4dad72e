//===- ArgumentName.cpp - The names of a function's arguments -------------===//

#include "ir/ArgumentName.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

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

} // namespace mlir::torus
