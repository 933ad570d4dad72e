//===- JitModuleTest.cpp - Loading generated code, and its perf map -------===//

#include "runtime/jit/JitModule.h"
#include "runtime/jit/PerfMap.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace torus::rt {
namespace {

/// int32 entry(int32 x) { return helper(x) + 1; }, helper(x) = 2 * x
/// internal: `entry` is exported, `helper` is not.
std::unique_ptr<llvm::Module> twoFunctions(llvm::LLVMContext &context) {
  auto module = std::make_unique<llvm::Module>("two", context);
  llvm::IRBuilder<> b(context);
  auto *type = llvm::FunctionType::get(b.getInt32Ty(), {b.getInt32Ty()}, false);
  auto *helper = llvm::Function::Create(
      type, llvm::GlobalValue::InternalLinkage, "helper", *module);
  helper->addFnAttr(llvm::Attribute::NoInline);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "body", helper));
  b.CreateRet(b.CreateMul(helper->getArg(0), b.getInt32(2)));
  auto *entry = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, "entry", *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "body", entry));
  b.CreateRet(b.CreateAdd(b.CreateCall(helper, {entry->getArg(0)}),
                          b.getInt32(1)));
  return module;
}

std::unique_ptr<JitModule> loadTwoFunctions() {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = twoFunctions(*context);
  JitOptions options;
  options.optLevel = 0; // keep `helper` a function of its own
  auto jit = JitModule::load(std::move(context), std::move(module), options);
  EXPECT_TRUE(jit.ok()) << jit.status();
  return jit.ok() ? std::move(*jit) : nullptr;
}

std::string readAll(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(JitModuleTest, LoadsAModuleAndCallsItsEntry) {
  std::unique_ptr<JitModule> jit = loadTwoFunctions();
  ASSERT_NE(jit, nullptr);
  auto entry = jit->lookup("entry");
  ASSERT_TRUE(entry.ok()) << entry.status();
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(*entry)(20), 41);
  EXPECT_FALSE(jit->lookup("helper").ok()) << "internal symbols stay hidden";
}

// Code calling a function nothing provides: the lookup's Status names the
// missing symbol, and nothing is printed on stderr (ORC would print "JIT
// session error: ..." there by default).
TEST(JitModuleTest, UnresolvedSymbolIsInTheStatusNotOnStderr) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("missing", *context);
  llvm::IRBuilder<> b(*context);
  auto *type = llvm::FunctionType::get(b.getInt32Ty(), {b.getInt32Ty()}, false);
  auto *missing = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, "__torus_no_such_routine",
      *module);
  auto *entry = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, "entry", *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(*context, "body", entry));
  b.CreateRet(b.CreateCall(missing, {entry->getArg(0)}));
  JitOptions options;
  options.optLevel = 0;
  auto jit = JitModule::load(std::move(context), std::move(module), options);
  ASSERT_TRUE(jit.ok()) << jit.status();
  ::testing::internal::CaptureStderr();
  auto address = (*jit)->lookup("entry");
  std::string printed = ::testing::internal::GetCapturedStderr();
  ASSERT_FALSE(address.ok());
  EXPECT_NE(address.status().message().find("__torus_no_such_routine"),
            std::string::npos)
      << address.status();
  EXPECT_EQ(printed, "");
}

TEST(JitModuleTest, PerfMapListsTheFunctionsOnlyWhenAsked) {
  const std::string path = perfMapPath();
  std::remove(path.c_str());
  unsetenv("TORUS_PERF_MAP");
  ASSERT_NE(loadTwoFunctions(), nullptr);
  EXPECT_FALSE(std::ifstream(path).good()) << path << " written unasked";

  setenv("TORUS_PERF_MAP", "1", 1);
  std::unique_ptr<JitModule> jit = loadTwoFunctions();
  unsetenv("TORUS_PERF_MAP");
  ASSERT_NE(jit, nullptr);
  auto entry = jit->lookup("entry");
  ASSERT_TRUE(entry.ok()) << entry.status();

  // "<start> <size> <name>" in hex, as perf reads it; the internal helper
  // is listed too (it is a function perf may sample in).
  const std::string map = readAll(path);
  std::istringstream lines(map);
  std::remove(path.c_str());
  bool sawEntry = false, sawHelper = false;
  for (std::string line; std::getline(lines, line);) {
    unsigned long long start = 0, size = 0;
    char name[64] = {};
    ASSERT_EQ(std::sscanf(line.c_str(), "%llx %llx %63s", &start, &size, name),
              3)
        << "malformed line: " << line;
    EXPECT_GT(size, 0u) << line;
    if (std::string(name) == "entry") {
      sawEntry = true;
      EXPECT_EQ(start, reinterpret_cast<uintptr_t>(*entry)) << line;
    }
    sawHelper |= std::string(name) == "helper";
  }
  EXPECT_TRUE(sawEntry);
  EXPECT_TRUE(sawHelper) << map;
}

} // namespace
} // namespace torus::rt
