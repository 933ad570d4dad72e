//===- StablehloRoundTripTest.cpp - Every corpus file parses and prints ---===//
//
// Parses each `mlir/*.mlir` of the StableHLO corpus (TORUS_STABLEHLO_CORPUS)
// with the stablehlo and chlo dialects, prints it, parses the print and
// prints again: both prints must be equal. Reports every failing file.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/StablehloImport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

std::string printModule(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// Empty on success, else what went wrong.
std::string roundTrip(const std::string &path) {
  mlir::DialectRegistry registry;
  mlir::torus::stablehlo::registerStablehloDialects(registry);
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream(diagnostics) << d.getLocation() << ": " << d
                                          << "\n";
    return mlir::success();
  });
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "cannot read";
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  auto first = mlir::torus::stablehlo::parseStablehloText(sourceMgr, &context);
  if (!first)
    return "parse: " + diagnostics;
  std::string printed = printModule(*first);
  auto second = mlir::parseSourceString<mlir::ModuleOp>(printed, &context);
  if (!second)
    return "reparse: " + diagnostics + "\n" + printed;
  std::string reprinted = printModule(*second);
  if (reprinted != printed)
    return "print differs after reparse:\n" + printed + "\n---\n" + reprinted;
  return "";
}

TEST(StablehloRoundTripTest, EveryCorpusFileParsesAndRoundTrips) {
  std::string dir = std::string(TORUS_STABLEHLO_CORPUS) + "/mlir";
  // CMake registers this test only where the corpus is: missing, it fails.
  ASSERT_TRUE(llvm::sys::fs::is_directory(dir)) << "no corpus at " << dir;
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  size_t failures = 0;
  for (const std::string &file : files) {
    std::string problem = roundTrip(file);
    if (problem.empty())
      continue;
    ++failures;
    if (failures <= 20)
      ADD_FAILURE() << file << ": " << problem.substr(0, 2000);
  }
  EXPECT_EQ(failures, 0u) << "of " << files.size() << " files";
  std::printf("round-tripped %zu of %zu files\n", files.size() - failures,
              files.size());
}

} // namespace
