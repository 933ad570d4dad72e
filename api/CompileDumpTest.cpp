//===- CompileDumpTest.cpp - IR dumps of embedded compiles ----------------===//
//
// CompileOptions::dumpDir and TORUS_DUMP_TO write what `torusc --dump-dir`
// writes, for a compile inside a program.
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace torus;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the test's temporary folder.
fs::path freshDir(const std::string &name) {
  fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  return dir;
}

std::string read(const fs::path &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The files of `dir`, sorted by name.
std::vector<std::string> filesIn(const fs::path &dir) {
  std::vector<std::string> names;
  if (fs::exists(dir))
    for (const auto &entry : fs::directory_iterator(dir))
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<TracedFunction> traceStep() {
  return trace("dumped_step", {{DType::F32, {4, 3}}},
               [](const std::vector<Tensor> &args) -> std::vector<Tensor> {
                 return {sum(args[0] * args[0], {1})};
               });
}

// The numbered steps of one compile: the traced module (with this file's
// locations), the module after passes, and the LLVM IR before and after
// optimization; the compiled program still runs. The argument's name is in
// the dump and read back from it (for torusc --emit=hlo and torus-run).
TEST(CompileDumpTest, DumpDirHoldsEveryStep) {
  fs::path dir = freshDir("compile-dump");
  auto traced = traceStep();
  ASSERT_TRUE(traced.ok()) << traced.status();
  ASSERT_TRUE(traced->setArgumentNames({"batch"}).ok());
  auto exe = compile(*traced, {.dumpDir = dir.string()});
  ASSERT_TRUE(exe.ok()) << exe.status();
  std::vector<std::string> files = filesIn(dir);
  ASSERT_GE(files.size(), 4u);
  std::string input, llvm, optimized;
  int afterPasses = 0;
  for (const std::string &f : files) {
    EXPECT_THAT(f, ::testing::StartsWith("module_")) << f;
    EXPECT_THAT(f, HasSubstr(".dumped_step.")) << f;
    if (f.ends_with(".input.mlir"))
      input = f;
    if (f.find(".after_") != std::string::npos)
      ++afterPasses;
    if (f.ends_with(".llvm.ll"))
      llvm = f;
    if (f.ends_with(".llvm-opt.ll"))
      optimized = f;
  }
  ASSERT_FALSE(input.empty());
  EXPECT_GT(afterPasses, 3);
  ASSERT_FALSE(llvm.empty());
  ASSERT_FALSE(optimized.empty());
  // The traced module keeps the C++ source locations.
  EXPECT_THAT(read(dir / input), HasSubstr("CompileDumpTest.cpp"));
  EXPECT_THAT(read(dir / input), HasSubstr("loc(\"batch\"("));
  auto dumped = parseModule(read(dir / input), input);
  ASSERT_TRUE(dumped.ok()) << dumped.status();
  EXPECT_EQ(dumped->argumentNames(), std::vector<std::string>{"batch"});
  EXPECT_THAT(read(dir / llvm), HasSubstr("define"));

  auto mesh = EmulatedMesh::create(1);
  ASSERT_TRUE(mesh.ok());
  HostTensor x = HostTensor::fromVector<float>(
      {4, 3}, {1, 2, 3, 0, 0, 0, -1, 1, 2, 3, 3, 3});
  auto out = mesh->run(*exe, {{x}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0][0].toVector<float>(),
            (std::vector<float>{14, 0, 6, 27}));
}

// TORUS_DUMP_TO dumps a compile that names no directory; two compiles get
// different module numbers, so neither overwrites the other.
TEST(CompileDumpTest, EnvironmentVariableDumpsEveryCompile) {
  fs::path dir = freshDir("compile-dump-env");
  ASSERT_EQ(setenv("TORUS_DUMP_TO", dir.c_str(), 1), 0);
  auto traced = traceStep();
  ASSERT_TRUE(traced.ok()) << traced.status();
  auto first = compile(*traced);
  auto second = compile(*traced);
  unsetenv("TORUS_DUMP_TO");
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok()) << second.status();
  std::set<std::string> modules;
  for (const std::string &f : filesIn(dir))
    if (f.ends_with(".input.mlir"))
      modules.insert(f.substr(0, f.find('.')));
  EXPECT_EQ(modules.size(), 2u);
}

// A directory that cannot be made fails the compile with its path.
TEST(CompileDumpTest, UnwritableDirectoryIsAnError) {
  auto traced = traceStep();
  ASSERT_TRUE(traced.ok()) << traced.status();
  auto exe = compile(*traced, {.dumpDir = "/proc/torus-no-such-dir/dumps"});
  ASSERT_FALSE(exe.ok());
  EXPECT_THAT(exe.status().message(), HasSubstr("/proc/torus-no-such-dir"));
}

} // namespace
