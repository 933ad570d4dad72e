//===- QuietLibraryTest.cpp - The library writes nothing to stderr --------===//
//
// Compiles and runs that succeed, and ones that fail in every layer (the
// tracer, the compiler's target, the run's inputs, LLVM code generation
// through an AOT object), leave stderr empty: what went wrong is the Status.
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

using namespace torus;
using ::testing::HasSubstr;

namespace {

absl::StatusOr<TracedFunction> square() {
  return trace("square", {{DType::F32, {4}}},
               [](const std::vector<Tensor> &args) -> std::vector<Tensor> {
                 return {allReduce(args[0] * args[0])};
               });
}

TEST(QuietLibraryTest, ASuccessfulCompileAndRunPrintNothing) {
  testing::internal::CaptureStderr();
  auto fn = square();
  absl::StatusOr<Executable> exe = absl::UnknownError("not traced");
  if (fn.ok())
    exe = compile(*fn, {.numReplicas = 2});
  auto mesh = EmulatedMesh::create(2);
  absl::StatusOr<std::vector<std::vector<HostTensor>>> out =
      absl::UnknownError("not run");
  if (exe.ok() && mesh.ok()) {
    std::vector<std::vector<HostTensor>> in;
    for (int r = 0; r < 2; ++r)
      in.push_back({HostTensor::fromVector<float>({4}, {1, 2, 3, 4})});
    out = mesh->run(*exe, in);
  }
  std::string printed = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(printed, "");
  EXPECT_EQ((*out)[1][0].data<float>()[3], 32.0f);
}

TEST(QuietLibraryTest, FailuresAreStatusesNotOutput) {
  testing::internal::CaptureStderr();
  // The tracer: shapes that do not broadcast.
  auto bad = trace("bad", {{DType::F32, {4}}, {DType::F32, {3}}},
                   [](const std::vector<Tensor> &a) -> std::vector<Tensor> {
                     return {a[0] + a[1]};
                   });
  auto fn = square();
  // The compiler: a CPU that does not exist, by option and by environment.
  absl::StatusOr<Executable> byOption = absl::UnknownError("not traced");
  absl::StatusOr<Executable> byEnvironment = absl::UnknownError("not traced");
  if (fn.ok()) {
    byOption = compile(*fn, {.numReplicas = 2, .target = "pentium9"});
    setenv("TORUS_TARGET", "pentium9", 1);
    byEnvironment = compile(*fn, {.numReplicas = 2});
    unsetenv("TORUS_TARGET");
  }
  // The run: inputs of the wrong shape.
  absl::StatusOr<std::vector<std::vector<HostTensor>>> out =
      absl::UnknownError("not run");
  auto mesh = EmulatedMesh::create(2);
  if (fn.ok() && mesh.ok())
    if (auto exe = compile(*fn, {.numReplicas = 2}); exe.ok())
      out = mesh->run(*exe, {{HostTensor::fromVector<float>({1}, {1.0f})},
                             {HostTensor::fromVector<float>({1}, {1.0f})}});
  std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");
  EXPECT_FALSE(bad.ok());
  ASSERT_TRUE(fn.ok()) << fn.status();
  ASSERT_FALSE(byOption.ok());
  EXPECT_THAT(std::string(byOption.status().message()), HasSubstr("pentium9"));
  ASSERT_FALSE(byEnvironment.ok());
  EXPECT_THAT(std::string(byEnvironment.status().message()),
              HasSubstr("pentium9"));
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("f32[4]"));
}

} // namespace
