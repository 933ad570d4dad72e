//===- IRDumper.cpp - Numbered IR dumps into a directory ------------------===//

#include "codegen/IRDumper.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace mlir::torus {

std::string sanitizeFileName(std::string_view name) {
  std::string out;
  for (char c : name)
    out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                          c == '-' || c == '_'
                      ? c
                      : '_');
  return out.empty() ? "_" : out;
}

namespace {

Operation *outermost(Operation *op) {
  while (Operation *parent = op->getParentOp())
    op = parent;
  return op;
}

/// A function declaration: nothing to run a pass on, nothing to dump.
bool isDeclaration(Operation *op) {
  return op->getNumRegions() > 0 && op->getRegion(0).empty() &&
         op->getParentOp();
}

/// MLIR reports its pass adaptors (the `func.func(...)` nesting) as passes
/// too; their inner passes are dumped one by one.
bool isAdaptor(Pass *pass) {
  return pass->getArgument().empty() &&
         pass->getName().contains("OpToOpPassAdaptor");
}

std::string passName(Pass *pass) {
  return pass->getArgument().empty() ? pass->getName().str()
                                     : pass->getArgument().str();
}

class DumpInstrumentation : public PassInstrumentation {
public:
  explicit DumpInstrumentation(IRDumper &dumper) : dumper_(dumper) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    if (!dumper_.options().beforePasses || isAdaptor(pass) ||
        isDeclaration(op))
      return;
    dumper_.recordError(
        dumper_.writeNumberedModule("before_" + passName(pass), op));
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    if (isAdaptor(pass) || isDeclaration(op))
      return;
    dumper_.recordError(
        dumper_.writeNumberedModule("after_" + passName(pass), op));
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    if (isAdaptor(pass))
      return;
    dumper_.recordError(
        dumper_.writeNumberedModule("failed_" + passName(pass), op));
  }

private:
  IRDumper &dumper_;
};

} // namespace

IRDumper::IRDumper(std::string directory, std::string moduleName,
                   int moduleId, IRDumperOptions options)
    : directory_(std::move(directory)),
      prefix_(fmt::format("module_{:04d}.{}", moduleId,
                          sanitizeFileName(moduleName))),
      options_(std::move(options)) {}

absl::StatusOr<std::unique_ptr<IRDumper>>
IRDumper::create(std::string directory, std::string moduleName, int moduleId,
                 IRDumperOptions options) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec)
    return absl::PermissionDeniedError(fmt::format(
        "cannot create the dump directory '{}': {}", directory, ec.message()));
  return std::unique_ptr<IRDumper>(new IRDumper(
      std::move(directory), std::move(moduleName), moduleId, options));
}

std::string IRDumper::path(std::string_view what,
                           std::string_view extension) const {
  return (std::filesystem::path(directory_) /
          fmt::format("{}.{}.{}", prefix_, sanitizeFileName(what), extension))
      .string();
}

absl::Status IRDumper::writeFile(const std::string &path,
                                 std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return absl::PermissionDeniedError(
        fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out)
    return absl::DataLossError(fmt::format("cannot write '{}'", path));
  files_.push_back(path);
  return absl::OkStatus();
}

absl::Status IRDumper::write(std::string_view what, std::string_view extension,
                             std::string_view text) {
  return writeFile(path(what, extension), text);
}

absl::Status IRDumper::writeNumbered(std::string_view what,
                                     std::string_view extension,
                                     std::string_view text) {
  std::string name = fmt::format("{}.{:04d}.{}.{}", prefix_, counter_++,
                                 sanitizeFileName(what), extension);
  return writeFile((std::filesystem::path(directory_) / name).string(), text);
}

absl::Status IRDumper::writeNumberedModule(std::string_view what,
                                           Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  outermost(op)->print(os, options_.printingFlags);
  os << "\n";
  return writeNumbered(what, "mlir", text);
}

std::unique_ptr<PassInstrumentation> IRDumper::createInstrumentation() {
  return std::make_unique<DumpInstrumentation>(*this);
}

void IRDumper::recordError(absl::Status status) {
  if (status_.ok())
    status_ = std::move(status);
}

} // namespace mlir::torus
