//===- LlvmDiagnosticsTest.cpp - LLVM's diagnostics stay off stderr -------===//
//
// Code generation that makes LLVM diagnose (a warning: a stack frame over
// its limit; an error: inline assembly that does not assemble) prints
// nothing and exits nothing: the warning is kept, the error is the Status.
// (Some LLVM failures are report_fatal_error aborts, inline assembly that
// does not parse among them; no handler can turn those into a Status.)
//
//===----------------------------------------------------------------------===//

#include "runtime/jit/JitModule.h"
#include "runtime/jit/LlvmDiagnostics.h"
#include "runtime/RuntimeAbi.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context,
                                    const char *text) {
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(text, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

// 4 KiB on the stack of a function allowed 16 bytes.
constexpr const char *kBigFrame = R"(
define void @big(i64 %i) "warn-stack-size"="16" {
  %buffer = alloca [4096 x i8]
  %p = getelementptr [4096 x i8], ptr %buffer, i64 0, i64 %i
  store volatile i8 1, ptr %p
  ret void
}
)";

// A float returned in an SSE register from a function without SSE: the
// x86 back end diagnoses an error (and LLVM's default handler would print
// it and exit the process).
constexpr const char *kNoSse = R"(
define float @bad(float %x) "target-features"="-sse,-sse2" {
  ret float %x
}
)";

CpuTarget host() {
  auto target = defaultCpuTarget();
  EXPECT_TRUE(target.ok()) << target.status();
  return *target;
}

TEST(LlvmDiagnosticsTest, AWarningIsKeptNotPrinted) {
  llvm::LLVMContext context;
  auto module = parse(context, kBigFrame);
  ASSERT_TRUE(module);
  testing::internal::CaptureStderr();
  auto object = JitModule::compileFor(*module, host(), CodeFileType::Object, 2);
  std::string printed = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(object.ok()) << object.status();
  EXPECT_EQ(printed, "");
  EXPECT_THAT(captureLlvmDiagnostics(context)->warnings(),
              HasSubstr("stack frame size"));
}

TEST(LlvmDiagnosticsTest, AnErrorIsTheStatusNotAnExit) {
  llvm::LLVMContext context;
  auto module = parse(context, kNoSse);
  ASSERT_TRUE(module);
  testing::internal::CaptureStderr();
  auto object = JitModule::compileFor(*module, host(), CodeFileType::Object, 2);
  std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");
  ASSERT_FALSE(object.ok());
  EXPECT_EQ(object.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(object.status().message()),
              HasSubstr("LLVM code generation: "));
  EXPECT_THAT(std::string(object.status().message()),
              HasSubstr("SSE register return with SSE disabled"));
}

TEST(LlvmDiagnosticsTest, TheJitReportsCodegenErrorsAtLookup) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = parse(*context, kNoSse);
  ASSERT_TRUE(module);
  JitOptions options;
  options.target = host();
  options.symbols = runtimeAbiSymbols();
  testing::internal::CaptureStderr();
  auto jit = JitModule::load(std::move(context), std::move(module), options);
  absl::StatusOr<void *> address = absl::UnknownError("not loaded");
  if (jit.ok())
    address = (*jit)->lookup("bad");
  std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");
  ASSERT_TRUE(jit.ok()) << jit.status();
  ASSERT_FALSE(address.ok());
  EXPECT_THAT(std::string(address.status().message()),
              HasSubstr("SSE register return with SSE disabled"));
}

TEST(LlvmDiagnosticsTest, CapturingTwiceKeepsOneRecord) {
  llvm::LLVMContext context;
  auto first = captureLlvmDiagnostics(context);
  EXPECT_EQ(captureLlvmDiagnostics(context), first);
  first->record(true, "one");
  first->record(true, "two");
  first->record(false, "careful");
  absl::Status errors = first->takeErrors("step");
  EXPECT_EQ(errors.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(errors.message(), "step: one; two");
  EXPECT_TRUE(first->takeErrors("step").ok()); // taken
  EXPECT_EQ(first->warnings(), "careful");
}

} // namespace
} // namespace torus::rt
