//===- SourceProgram.cpp - Reading a program the tools compile ------------===//

#include "tools/common/SourceProgram.h"

#include "ir/DiagnosticCollector.h"
#include "ir/hlo/HloImport.h"
#include "ir/stablehlo/StablehloImport.h"
#include "ir/trace/TracedFunctionImpl.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"

#include <fmt/format.h>

#include <regex>

namespace torus::tools {

namespace {

using Reader = absl::StatusOr<SourceProgram> (*)(const std::string &text,
                                                 const std::string &name,
                                                 const SourceOptions &options);

absl::StatusOr<SourceProgram> readMlir(const std::string &text,
                                       const std::string &name,
                                       const SourceOptions &) {
  auto parsed = parseModule(text, name);
  if (!parsed.ok()) {
    // Errors about the module as a whole carry no location: give them the
    // file's, so that every error reads `file:line:col: error: ...`.
    std::string message(parsed.status().message());
    if (message.rfind(name + ":", 0) != 0)
      message = fmt::format("{}:1:1: error: {}", name, message);
    return absl::Status(parsed.status().code(), message);
  }
  TracedFunction fn = std::move(*parsed);
  std::vector<std::string> names = fn.argumentNames();
  return SourceProgram{std::move(fn), std::move(names)};
}

/// HLO text (ir/hlo): the entry's arguments are named after its
/// parameter instructions.
absl::StatusOr<SourceProgram> readHlo(const std::string &text,
                                      const std::string &name,
                                      const SourceOptions &options) {
  auto context = createTorusContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    mlir::torus::DiagnosticCollector diags(context.get());
    mlir::torus::hlo::HloImportOptions import;
    import.numReplicas = options.numReplicas;
    import.numPartitions = options.numPartitions;
    module =
        mlir::torus::hlo::importHloText(text, name, context.get(), import);
    if (!module)
      return absl::InvalidArgumentError(diags.take());
  }
  TORUS_ASSIGN_OR_RETURN(TracedFunction fn, makeTracedFunction(
                                                std::move(context),
                                                std::move(module)));
  std::vector<std::string> names = fn.argumentNames();
  return SourceProgram{std::move(fn), std::move(names)};
}

/// StableHLO text (ir/stablehlo): a `.mlir` file whose ops are stablehlo's.
absl::StatusOr<SourceProgram> readStablehlo(const std::string &text,
                                            const std::string &name,
                                            const SourceOptions &) {
  auto context = createTorusContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    mlir::torus::DiagnosticCollector diags(context.get());
    module = mlir::torus::stablehlo::importStablehloText(text, name,
                                                         context.get());
    if (!module)
      return absl::InvalidArgumentError(diags.take());
  }
  TORUS_ASSIGN_OR_RETURN(TracedFunction fn, makeTracedFunction(
                                                std::move(context),
                                                std::move(module)));
  // The importer named the arguments as written (ir/ArgumentName.h).
  std::vector<std::string> names = fn.argumentNames();
  return SourceProgram{std::move(fn), std::move(names)};
}

struct Format {
  std::string_view extension;
  Reader read;
  /// Why there is no reader yet.
  std::string_view missing;
};

const Format kReaders[] = {
    {".mlir", readMlir, ""},
    {".hlo", readHlo, ""},
};

bool endsWith(const std::string &s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

bool isSourceProgramPath(const std::string &path) {
  for (const Format &format : kReaders)
    if (endsWith(path, format.extension))
      return true;
  return false;
}

absl::StatusOr<SourceProgram>
parseSourceProgram(const std::string &path, const std::string &text,
                   const SourceOptions &options) {
  std::string name = path == "-" ? "<stdin>" : path;
  for (const Format &format : kReaders) {
    if (!endsWith(path, format.extension))
      continue;
    if (!format.read)
      return absl::UnimplementedError(
          fmt::format("{}: {}", name, format.missing));
    if (format.read == readMlir &&
        mlir::torus::stablehlo::looksLikeStablehlo(text))
      return readStablehlo(text, name, options);
    return format.read(text, name, options);
  }
  // XLA's dumps (`--xla_dump_to`) are `.txt` files: HLO text is known by
  // its first word.
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text.compare(first, 10, "HloModule ") == 0)
    return readHlo(text, name, options);
  if (mlir::torus::stablehlo::looksLikeStablehlo(text))
    return readStablehlo(text, name, options);
  return readMlir(text, name, options);
}

absl::StatusOr<std::string> readProgramText(const std::string &path,
                                            int64_t maxBytes) {
  const std::string shown = path == "-" ? "<stdin>" : path;
  auto tooLarge = [&] {
    return absl::NotFoundError(fmt::format(
        "cannot read '{}': it is larger than {} bytes, the largest program "
        "the tools read",
        shown, maxBytes));
  };
  llvm::sys::fs::file_t fd = llvm::sys::fs::getStdinHandle();
  if (path != "-") {
    // A regular file's size is known; anything else (a pipe, a device such
    // as /dev/zero) is read in chunks until it ends or passes the limit.
    uint64_t size = 0;
    if (!llvm::sys::fs::file_size(path, size) &&
        llvm::sys::fs::is_regular_file(path) &&
        size > static_cast<uint64_t>(maxBytes))
      return tooLarge();
    auto opened = llvm::sys::fs::openNativeFileForRead(path);
    if (!opened)
      return absl::NotFoundError(fmt::format(
          "cannot read '{}': {}", path,
          llvm::errorToErrorCode(opened.takeError()).message()));
    fd = *opened;
  }
  auto close = llvm::make_scope_exit([&] {
    if (path != "-")
      llvm::sys::fs::closeFile(fd);
  });
  constexpr size_t kChunk = size_t(1) << 20;
  std::vector<std::string> chunks;
  int64_t total = 0;
  while (true) {
    std::string chunk(kChunk, '\0');
    auto got = llvm::sys::fs::readNativeFile(
        fd, llvm::MutableArrayRef<char>(chunk.data(), chunk.size()));
    if (!got)
      return absl::NotFoundError(fmt::format(
          "cannot read '{}': {}", shown,
          llvm::errorToErrorCode(got.takeError()).message()));
    if (*got == 0)
      break;
    chunk.resize(*got);
    total += static_cast<int64_t>(*got);
    if (total > maxBytes)
      return tooLarge();
    chunks.push_back(std::move(chunk));
  }
  std::string text;
  text.reserve(static_cast<size_t>(total));
  for (const std::string &chunk : chunks)
    text += chunk;
  return text;
}

absl::StatusOr<SourceProgram> readSourceProgram(const std::string &path,
                                                const SourceOptions &options) {
  TORUS_ASSIGN_OR_RETURN(std::string text,
                         readProgramText(path, options.maxProgramBytes));
  return parseSourceProgram(path, text, options);
}

std::string normalizeDiagnostics(std::string text) {
  static const std::regex located(
      R"(^([^\s:][^:]*:\d+:\d+): (?!error:|warning:|note:|remark:))");
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string line =
        text.substr(start, end == std::string::npos ? end : end - start);
    out += std::regex_replace(line, located, "$1: error: ",
                              std::regex_constants::format_first_only);
    if (end == std::string::npos)
      break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

} // namespace torus::tools
